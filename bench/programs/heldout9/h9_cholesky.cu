// h9_cholesky: the first K steps of a right-looking Cholesky factorization
// (PolyBench cholesky's result, ordered for a GPU), float, lower triangle of
// an n x n row-major matrix (n = 4096, 64 MiB; the diagonal n, the rest in
// [0.25, 1.25); the upper triangle is never touched and is checked to be
// unchanged), in place, on a created stream, three launches a step k:
// (1) `A[k*n + k] = sqrtf(A[k*n + k])`, one thread; (2) a thread per row i
// > k, blocks of 128, `size_t` indices: `A[i*n + k] = A[i*n + k] / A[k*n +
// k]` (one element a row: a column, stride n); (3) the trailing update, a
// thread per (j, i) with i = k+1+y, j = k+1+x, 32 x 8 blocks, `int`
// indices, the triangular guard `j <= i`: `A[i*n + j] -= A[i*n + k] *
// A[j*n + k]` (reads column k, which this launch does not write; the grid
// shrinks with k). Sizes: n K = 4096 24 (argv). Timed: all 3K launches (the
// stream synchronized before the stop event). Checked: the whole matrix,
// rtol 1e-5 (the update may be contracted into an fma; the host uses fmaf).
#include "../common.h"

__global__ void chol_diag(float *A, int n, int k) { A[k * n + k] = sqrtf(A[k * n + k]); }

__global__ void chol_column(float *A, size_t n, size_t k) {
  size_t i = k + 1 + blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (i < n) A[i * n + k] = A[i * n + k] / A[k * n + k];
}

__global__ void chol_update(float *A, int n, int k) {
  int j = k + 1 + blockIdx.x * blockDim.x + threadIdx.x;
  int i = k + 1 + blockIdx.y * blockDim.y + threadIdx.y;
  if (i < n && j <= i) A[i * n + j] -= A[i * n + k] * A[j * n + k];
}

int main(int argc, char **argv) {
  const int n = argInt(argc, argv, 1, 4096), K = argInt(argc, argv, 2, 24);
  const size_t nn = size_t(n) * n;
  std::vector<float> A(nn);
  fillFloats(A, 9301);
  for (int i = 0; i < n; i++) A[size_t(i) * n + i] = float(n);
  float *d_A = toDevice(A);
  cudaStream_t s;
  CHECK(cudaStreamCreate(&s));
  CHECK(cudaDeviceSynchronize());

  GpuTimer t;
  t.start();
  for (int k = 0; k < K; k++) {
    chol_diag<<<1, 1, 0, s>>>(d_A, n, k);
    CHECK_LAUNCH();
    const int rest = n - k - 1;
    if (rest <= 0) continue;
    chol_column<<<blocksFor(rest, 128), 128, 0, s>>>(d_A, size_t(n), size_t(k));
    CHECK_LAUNCH();
    dim3 block(32, 8), grid((rest + 31) / 32, (rest + 7) / 8);
    chol_update<<<grid, block, 0, s>>>(d_A, n, k);
    CHECK_LAUNCH();
  }
  CHECK(cudaStreamSynchronize(s));
  float ms = t.stop();
  std::vector<float> gA = fromDevice(d_A, nn);

  for (int k = 0; k < K; k++) {
    const size_t kk = size_t(k);
    A[kk * n + kk] = std::sqrt(A[kk * n + kk]);
    for (size_t i = kk + 1; i < size_t(n); i++) A[i * n + kk] = A[i * n + kk] / A[kk * n + kk];
    for (size_t i = kk + 1; i < size_t(n); i++)
      for (size_t j = kk + 1; j <= i; j++) A[i * n + j] = std::fmaf(-A[i * n + kk], A[j * n + kk], A[i * n + j]);
  }
  bool ok = checkFloats("cholesky A", gA.data(), A.data(), nn, 1e-5);
  CHECK(cudaStreamDestroy(s));
  CHECK(cudaFree(d_A));
  return finish(ms, ok);
}
