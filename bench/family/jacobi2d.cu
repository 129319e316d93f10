// Jacobi 2-D as PolyBench/GPU writes it: two kernels alternating, the
// 5-point average into B, then B copied back into A, 20 steps (40 launches
// of one shape per run); float, blocks 32x8 and 32x4, from 512x512 (2 MB,
// L2-resident) to 8192x8192 (512 MB).
#include "family.h"

__global__ void jacobi_kernel1(int n, float *A, float *B) {
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if ((i >= 1) && (i < (n - 1)) && (j >= 1) && (j < (n - 1)))
    B[i * n + j] = 0.2f * (A[i * n + j] + A[i * n + (j - 1)] + A[i * n + (1 + j)] + A[(1 + i) * n + j] + A[(i - 1) * n + j]);
}

__global__ void jacobi_kernel2(int n, float *A, float *B) {
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if ((i >= 1) && (i < (n - 1)) && (j >= 1) && (j < (n - 1))) A[i * n + j] = B[i * n + j];
}

int main(int argc, char **argv) {
  Options o = parseOptions(argc, argv, "jacobi2d");
  Hasher hash;
  const int sizes[] = {512, 2048, 8192};
  const dim3 blocks[] = {{32, 8}, {32, 4}};
  const int steps = 20;
  for (int n : sizes) {
    size_t count = size_t(n) * n, bytes = 2 * count * sizeof(float);
    if (bytes / 1048576.0 > o.maxMB) continue;
    float *A = alloc<float>(count), *B = alloc<float>(count);
    for (dim3 blk : blocks) {
      dim3 g(cdiv(n, blk.x), cdiv(n, blk.y));
      Case c{"jacobi_kernel1+2<float>", fmt("block=%ux%u,grid=%ux%u", blk.x, blk.y, g.x, g.y), fmt("%dx%d", n, n), bytes,
             2 * steps};
      bench(
          o, c,
          [&] {
            fill(A, count, 5);
            fill(B, count, 6);
          },
          [&] {
            for (int t = 0; t < steps; ++t) {
              jacobi_kernel1<<<g, blk>>>(n, A, B);
              jacobi_kernel2<<<g, blk>>>(n, A, B);
            }
          },
          [&] { return hash(B, count, hash(A, count, 0)); });
    }
    CHECK(cudaFree(A));
    CHECK(cudaFree(B));
  }
  return 0;
}
