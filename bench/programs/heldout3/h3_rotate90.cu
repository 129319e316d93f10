// h3_rotate90: naive 90-degree rotations of a W x H = 7680 x 4320 image
// (8K UHD), 16 x 16 blocks with bounds checks, one pixel a thread, reading
// in row order. (1) uchar4 RGBA rotated clockwise: the pixel (x, y) goes to
// column H-1-y of row x of the H-wide result, `out[x*H + (H-1-y)] = in[y*W +
// x]` (133 MB each way); (2) 8-bit grayscale rotated counter-clockwise,
// `out[(W-1-x)*H + y] = in[y*W + x]` (33 MB each way). Each launched twice.
// Timed: the 4 launches. Checked exactly.
#include "../common.h"

__global__ void rotate90cw_rgba(const uchar4 *in, uchar4 *out, int width, int height) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < width && y < height) {
    out[x * height + (height - 1 - y)] = in[y * width + x];
  }
}

__global__ void rotate90ccw_gray(const unsigned char *in, unsigned char *out, int width, int height) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= width || y >= height) return;
  out[(width - 1 - x) * height + y] = in[y * width + x];
}

int main(int argc, char **argv) {
  const int W = argInt(argc, argv, 1, 7680), H = argInt(argc, argv, 2, 4320);
  const size_t n = size_t(W) * H;
  std::vector<uchar4> rgba(n);
  std::vector<unsigned char> gray(n);
  for (size_t k = 0; k < n; k++) {
    uint32_t h = hashAt(4301, k);
    rgba[k] = make_uchar4(1 + (h & 0xff) % 255, 1 + (h >> 8 & 0xff) % 255, 1 + (h >> 16 & 0xff) % 255, 255);
    gray[k] = (unsigned char)(1 + hashAt(4302, k) % 255u);
  }
  uchar4 *drgba = toDevice(rgba), *drot;
  unsigned char *dgray = toDevice(gray), *dgrot;
  CHECK(cudaMalloc(&drot, n * sizeof(uchar4)));
  CHECK(cudaMalloc(&dgrot, n));
  CHECK(cudaDeviceSynchronize());
  dim3 block(16, 16), grid(blocksFor(W, 16), blocksFor(H, 16));
  GpuTimer t;
  t.start();
  for (int it = 0; it < 2; it++) {
    rotate90cw_rgba<<<grid, block>>>(drgba, drot, W, H);
    CHECK_LAUNCH();
    rotate90ccw_gray<<<grid, block>>>(dgray, dgrot, W, H);
    CHECK_LAUNCH();
  }
  float ms = t.stop();
  std::vector<uchar4> rot = fromDevice(drot, n);
  std::vector<unsigned char> grot = fromDevice(dgrot, n);

  size_t bad = 0, bad2 = 0;
  for (size_t y = 0; y < size_t(H); y++)
    for (size_t x = 0; x < size_t(W); x++) {
      const uchar4 a = rot[x * H + (H - 1 - y)], b = rgba[y * W + x];
      bad += !(a.x == b.x && a.y == b.y && a.z == b.z && a.w == b.w);
      bad2 += !(grot[(W - 1 - x) * H + y] == gray[y * W + x]);
    }
  if (bad) std::fprintf(stderr, "rotate90cw_rgba: %zu of %zu differ\n", bad, n);
  if (bad2) std::fprintf(stderr, "rotate90ccw_gray: %zu of %zu differ\n", bad2, n);
  CHECK(cudaFree(drgba));
  CHECK(cudaFree(drot));
  CHECK(cudaFree(dgray));
  CHECK(cudaFree(dgrot));
  return finish(ms, bad == 0 && bad2 == 0);
}
