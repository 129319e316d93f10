// hv_transpose_u8_rot90: (1) a 90-degree clockwise rotation of an 8-bit
// image of W x H = 8192 x 8192 pixels (64 MB), one pixel per thread, blocks
// of 16 x 16, runtime sizes: pixel (y, x) goes to row x, column H-1-y of the
// H-wide output (`out[x*H + (H-1-y)] = in[y*W + x]`). (2) a transpose of a
// uint16 matrix of kRows x kCols = 4096 x 8192 (64 MB) with compile-time
// sizes, blocks of 32 x 32 (`out[x*kRows + y] = in[y*kCols + x]`). One
// launch each. Timed: both kernels. Checked exactly.
#include <algorithm>
#include <cstring>

#include "../common.h"

__global__ void rot90_u8(const unsigned char *in, unsigned char *out, int W, int H) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < W && y < H) out[x * H + (H - 1 - y)] = in[y * W + x];
}

constexpr int kRows = 4096, kCols = 8192;

__global__ void transpose_u16(const unsigned short *in, unsigned short *out) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < kCols && y < kRows) out[x * kRows + y] = in[y * kCols + x];
}

int main(int argc, char **argv) {
  const int W = argInt(argc, argv, 1, 8192), H = argInt(argc, argv, 2, 8192);
  const size_t n8 = size_t(W) * H, n16 = size_t(kRows) * kCols;
  std::vector<unsigned char> img(n8);
  for (size_t i = 0; i < n8; i += 4) {
    uint32_t w = hashAt(371, i / 4) | 0x01010101u;  // no zero pixel
    std::memcpy(&img[i], &w, std::min<size_t>(4, n8 - i));
  }
  std::vector<unsigned short> m(n16);
  for (size_t i = 0; i < n16; i++) {
    unsigned short v = (unsigned short)(hashAt(372, i) >> 16);
    m[i] = v ? v : (unsigned short)1;
  }
  unsigned char *dimg = toDevice(img), *drot;
  unsigned short *dm = toDevice(m), *dmt;
  CHECK(cudaMalloc(&drot, n8));
  CHECK(cudaMalloc(&dmt, n16 * sizeof(unsigned short)));
  GpuTimer t;
  t.start();
  rot90_u8<<<dim3(blocksFor(W, 16), blocksFor(H, 16)), dim3(16, 16)>>>(dimg, drot, W, H);
  CHECK_LAUNCH();
  transpose_u16<<<dim3(blocksFor(kCols, 32), blocksFor(kRows, 32)), dim3(32, 32)>>>(dm, dmt);
  CHECK_LAUNCH();
  float ms = t.stop();
  std::vector<unsigned char> rot = fromDevice(drot, n8);
  std::vector<unsigned short> mt = fromDevice(dmt, n16);

  size_t bad1 = 0, bad2 = 0;
  for (size_t y = 0; y < size_t(H); y++)
    for (size_t x = 0; x < size_t(W); x++) bad1 += rot[x * H + (H - 1 - y)] != img[y * W + x];
  for (size_t y = 0; y < size_t(kRows); y++)
    for (size_t x = 0; x < size_t(kCols); x++) bad2 += mt[x * kRows + y] != m[y * kCols + x];
  if (bad1) std::fprintf(stderr, "rot90: %zu of %zu differ\n", bad1, n8);
  if (bad2) std::fprintf(stderr, "transpose u16: %zu of %zu differ\n", bad2, n16);
  return finish(ms, bad1 == 0 && bad2 == 0);
}
