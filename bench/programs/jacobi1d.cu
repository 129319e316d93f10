// jacobi1d (PolyBench/GPU): 3-point 1-D Jacobi, n = 2^20 floats, 50 time
// steps of two kernels (`B[i] = 0.33333f*(A[i-1]+A[i]+A[i+1])`, then
// `A[j] = B[j]`), 256 threads a block: 100 launches. Timed: all kernels.
// Checked exactly (the CPU does the same float operations in the same order).
#include "common.h"

__global__ void runJacobi1D_kernel1(const float *A, float *B, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i > 0 && i < n - 1) B[i] = 0.33333f * (A[i - 1] + A[i] + A[i + 1]);
}

__global__ void runJacobi1D_kernel2(float *A, const float *B, int n) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j > 0 && j < n - 1) A[j] = B[j];
}

int main(int argc, char **argv) {
  const int n = argInt(argc, argv, 1, 1 << 20), steps = argInt(argc, argv, 2, 50);
  std::vector<float> A(n), B(n);
  fillFloats(A, 101);
  fillFloats(B, 102);
  float *dA = toDevice(A), *dB = toDevice(B);
  GpuTimer t;
  t.start();
  for (int s = 0; s < steps; s++) {
    runJacobi1D_kernel1<<<blocksFor(n, 256), 256>>>(dA, dB, n);
    CHECK_LAUNCH();
    runJacobi1D_kernel2<<<blocksFor(n, 256), 256>>>(dA, dB, n);
    CHECK_LAUNCH();
  }
  float ms = t.stop();
  std::vector<float> got = fromDevice(dA, n);

  for (int s = 0; s < steps; s++) {
    for (int i = 1; i < n - 1; i++) B[i] = 0.33333f * (A[i - 1] + A[i] + A[i + 1]);
    for (int j = 1; j < n - 1; j++) A[j] = B[j];
  }
  return finish(ms, checkExact("A", got.data(), A.data(), n));
}
