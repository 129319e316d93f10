// small_stencil: a 5-point 2-D Jacobi stencil on 128 x 128 float, 20 time
// steps ping-pong (`out = 0.2f*(c+w+e+n+s)` on the interior), blocks of
// 32 x 8: 20 launches, a whole GPU time of about 0.05 ms. Timed: all
// kernels. Checked exactly.
#include "common.h"

__global__ void stencil5_kernel(const float *in, float *out, int nx, int ny) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x > 0 && x < nx - 1 && y > 0 && y < ny - 1) {
    int c = y * nx + x;
    out[c] = 0.2f * (in[c] + in[c - 1] + in[c + 1] + in[c - nx] + in[c + nx]);
  }
}

int main(int argc, char **argv) {
  const int nx = argInt(argc, argv, 1, 128), ny = argInt(argc, argv, 2, 128), steps = argInt(argc, argv, 3, 20);
  const size_t n = size_t(nx) * ny;
  std::vector<float> A(n);
  fillFloats(A, 181);
  std::vector<float> B = A;
  float *dA = toDevice(A), *dB = toDevice(B);
  dim3 block(32, 8), grid(blocksFor(nx, 32), blocksFor(ny, 8));
  GpuTimer t;
  t.start();
  for (int s = 0; s < steps; s++) {
    stencil5_kernel<<<grid, block>>>(dA, dB, nx, ny);
    CHECK_LAUNCH();
    std::swap(dA, dB);
  }
  float ms = t.stop();
  std::vector<float> got = fromDevice(dA, n);
  for (int s = 0; s < steps; s++) {
    for (int y = 1; y < ny - 1; y++)
      for (int x = 1; x < nx - 1; x++) {
        size_t c = size_t(y) * nx + x;
        B[c] = 0.2f * (A[c] + A[c - 1] + A[c + 1] + A[c - nx] + A[c + nx]);
      }
    std::swap(A, B);
  }
  return finish(ms, checkExact("A", got.data(), A.data(), n));
}
