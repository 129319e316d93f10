// h7_transpose_f64_rot_u8: (1) a naive double transpose, rows x cols =
// 3000 x 3001 (72 MB), 8 x 8 blocks, `size_t` indices, `out[c*rows + r] =
// in[r*cols + c]`; (2) an 8-bit grayscale image rotated by 90 degrees
// counter-clockwise, W x H = 9000 x 8000 (72 MB), 32 x 16 blocks, `int`
// indices, `out[(W - 1 - x)*H + y] = in[y*W + x]` (the rotated image is H
// wide, W high). Both bounds-tested; sizes not multiples of the blocks. One
// launch each. Timed: both. Checked: exactly (data movement).
#include "../common.h"

__global__ void transpose_double(const double *in, double *out, size_t rows, size_t cols) {
  size_t c = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  size_t r = blockIdx.y * (size_t)blockDim.y + threadIdx.y;
  if (r < rows && c < cols) out[c * rows + r] = in[r * cols + c];
}

__global__ void rotate_ccw_u8(const unsigned char *src, unsigned char *dst, int W, int H) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= W || y >= H) return;
  dst[(W - 1 - x) * H + y] = src[y * W + x];
}

int main(int argc, char **argv) {
  const size_t rows = size_t(argInt(argc, argv, 1, 3000)), cols = size_t(argInt(argc, argv, 2, 3001));
  const int W = argInt(argc, argv, 3, 9000), H = argInt(argc, argv, 4, 8000);
  const size_t n = rows * cols, np = size_t(W) * H;

  std::vector<double> a(n);
  for (size_t i = 0; i < n; i++) a[i] = 0.5 + double(hashAt(7201, i)) * (1.0 / 4294967296.0);
  std::vector<unsigned char> img(np);
  for (size_t i = 0; i < np; i++) img[i] = (unsigned char)(1 + hashAt(7202, i) % 255u);

  double *d_a = toDevice(a), *d_at;
  unsigned char *d_img = toDevice(img), *d_rot;
  CHECK(cudaMalloc(&d_at, n * sizeof(double)));
  CHECK(cudaMalloc(&d_rot, np));
  CHECK(cudaDeviceSynchronize());

  dim3 b1(8, 8), g1(unsigned((cols + 7) / 8), unsigned((rows + 7) / 8));
  dim3 b2(32, 16), g2((W + 31) / 32, (H + 15) / 16);
  GpuTimer t;
  t.start();
  transpose_double<<<g1, b1>>>(d_a, d_at, rows, cols);
  CHECK_LAUNCH();
  rotate_ccw_u8<<<g2, b2>>>(d_img, d_rot, W, H);
  CHECK_LAUNCH();
  float ms = t.stop();
  std::vector<double> at = fromDevice(d_at, n);
  std::vector<unsigned char> rot = fromDevice(d_rot, np);

  std::vector<double> ref(n);
  for (size_t r = 0; r < rows; r++)
    for (size_t c = 0; c < cols; c++) ref[c * rows + r] = a[r * cols + c];
  std::vector<unsigned char> rref(np);
  for (size_t y = 0; y < size_t(H); y++)
    for (size_t x = 0; x < size_t(W); x++) rref[(W - 1 - x) * H + y] = img[y * W + x];
  bool ok = checkExact("double transpose", at.data(), ref.data(), n);
  ok = checkExact("u8 rotate ccw", rot.data(), rref.data(), np) && ok;
  CHECK(cudaFree(d_a));
  CHECK(cudaFree(d_at));
  CHECK(cudaFree(d_img));
  CHECK(cudaFree(d_rot));
  return finish(ms, ok);
}
