// matmul_tiled: C = A B, 1024 x 1024 float, the CUDA samples' shared-memory
// tiled kernel (16 x 16 tiles in __shared__, two __syncthreads a tile),
// blocks of 16 x 16, one launch. Timed: the kernel only. Checked on 1024
// sampled elements.
#include "common.h"

#define TILE 16

__global__ void matmul_tiled_kernel(const float *A, const float *B, float *C, int n) {
  __shared__ float As[TILE][TILE];
  __shared__ float Bs[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
  float sum = 0.0f;
  for (int t = 0; t < (n + TILE - 1) / TILE; t++) {
    As[ty][tx] = (row < n && t * TILE + tx < n) ? A[row * n + t * TILE + tx] : 0.0f;
    Bs[ty][tx] = (col < n && t * TILE + ty < n) ? B[(t * TILE + ty) * n + col] : 0.0f;
    __syncthreads();
    for (int k = 0; k < TILE; k++) sum += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  if (row < n && col < n) C[row * n + col] = sum;
}

int main(int argc, char **argv) {
  const int n = argInt(argc, argv, 1, 1024);
  std::vector<float> A(size_t(n) * n), B(size_t(n) * n);
  fillFloats(A, 201);
  fillFloats(B, 202);
  float *dA = toDevice(A), *dB = toDevice(B), *dC;
  CHECK(cudaMalloc(&dC, size_t(n) * n * sizeof(float)));
  GpuTimer t;
  t.start();
  matmul_tiled_kernel<<<dim3(blocksFor(n, TILE), blocksFor(n, TILE)), dim3(TILE, TILE)>>>(dA, dB, dC, n);
  CHECK_LAUNCH();
  float ms = t.stop();
  std::vector<float> C = fromDevice(dC, size_t(n) * n);
  Rng r(203);
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
