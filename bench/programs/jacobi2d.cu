// jacobi2d (PolyBench/GPU): 5-point 2-D Jacobi, 1024 x 1024 float, 40 time
// steps of two kernels (`B[i][j] = 0.2f*(A[i][j]+A[i][j-1]+A[i][j+1]+
// A[i+1][j]+A[i-1][j])`, then `A[i][j] = B[i][j]` on the interior); blocks
// of 32 x 8: 80 launches. Timed: all kernels. Checked exactly.
#include "common.h"

__global__ void runJacobi2D_kernel1(const float *A, float *B, int n) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i >= 1 && i < n - 1 && j >= 1 && j < n - 1)
    B[i * n + j] = 0.2f * (A[i * n + j] + A[i * n + (j - 1)] + A[i * n + (1 + j)] + A[(1 + i) * n + j] +
                           A[(i - 1) * n + j]);
}

__global__ void runJacobi2D_kernel2(float *A, const float *B, int n) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i >= 1 && i < n - 1 && j >= 1 && j < n - 1) A[i * n + j] = B[i * n + j];
}

int main(int argc, char **argv) {
  const int n = argInt(argc, argv, 1, 1024), steps = argInt(argc, argv, 2, 40);
  std::vector<float> A(size_t(n) * n), B(size_t(n) * n);
  fillFloats(A, 111);
  fillFloats(B, 112);
  float *dA = toDevice(A), *dB = toDevice(B);
  dim3 block(32, 8), grid(blocksFor(n, 32), blocksFor(n, 8));
  GpuTimer t;
  t.start();
  for (int s = 0; s < steps; s++) {
    runJacobi2D_kernel1<<<grid, block>>>(dA, dB, n);
    CHECK_LAUNCH();
    runJacobi2D_kernel2<<<grid, block>>>(dA, dB, n);
    CHECK_LAUNCH();
  }
  float ms = t.stop();
  std::vector<float> got = fromDevice(dA, size_t(n) * n);

  for (int s = 0; s < steps; s++) {
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < n - 1; j++)
        B[size_t(i) * n + j] = 0.2f * (A[size_t(i) * n + j] + A[size_t(i) * n + (j - 1)] + A[size_t(i) * n + (1 + j)] +
                                       A[size_t(1 + i) * n + j] + A[size_t(i - 1) * n + j]);
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < n - 1; j++) A[size_t(i) * n + j] = B[size_t(i) * n + j];
  }
  return finish(ms, checkExact("A", got.data(), A.data(), size_t(n) * n));
}
