// h3_rgb_gray_pyramid: two tutorial image kernels over packed 8-bit pixels,
// one output pixel a thread, 2-D grids with bounds checks. (1) packed RGB
// (3 bytes a pixel, no alpha) to grayscale, `gray[y*W + x] = 0.299f*r +
// 0.587f*g + 0.114f*b` with r, g, b = rgb[3*(y*W + x) + 0, 1, 2] (reads
// strided by 3 bytes), 32 x 32 blocks, W x H = 7680 x 4320 (100 MB in, 33 MB
// out); (2) a 2 x 2 box downsample of that gray image (one level of an image
// pyramid), `small[y*(W/2) + x] = (g[2y][2x] + g[2y][2x+1] + g[2y+1][2x] +
// g[2y+1][2x+1] + 2) / 4` (byte reads strided by 2), 16 x 16 blocks. Each
// launched 3 times. Timed: the 6 launches. Checked exactly (the float
// conversion in the device's fma order, truncated to unsigned char).
#include "../common.h"

__global__ void rgbToGray(const unsigned char *rgb, unsigned char *gray, int width, int height) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < width && y < height) {
    int idx = y * width + x;
    unsigned char r = rgb[3 * idx + 0];
    unsigned char g = rgb[3 * idx + 1];
    unsigned char b = rgb[3 * idx + 2];
    gray[idx] = (unsigned char)(0.299f * r + 0.587f * g + 0.114f * b);
  }
}

__global__ void downsample2x2(const unsigned char *in, unsigned char *out, int width, int height) {
  int ow = width / 2, oh = height / 2;
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < ow && y < oh) {
    int s = in[(2 * y) * width + 2 * x] + in[(2 * y) * width + 2 * x + 1] + in[(2 * y + 1) * width + 2 * x] +
            in[(2 * y + 1) * width + 2 * x + 1];
    out[y * ow + x] = (unsigned char)((s + 2) / 4);
  }
}

int main(int argc, char **argv) {
  const int W = argInt(argc, argv, 1, 7680), H = argInt(argc, argv, 2, 4320);
  const size_t n = size_t(W) * H, ns = size_t(W / 2) * (H / 2);
  std::vector<unsigned char> rgb(3 * n);
  for (size_t k = 0; k < rgb.size(); k++) rgb[k] = (unsigned char)(1 + hashAt(4401, k) % 255u);
  unsigned char *drgb = toDevice(rgb), *dgray, *dsmall;
  CHECK(cudaMalloc(&dgray, n));
  CHECK(cudaMalloc(&dsmall, ns));
  CHECK(cudaDeviceSynchronize());
  GpuTimer t;
  t.start();
  for (int it = 0; it < 3; it++) {
    rgbToGray<<<dim3(blocksFor(W, 32), blocksFor(H, 32)), dim3(32, 32)>>>(drgb, dgray, W, H);
    CHECK_LAUNCH();
  }
  for (int it = 0; it < 3; it++) {
    downsample2x2<<<dim3(blocksFor(W / 2, 16), blocksFor(H / 2, 16)), dim3(16, 16)>>>(dgray, dsmall, W, H);
    CHECK_LAUNCH();
  }
  float ms = t.stop();
  std::vector<unsigned char> gray = fromDevice(dgray, n), small = fromDevice(dsmall, ns);

  std::vector<unsigned char> rgray(n), rsmall(ns);
  for (size_t i = 0; i < n; i++) {
    const float r = rgb[3 * i], g = rgb[3 * i + 1], b = rgb[3 * i + 2];
    // The PTX (nvcc 13.0): fma(b, 0.114, fma(r, 0.299, g * 0.587)), truncated.
    rgray[i] = (unsigned char)std::fmaf(b, 0.114f, std::fmaf(r, 0.299f, g * 0.587f));
  }
  const int ow = W / 2, oh = H / 2;
  for (size_t y = 0; y < size_t(oh); y++)
    for (size_t x = 0; x < size_t(ow); x++) {
      int s = rgray[2 * y * W + 2 * x] + rgray[2 * y * W + 2 * x + 1] + rgray[(2 * y + 1) * W + 2 * x] +
              rgray[(2 * y + 1) * W + 2 * x + 1];
      rsmall[y * ow + x] = (unsigned char)((s + 2) / 4);
    }
  bool ok = checkExact("rgbToGray", gray.data(), rgray.data(), n);
  ok = checkExact("downsample2x2", small.data(), rsmall.data(), ns) && ok;
  CHECK(cudaFree(drgb));
  CHECK(cudaFree(dgray));
  CHECK(cudaFree(dsmall));
  return finish(ms, ok);
}
