// h10_rotate270_rgba: image rotations by a quarter turn, naive, a thread
// per input pixel. (1) An RGBA image of uchar4, H x W = 4096 x 4096 (67 MB),
// rotated by 270 degrees clockwise (90 counter-clockwise) into a W x H
// image: the input pixel (x, y) goes to row W-1-x, column y,
// `out[(W - 1 - x)*H + y] = in[y*W + x]`; 32 x 8 blocks, `int` indices.
// (2) A grey uint8 image, H x W = 8192 x 8192 (67 MB), rotated by 90
// degrees clockwise: the input pixel (x, y) goes to row x, column H-1-y,
// `out[x*H + (H - 1 - y)] = in[y*W + x]`; 16 x 16 blocks, `int` indices.
// Reads coalesced, writes strided by H. Sizes: H1 W1 H2 W2 (argv). Each
// kernel launched twice (the same outputs rewritten; 4 launches). Timed:
// the 4 launches. Checked: every output pixel (every byte), exactly.
#include "../common.h"

__global__ void rotate270_rgba(const uchar4 *in, uchar4 *out, int H, int W) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < W && y < H) out[(W - 1 - x) * H + y] = in[y * W + x];
}

__global__ void rotate90_gray(const unsigned char *in, unsigned char *out, int H, int W) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < W && y < H) out[x * H + (H - 1 - y)] = in[y * W + x];
}

int main(int argc, char **argv) {
  const int H1 = argInt(argc, argv, 1, 4096), W1 = argInt(argc, argv, 2, 4096);
  const int H2 = argInt(argc, argv, 3, 8192), W2 = argInt(argc, argv, 4, 8192);
  const size_t n1 = size_t(H1) * W1, n2 = size_t(H2) * W2;
  std::vector<uchar4> rgba(n1);
  for (size_t i = 0; i < n1; i++) {
    uint32_t h = hashAt(10301, i);
    rgba[i] = make_uchar4((unsigned char)(1 + (h & 255) % 255), (unsigned char)(1 + ((h >> 8) & 255) % 255),
                          (unsigned char)(1 + ((h >> 16) & 255) % 255), (unsigned char)(1 + (h >> 24) % 255));
  }
  std::vector<unsigned char> gray(n2);
  for (size_t i = 0; i < n2; i++) gray[i] = (unsigned char)(1 + hashAt(10302, i) % 255);

  uchar4 *d_rgba = toDevice(rgba), *d_rgbaOut;
  unsigned char *d_gray = toDevice(gray), *d_grayOut;
  CHECK(cudaMalloc(&d_rgbaOut, n1 * sizeof(uchar4)));
  CHECK(cudaMalloc(&d_grayOut, n2));
  CHECK(cudaDeviceSynchronize());

  dim3 b1(32, 8), g1((W1 + 31) / 32, (H1 + 7) / 8);
  dim3 b2(16, 16), g2((W2 + 15) / 16, (H2 + 15) / 16);
  GpuTimer t;
  t.start();
  for (int r = 0; r < 2; r++) {
    rotate270_rgba<<<g1, b1>>>(d_rgba, d_rgbaOut, H1, W1);
    CHECK_LAUNCH();
    rotate90_gray<<<g2, b2>>>(d_gray, d_grayOut, H2, W2);
    CHECK_LAUNCH();
  }
  float ms = t.stop();
  std::vector<uchar4> gotRgba = fromDevice(d_rgbaOut, n1);
  std::vector<unsigned char> gotGray = fromDevice(d_grayOut, n2);

  std::vector<uchar4> refRgba(n1);
  for (size_t y = 0; y < size_t(H1); y++)
    for (size_t x = 0; x < size_t(W1); x++) refRgba[(W1 - 1 - x) * H1 + y] = rgba[y * W1 + x];
  std::vector<unsigned char> refGray(n2);
  for (size_t y = 0; y < size_t(H2); y++)
    for (size_t x = 0; x < size_t(W2); x++) refGray[x * H2 + (H2 - 1 - y)] = gray[y * W2 + x];
  bool ok = checkExact("rotate270 rgba (bytes)", reinterpret_cast<const unsigned char *>(gotRgba.data()),
                       reinterpret_cast<const unsigned char *>(refRgba.data()), n1 * 4);
  ok = checkExact("rotate90 gray", gotGray.data(), refGray.data(), n2) && ok;
  CHECK(cudaFree(d_rgba));
  CHECK(cudaFree(d_rgbaOut));
  CHECK(cudaFree(d_gray));
  CHECK(cudaFree(d_grayOut));
  return finish(ms, ok);
}
