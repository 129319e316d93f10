// stencil3d: a 7-point 3-D heat stencil (PolyBench heat-3d's update on a
// CUDA grid), 128 x 128 x 128 float, 20 time steps ping-pong; one thread
// per cell on a 3-D grid, blocks of 32 x 4 x 2, the border kept. 20 launches.
// Timed: all kernels. Checked against the CPU with a tolerance relative to
// the field's largest value (fma on the device).
#include "common.h"

__global__ void stencil7_kernel(const float *in, float *out, int nx, int ny, int nz, float c0, float c1) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  int z = blockIdx.z * blockDim.z + threadIdx.z;
  if (x > 0 && x < nx - 1 && y > 0 && y < ny - 1 && z > 0 && z < nz - 1) {
    int c = (z * ny + y) * nx + x;
    out[c] = c0 * in[c] + c1 * (in[c - 1] + in[c + 1] + in[c - nx] + in[c + nx] + in[c - nx * ny] + in[c + nx * ny]);
  }
}

int main(int argc, char **argv) {
  const int nx = argInt(argc, argv, 1, 128), ny = argInt(argc, argv, 2, 128), nz = argInt(argc, argv, 3, 128);
  const int steps = argInt(argc, argv, 4, 20);
  const float c0 = 0.4f, c1 = 0.1f;
  const size_t cells = size_t(nx) * ny * nz;
  std::vector<float> A(cells);
  fillFloats(A, 131);
  std::vector<float> B = A;
  float *dA = toDevice(A), *dB = toDevice(B);
  dim3 block(32, 4, 2), grid(blocksFor(nx, 32), blocksFor(ny, 4), blocksFor(nz, 2));
  GpuTimer t;
  t.start();
  for (int s = 0; s < steps; s++) {
    stencil7_kernel<<<grid, block>>>(dA, dB, nx, ny, nz, c0, c1);
    CHECK_LAUNCH();
    std::swap(dA, dB);
  }
  float ms = t.stop();
  std::vector<float> got = fromDevice(dA, cells);

  const size_t sxy = size_t(nx) * ny;
  for (int s = 0; s < steps; s++) {
    for (int z = 1; z < nz - 1; z++)
      for (int y = 1; y < ny - 1; y++)
        for (int x = 1; x < nx - 1; x++) {
          size_t c = (size_t(z) * ny + y) * nx + x;
          B[c] = c0 * A[c] + c1 * (A[c - 1] + A[c + 1] + A[c - nx] + A[c + nx] + A[c - sxy] + A[c + sxy]);
        }
    std::swap(A, B);
  }
  return finish(ms, checkFloats("A", got.data(), A.data(), cells, 1e-4, maxAbs(A.data(), cells)));
}
