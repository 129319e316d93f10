// matmul_2048: C = A B, 2048 x 2048 float, the naive kernel of the CUDA
// samples' and Rodinia's tutorials: one thread per element of C, a register
// accumulator, `sum += A[row*n+k] * B[k*n+col]`; blocks of 32 x 8.
// One launch. Timed: the kernel only. Checked on 1024 sampled elements.
#include "common.h"

__global__ void matmul_kernel(const float *A, const float *B, float *C, int n) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row < n && col < n) {
    float sum = 0.0f;
    for (int k = 0; k < n; k++) sum += A[row * n + k] * B[k * n + col];
    C[row * n + col] = sum;
  }
}

int main(int argc, char **argv) {
  const int n = argInt(argc, argv, 1, 2048);
  std::vector<float> A(size_t(n) * n), B(size_t(n) * n);
  fillFloats(A, 71);
  fillFloats(B, 72);
  float *dA = toDevice(A), *dB = toDevice(B), *dC;
  CHECK(cudaMalloc(&dC, size_t(n) * n * sizeof(float)));
  GpuTimer t;
  t.start();
  dim3 block(32, 8), grid(blocksFor(n, 32), blocksFor(n, 8));
  matmul_kernel<<<grid, block>>>(dA, dB, dC, n);
  CHECK_LAUNCH();
  float ms = t.stop();
  std::vector<float> C = fromDevice(dC, size_t(n) * n);

  Rng r(73);
  std::vector<float> g, want;
  for (int s = 0; s < 1024; s++) {
    int i = r.below(n), j = r.below(n);
    float sum = 0.0f;
    for (int k = 0; k < n; k++) sum += A[size_t(i) * n + k] * B[size_t(k) * n + j];
    g.push_back(C[size_t(i) * n + j]);
    want.push_back(sum);
  }
  return finish(ms, checkFloats("C", g.data(), want.data(), g.size(), 1e-3));
}
