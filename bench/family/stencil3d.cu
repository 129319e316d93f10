// 3-D stencils on a float grid, as heat and wave codes write them: one
// thread per point from a 3-D grid of blocks, the boundary left alone, two
// buffers swapped after every step (6 launches per run, the issue's "3-D
// float stencil, 6 launches of one shape"). 7 points (the Laplacian) and
// 27 points (weights by distance); blocks 32x8x1 and 32x4x4; from 64^3
// (2 MB, L2-resident) to 512^3 (1 GB).
#include "family.h"

__global__ void stencil7(const float *in, float *out, int nx, int ny, int nz) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  int z = blockIdx.z * blockDim.z + threadIdx.z;
  if (x > 0 && x < nx - 1 && y > 0 && y < ny - 1 && z > 0 && z < nz - 1) {
    int plane = nx * ny;
    int i = z * plane + y * nx + x;
    out[i] = 0.4f * in[i] + 0.1f * (in[i - 1] + in[i + 1] + in[i - nx] + in[i + nx] + in[i - plane] + in[i + plane]);
  }
}

__global__ void stencil27(const float *in, float *out, int nx, int ny, int nz) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  int z = blockIdx.z * blockDim.z + threadIdx.z;
  if (x < 1 || y < 1 || z < 1 || x >= nx - 1 || y >= ny - 1 || z >= nz - 1) return;
  const float w[4] = {0.3f, 0.05f, 0.02f, 0.01f};
  float s = 0.0f;
#pragma unroll
  for (int dz = -1; dz <= 1; ++dz)
#pragma unroll
    for (int dy = -1; dy <= 1; ++dy)
#pragma unroll
      for (int dx = -1; dx <= 1; ++dx)
        s += w[abs(dx) + abs(dy) + abs(dz)] * in[((z + dz) * ny + (y + dy)) * nx + (x + dx)];
  out[(z * ny + y) * nx + x] = s;
}

int main(int argc, char **argv) {
  Options o = parseOptions(argc, argv, "stencil3d");
  Hasher hash;
  const int sizes[] = {64, 160, 512};
  const dim3 blocks[] = {{32, 8, 1}, {32, 4, 4}};
  const int steps = 6;
  for (int n : sizes) {
    size_t count = size_t(n) * n * n, bytes = 2 * count * sizeof(float);
    if (bytes / 1048576.0 > o.maxMB) continue;
    float *a = alloc<float>(count), *b = alloc<float>(count);
    for (int points : {7, 27})
      for (dim3 blk : blocks) {
        dim3 g(cdiv(n, blk.x), cdiv(n, blk.y), cdiv(n, blk.z));
        Case c{fmt("stencil%d<float>", points), fmt("block=%ux%ux%u,grid=%ux%ux%u", blk.x, blk.y, blk.z, g.x, g.y, g.z),
               fmt("%dx%dx%d", n, n, n), bytes, steps};
        bench(
            o, c,
            [&] {
              fill(a, count, 3);
              CHECK(cudaMemsetAsync(b, 0, count * sizeof(float)));
            },
            [&] {
              for (int s = 0; s < steps; ++s) {
                float *src = s % 2 ? b : a, *dst = s % 2 ? a : b;
                if (points == 7) stencil7<<<g, blk>>>(src, dst, n, n, n);
                else stencil27<<<g, blk>>>(src, dst, n, n, n);
              }
            },
            [&] { return hash(b, count, hash(a, count, 0)); });
      }
    CHECK(cudaFree(a));
    CHECK(cudaFree(b));
  }
  return 0;
}
