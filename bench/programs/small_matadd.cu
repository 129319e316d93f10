// small_matadd: C = A + B, 256 x 256 float, blocks of 16 x 16, one launch:
// a whole program whose GPU time is a few microseconds. Timed: the kernel
// only. Checked exactly.
#include "common.h"

__global__ void matadd_kernel(const float *A, const float *B, float *C, int rows, int cols) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row < rows && col < cols) C[row * cols + col] = A[row * cols + col] + B[row * cols + col];
}

int main(int argc, char **argv) {
  const int rows = argInt(argc, argv, 1, 256), cols = argInt(argc, argv, 2, 256);
  const size_t n = size_t(rows) * cols;
  std::vector<float> A(n), B(n);
  fillFloats(A, 171);
  fillFloats(B, 172);
  float *dA = toDevice(A), *dB = toDevice(B), *dC;
  CHECK(cudaMalloc(&dC, n * sizeof(float)));
  GpuTimer t;
  t.start();
  matadd_kernel<<<dim3(blocksFor(cols, 16), blocksFor(rows, 16)), dim3(16, 16)>>>(dA, dB, dC, rows, cols);
  CHECK_LAUNCH();
  float ms = t.stop();
  std::vector<float> C = fromDevice(dC, n), ref(n);
  for (size_t i = 0; i < n; i++) ref[i] = A[i] + B[i];
  return finish(ms, checkExact("C", C.data(), ref.data(), n));
}
