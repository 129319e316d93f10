// h2_rotate270_rgba: rotate a W x H uchar4 RGBA image (W = 8192 columns,
// H = 4096 rows, 128 MB) by 270 degrees clockwise (90 counter-clockwise)
// into an H x W image, one pixel a thread, blocks of 32 x 8: `rot[(W-1-x)*H
// + y] = img[y*W + x]` (x from threadIdx.x: coalesced reads, strided 4-byte
// writes). Then a second kernel flips the rotated image vertically,
// `flip[r*H + c] = rot[(W-1-r)*H + c]` (coalesced already; the flip of the
// rotation is the transpose of img). One launch each. Timed: both kernels.
// Checked exactly: rot against the rotation, flip against the transpose.
#include "../common.h"

__global__ void rotate270(const uchar4 *img, uchar4 *rot, int W, int H) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < W && y < H) rot[(W - 1 - x) * H + y] = img[y * W + x];
}

// src and dst are rows x cols.
__global__ void flip_vertical(const uchar4 *src, uchar4 *dst, int rows, int cols) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  int r = blockIdx.y * blockDim.y + threadIdx.y;
  if (c < cols && r < rows) dst[r * cols + c] = src[(rows - 1 - r) * cols + c];
}

static bool same(uchar4 a, uchar4 b) { return a.x == b.x && a.y == b.y && a.z == b.z && a.w == b.w; }

int main(int argc, char **argv) {
  const int W = argInt(argc, argv, 1, 8192), H = argInt(argc, argv, 2, 4096);
  const size_t n = size_t(W) * H;
  std::vector<uchar4> img(n);
  for (size_t k = 0; k < n; k++) {
    uint32_t h = hashAt(2001, k);
    img[k] = make_uchar4(1 + (h & 0xff) % 255, 1 + ((h >> 8) & 0xff) % 255, 1 + ((h >> 16) & 0xff) % 255, 255);
  }
  uchar4 *dimg = toDevice(img), *drot, *dflip;
  CHECK(cudaMalloc(&drot, n * sizeof(uchar4)));
  CHECK(cudaMalloc(&dflip, n * sizeof(uchar4)));
  CHECK(cudaDeviceSynchronize());
  GpuTimer t;
  t.start();
  rotate270<<<dim3(blocksFor(W, 32), blocksFor(H, 8)), dim3(32, 8)>>>(dimg, drot, W, H);
  CHECK_LAUNCH();
  flip_vertical<<<dim3(blocksFor(H, 32), blocksFor(W, 8)), dim3(32, 8)>>>(drot, dflip, W, H);
  CHECK_LAUNCH();
  float ms = t.stop();
  std::vector<uchar4> rot = fromDevice(drot, n), flip = fromDevice(dflip, n);

  size_t bad1 = 0, bad2 = 0;
  for (size_t y = 0; y < size_t(H); y++)
    for (size_t x = 0; x < size_t(W); x++) {
      const uchar4 p = img[y * W + x];
      bad1 += !same(rot[(W - 1 - x) * H + y], p);
      bad2 += !same(flip[x * H + y], p);
    }
  if (bad1) std::fprintf(stderr, "rotate270: %zu of %zu differ\n", bad1, n);
  if (bad2) std::fprintf(stderr, "flip: %zu of %zu differ\n", bad2, n);
  CHECK(cudaFree(dimg));
  CHECK(cudaFree(drot));
  CHECK(cudaFree(dflip));
  return finish(ms, bad1 == 0 && bad2 == 0);
}
