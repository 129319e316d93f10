// Input of misaligned-floor.test (Inputs/stencil3d.ptx is nvcc 13.0's output:
// nvcc -arch=sm_90 -O3 -ptx stencil3d.cu -o stencil3d.ptx, in this folder): the
// kernels of bench/family/stencil3d.cu.
extern "C" __global__ void stencil7(const float *in, float *out, int nx, int ny, int nz) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  int z = blockIdx.z * blockDim.z + threadIdx.z;
  if (x > 0 && x < nx - 1 && y > 0 && y < ny - 1 && z > 0 && z < nz - 1) {
    int plane = nx * ny;
    int i = z * plane + y * nx + x;
    out[i] = 0.4f * in[i] + 0.1f * (in[i - 1] + in[i + 1] + in[i - nx] + in[i + nx] + in[i - plane] + in[i + plane]);
  }
}
extern "C" __global__ void stencil27(const float *in, float *out, int nx, int ny, int nz) {
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
