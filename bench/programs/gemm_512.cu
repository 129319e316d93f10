// gemm_512 (PolyBench/GPU gemm): C = alpha A B + beta C, 512 x 512 float,
// one thread per element of C, `c[i*nj+j] *= beta` then
// `c[i*nj+j] += alpha*a[i*nk+k]*b[k*nj+j]` (the accumulator in global
// memory, as PolyBench writes it); blocks of 32 x 8. One launch.
// Timed: the kernel only. Checked on 1024 sampled elements (a CPU gemm of
// the whole matrix would cost more than the run).
#include "common.h"

__global__ void gemm_kernel(const float *a, const float *b, float *c, int ni, int nj, int nk, float alpha,
                            float beta) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < ni && j < nj) {
    c[i * nj + j] *= beta;
    for (int k = 0; k < nk; k++) c[i * nj + j] += alpha * a[i * nk + k] * b[k * nj + j];
  }
}

int main(int argc, char **argv) {
  const int n = argInt(argc, argv, 1, 512), ni = n, nj = n, nk = n;
  const float alpha = 1.5f, beta = 1.25f;
  std::vector<float> a(size_t(ni) * nk), b(size_t(nk) * nj), c(size_t(ni) * nj);
  fillFloats(a, 51);
  fillFloats(b, 52);
  fillFloats(c, 53);
  float *da = toDevice(a), *db = toDevice(b), *dc = toDevice(c);
  GpuTimer t;
  t.start();
  dim3 block(32, 8), grid(blocksFor(nj, 32), blocksFor(ni, 8));
  gemm_kernel<<<grid, block>>>(da, db, dc, ni, nj, nk, alpha, beta);
  CHECK_LAUNCH();
  float ms = t.stop();
  std::vector<float> got = fromDevice(dc, size_t(ni) * nj);

  Rng r(54);
  std::vector<float> g, want;
  for (int s = 0; s < 1024; s++) {
    int i = r.below(ni), j = r.below(nj);
    float v = c[size_t(i) * nj + j] * beta;
    for (int k = 0; k < nk; k++) v += alpha * a[size_t(i) * nk + k] * b[size_t(k) * nj + j];
    g.push_back(got[size_t(i) * nj + j]);
    want.push_back(v);
  }
  return finish(ms, checkFloats("c", g.data(), want.data(), g.size(), 1e-3));
}
