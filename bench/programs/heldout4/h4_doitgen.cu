// h4_doitgen: PolyBench-GPU doitgen (multiresolution analysis kernel),
// A is nr x nq x np, C4 np x np: (1) doitgen_kernel1, one thread per (p, q)
// of a slice (p from threadIdx.x, q from threadIdx.y, 16 x 16 blocks) and the
// slice r from blockIdx.z, `sum[r*(nq*np) + q*np + p] = 0; for (s < np)
// sum[...] = sum[...] + A[r*(nq*np) + q*np + s] * C4[s*np + p]` accumulated
// in global memory; (2) doitgen_kernel2, the same threads, `A[...] = sum[...]`.
// `int` indices, guards `if (p < np && q < nq)`. nr nq np = 512 512 64 (A and
// sum 64 MB each). Each kernel launched once (the suite's per-r launches
// folded into blockIdx.z). Timed: both kernels. Checked exactly (fmaf in
// the s order, the PTX has fma.rn).
#include "../common.h"

typedef float DATA_TYPE;

__global__ void doitgen_kernel1(int nr, int nq, int np, DATA_TYPE *sum, DATA_TYPE *A, DATA_TYPE *C4) {
  int p = blockIdx.x * blockDim.x + threadIdx.x;
  int q = blockIdx.y * blockDim.y + threadIdx.y;
  int r = blockIdx.z;

  if ((p < np) && (q < nq)) {
    sum[r * (nq * np) + q * np + p] = (DATA_TYPE)0.0;

    for (int s = 0; s < np; s++) {
      sum[r * (nq * np) + q * np + p] = sum[r * (nq * np) + q * np + p] + A[r * (nq * np) + q * np + s] * C4[s * np + p];
    }
  }
}

__global__ void doitgen_kernel2(int nr, int nq, int np, DATA_TYPE *sum, DATA_TYPE *A, DATA_TYPE *C4) {
  int p = blockIdx.x * blockDim.x + threadIdx.x;
  int q = blockIdx.y * blockDim.y + threadIdx.y;
  int r = blockIdx.z;

  if ((p < np) && (q < nq)) {
    A[r * (nq * np) + q * np + p] = sum[r * (nq * np) + q * np + p];
  }
}

int main(int argc, char **argv) {
  const int nr = argInt(argc, argv, 1, 512), nq = argInt(argc, argv, 2, 512), np = argInt(argc, argv, 3, 64);
  const size_t total = size_t(nr) * nq * np;
  std::vector<float> A(total), C4(size_t(np) * np);
  fillFloats(A, 4401);
  fillFloats(C4, 4402);
  float *dA = toDevice(A), *dC4 = toDevice(C4), *dsum;
  CHECK(cudaMalloc(&dsum, total * sizeof(float)));
  CHECK(cudaDeviceSynchronize());
  dim3 block(16, 16);
  dim3 grid(blocksFor(np, 16), blocksFor(nq, 16), nr);
  GpuTimer t;
  t.start();
  doitgen_kernel1<<<grid, block>>>(nr, nq, np, dsum, dA, dC4);
  CHECK_LAUNCH();
  doitgen_kernel2<<<grid, block>>>(nr, nq, np, dsum, dA, dC4);
  CHECK_LAUNCH();
  float ms = t.stop();
  std::vector<float> gA = fromDevice(dA, total), gsum = fromDevice(dsum, total);

  std::vector<float> rsum(total, 0.0f);
  for (size_t rq = 0; rq < size_t(nr) * nq; rq++) {
    const float *a = &A[rq * np];
    float *out = &rsum[rq * np];
    for (size_t s = 0; s < size_t(np); s++) {
      const float x = a[s];
      const float *c = &C4[s * np];
      for (size_t p = 0; p < size_t(np); p++) out[p] = std::fmaf(x, c[p], out[p]);
    }
  }
  bool ok = checkExact("doitgen sum", gsum.data(), rsum.data(), total);
  ok = checkExact("doitgen A", gA.data(), rsum.data(), total) && ok;
  CHECK(cudaFree(dA));
  CHECK(cudaFree(dC4));
  CHECK(cudaFree(dsum));
  return finish(ms, ok);
}
