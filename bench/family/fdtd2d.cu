// FDTD-2D as PolyBench/GPU writes it: per time step three kernels update the
// fields ey (with a source row), ex and hz in place; 10 steps (30 launches
// of one shape per run); float, blocks 32x8 and 256x1, from 512x512 (3 MB,
// L2-resident) to 8192x8192 (768 MB, three fields).
#include "family.h"

__global__ void fdtd_step1_kernel(const float *_fict_, float *ex, float *ey, float *hz, int t, int NX, int NY) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  if ((i < NX) && (j < NY)) {
    if (i == 0) ey[i * NY + j] = _fict_[t];
    else ey[i * NY + j] = ey[i * NY + j] - 0.5f * (hz[i * NY + j] - hz[(i - 1) * NY + j]);
  }
}

__global__ void fdtd_step2_kernel(float *ex, float *ey, float *hz, int t, int NX, int NY) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  if ((i < NX) && (j < NY) && (j > 0)) ex[i * NY + j] = ex[i * NY + j] - 0.5f * (hz[i * NY + j] - hz[i * NY + (j - 1)]);
}

__global__ void fdtd_step3_kernel(float *ex, float *ey, float *hz, int t, int NX, int NY) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  if ((i < (NX - 1)) && (j < (NY - 1)))
    hz[i * NY + j] = hz[i * NY + j] - 0.7f * (ex[i * NY + (j + 1)] - ex[i * NY + j] + ey[(i + 1) * NY + j] - ey[i * NY + j]);
}

int main(int argc, char **argv) {
  Options o = parseOptions(argc, argv, "fdtd2d");
  Hasher hash;
  const int sizes[] = {512, 2048, 8192};
  const dim3 blocks[] = {{32, 8}, {256, 1}};
  const int steps = 10;
  float *fict = alloc<float>(steps);
  fill(fict, steps, 7);
  for (int n : sizes) {
    size_t count = size_t(n) * n, bytes = 3 * count * sizeof(float);
    if (bytes / 1048576.0 > o.maxMB) continue;
    float *ex = alloc<float>(count), *ey = alloc<float>(count), *hz = alloc<float>(count);
    for (dim3 blk : blocks) {
      dim3 g(cdiv(n, blk.x), cdiv(n, blk.y));
      Case c{"fdtd_step1+2+3<float>", fmt("block=%ux%u,grid=%ux%u", blk.x, blk.y, g.x, g.y), fmt("%dx%d", n, n), bytes,
             3 * steps};
      bench(
          o, c,
          [&] {
            fill(ex, count, 8);
            fill(ey, count, 9);
            fill(hz, count, 10);
          },
          [&] {
            for (int t = 0; t < steps; ++t) {
              fdtd_step1_kernel<<<g, blk>>>(fict, ex, ey, hz, t, n, n);
              fdtd_step2_kernel<<<g, blk>>>(ex, ey, hz, t, n, n);
              fdtd_step3_kernel<<<g, blk>>>(ex, ey, hz, t, n, n);
            }
          },
          [&] { return hash(hz, count, hash(ey, count, hash(ex, count, 0))); });
    }
    CHECK(cudaFree(ex));
    CHECK(cudaFree(ey));
    CHECK(cudaFree(hz));
  }
  CHECK(cudaFree(fict));
  return 0;
}
