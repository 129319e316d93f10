// h4_lu: the first K steps of PolyBench-GPU lu (no pivoting) on two n x n
// float matrices (n = 4096, 64 MB each, diagonally dominant), kernels
// launched per step k: (1) lu_kernel1, one thread per column (blocks of 256),
// `if (j > k && j < n) A[k*n + j] = A[k*n + j] / A[k*n + k]`, on both
// matrices; (2) lu_kernel2, the suite's row update, one thread per element
// (j from threadIdx.x, i from threadIdx.y, 32 x 8 blocks, `size_t` indices),
// `if (i > k && j > k && i < n && j < n) A[i*n + j] = A[i*n + j] - A[i*n + k]
// * A[k*n + j]`, on the first matrix; (3) lu_kernel2_rows, the same row
// update written one thread per row i > k (blocks of 128, `int` indices)
// walking its row, `for (j = k + 1; j < n; j++) B[i*n + j] -= B[i*n + k] *
// B[k*n + j]`, on the second matrix. K = 6 (kernel1 launched 12 times, the
// updates 6 times each). Timed: all 24 launches. Checked exactly (IEEE
// division; the update as fmaf(-A[i][k], A[k][j], A[i][j]): the PTX has
// fma.rn, or a mul.f32 and sub.f32 in one block that ptxas contracts).
#include "../common.h"

typedef float DATA_TYPE;

__global__ void lu_kernel1(DATA_TYPE *A, int k, int n) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;

  if ((j > k) && (j < n)) {
    A[k * n + j] = A[k * n + j] / A[k * n + k];
  }
}

__global__ void lu_kernel2(DATA_TYPE *A, size_t k, size_t n) {
  size_t j = blockIdx.x * blockDim.x + threadIdx.x;
  size_t i = blockIdx.y * blockDim.y + threadIdx.y;

  if ((i > k) && (j > k) && (i < n) && (j < n)) {
    A[i * n + j] = A[i * n + j] - A[i * n + k] * A[k * n + j];
  }
}

__global__ void lu_kernel2_rows(DATA_TYPE *B, int k, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x + k + 1;

  if (i < n) {
    for (int j = k + 1; j < n; j++) {
      B[i * n + j] -= B[i * n + k] * B[k * n + j];
    }
  }
}

int main(int argc, char **argv) {
  const int n = argInt(argc, argv, 1, 4096), K = argInt(argc, argv, 2, 6);
  const size_t nn = size_t(n) * n;
  std::vector<float> A(nn), B(nn);
  fillFloats(A, 4601);
  fillFloats(B, 4602);
  for (size_t i = 0; i < size_t(n); i++) {
    A[i * n + i] += float(n);
    B[i * n + i] += float(n);
  }
  float *dA = toDevice(A), *dB = toDevice(B);
  CHECK(cudaDeviceSynchronize());
  GpuTimer t;
  t.start();
  for (int k = 0; k < K; k++) {
    lu_kernel1<<<blocksFor(n, 256), 256>>>(dA, k, n);
    CHECK_LAUNCH();
    lu_kernel2<<<dim3(blocksFor(n, 32), blocksFor(n, 8)), dim3(32, 8)>>>(dA, size_t(k), size_t(n));
    CHECK_LAUNCH();
    lu_kernel1<<<blocksFor(n, 256), 256>>>(dB, k, n);
    CHECK_LAUNCH();
    lu_kernel2_rows<<<blocksFor(n - k - 1, 128), 128>>>(dB, k, n);
    CHECK_LAUNCH();
  }
  float ms = t.stop();
  std::vector<float> gA = fromDevice(dA, nn), gB = fromDevice(dB, nn);

  for (std::vector<float> *M : {&A, &B}) {
    std::vector<float> &X = *M;
    for (size_t k = 0; k < size_t(K); k++) {
      for (size_t j = k + 1; j < size_t(n); j++) X[k * n + j] = X[k * n + j] / X[k * n + k];
      for (size_t i = k + 1; i < size_t(n); i++) {
        const float xik = X[i * n + k];
        for (size_t j = k + 1; j < size_t(n); j++) X[i * n + j] = std::fmaf(-xik, X[k * n + j], X[i * n + j]);
      }
    }
  }
  bool ok = checkExact("lu (2-D update)", gA.data(), A.data(), nn);
  ok = checkExact("lu (row update)", gB.data(), B.data(), nn) && ok;
  CHECK(cudaFree(dA));
  CHECK(cudaFree(dB));
  return finish(ms, ok);
}
