// 2mm (PolyBench/GPU): D = alpha (A B) C + beta D, 1024 x 1024 float: a
// matmul chain of two naive kernels, one thread per element, the
// accumulators in global memory as PolyBench writes them
// (`tmp[i*nj+j] += alpha*A[i*nk+k]*B[k*nj+j]`, then `D[i*nl+j] *= beta` and
// `D[i*nl+j] += tmp[i*nj+k]*C[k*nl+j]`); blocks of 32 x 8. Timed: both
// kernels. Checked on 8 sampled rows of D (every element of those rows).
#include "common.h"

__global__ void mm2_kernel1(const float *A, const float *B, float *tmp, int ni, int nj, int nk, float alpha) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < ni && j < nj) {
    tmp[i * nj + j] = 0;
    for (int k = 0; k < nk; k++) tmp[i * nj + j] += alpha * A[i * nk + k] * B[k * nj + j];
  }
}

__global__ void mm2_kernel2(const float *tmp, const float *C, float *D, int ni, int nj, int nl, float beta) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < ni && j < nl) {
    D[i * nl + j] *= beta;
    for (int k = 0; k < nj; k++) D[i * nl + j] += tmp[i * nj + k] * C[k * nl + j];
  }
}

int main(int argc, char **argv) {
  const int n = argInt(argc, argv, 1, 1024), ni = n, nj = n, nk = n, nl = n;
  const float alpha = 0.75f, beta = 1.25f;
  std::vector<float> A(size_t(ni) * nk), B(size_t(nk) * nj), C(size_t(nj) * nl), D(size_t(ni) * nl);
  fillFloats(A, 81);
  fillFloats(B, 82);
  fillFloats(C, 83);
  fillFloats(D, 84);
  float *dA = toDevice(A), *dB = toDevice(B), *dC = toDevice(C), *dD = toDevice(D), *dtmp;
  CHECK(cudaMalloc(&dtmp, size_t(ni) * nj * sizeof(float)));
  GpuTimer t;
  t.start();
  dim3 block(32, 8);
  mm2_kernel1<<<dim3(blocksFor(nj, 32), blocksFor(ni, 8)), block>>>(dA, dB, dtmp, ni, nj, nk, alpha);
  CHECK_LAUNCH();
  mm2_kernel2<<<dim3(blocksFor(nl, 32), blocksFor(ni, 8)), block>>>(dtmp, dC, dD, ni, nj, nl, beta);
  CHECK_LAUNCH();
  float ms = t.stop();
  std::vector<float> got = fromDevice(dD, size_t(ni) * nl);

  Rng r(85);
  bool ok = true;
  std::vector<float> tmp(nj), want(nl);
  for (int s = 0; s < 8; s++) {
    int i = r.below(ni);
    for (int j = 0; j < nj; j++) {
      float v = 0;
      for (int k = 0; k < nk; k++) v += alpha * A[size_t(i) * nk + k] * B[size_t(k) * nj + j];
      tmp[j] = v;
    }
    for (int j = 0; j < nl; j++) {
      float v = D[size_t(i) * nl + j] * beta;
      for (int k = 0; k < nj; k++) v += tmp[k] * C[size_t(k) * nl + j];
      want[j] = v;
    }
    ok = checkFloats("D", &got[size_t(i) * nl], want.data(), nl, 1e-3) && ok;
  }
  return finish(ms, ok);
}
