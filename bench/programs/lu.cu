// lu (PolyBench/GPU lu, the grid shrinking each step as Rodinia's gaussian
// launches it): in-place LU of a diagonally dominant 512 x 512 float
// matrix; for each k, kernel 1 scales row k right of the diagonal
// (`A[k][j] /= A[k][k]`, 256 threads a block) and kernel 2 updates the
// trailing (n-k-1)^2 block (`A[i][j] -= A[i][k]*A[k][j]`, blocks of
// 32 x 8), each grid covering only what is left: 1022 launches.
// Timed: all kernels. Checked against the CPU (fma on the device).
#include "common.h"

__global__ void lu_kernel1(float *A, int k, int n) {
  int j = k + 1 + blockIdx.x * blockDim.x + threadIdx.x;
  if (j < n) A[k * n + j] = A[k * n + j] / A[k * n + k];
}

__global__ void lu_kernel2(float *A, int k, int n) {
  int j = k + 1 + blockIdx.x * blockDim.x + threadIdx.x;
  int i = k + 1 + blockIdx.y * blockDim.y + threadIdx.y;
  if (i < n && j < n) A[i * n + j] = A[i * n + j] - A[i * n + k] * A[k * n + j];
}

int main(int argc, char **argv) {
  const int n = argInt(argc, argv, 1, 512);
  std::vector<float> A(size_t(n) * n);
  fillFloats(A, 151);
  for (int i = 0; i < n; i++) A[size_t(i) * n + i] += float(n);
  float *dA = toDevice(A);
  GpuTimer t;
  t.start();
  for (int k = 0; k < n - 1; k++) {
    const int m = n - k - 1;
    lu_kernel1<<<blocksFor(m, 256), 256>>>(dA, k, n);
    CHECK_LAUNCH();
    lu_kernel2<<<dim3(blocksFor(m, 32), blocksFor(m, 8)), dim3(32, 8)>>>(dA, k, n);
    CHECK_LAUNCH();
  }
  float ms = t.stop();
  std::vector<float> got = fromDevice(dA, size_t(n) * n);

  for (int k = 0; k < n - 1; k++) {
    for (int j = k + 1; j < n; j++) A[size_t(k) * n + j] = A[size_t(k) * n + j] / A[size_t(k) * n + k];
    for (int i = k + 1; i < n; i++)
      for (int j = k + 1; j < n; j++)
        A[size_t(i) * n + j] = A[size_t(i) * n + j] - A[size_t(i) * n + k] * A[size_t(k) * n + j];
  }
  return finish(ms, checkFloats("A", got.data(), A.data(), A.size(), 1e-3, 0.1));
}
