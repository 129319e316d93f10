// h6_rgba_rot_gray: image processing on an RGBA (uchar4) image of W x H =
// 8192 x 4096 (128 MB), `unsigned` indices: (1) rotate by 90 degrees
// clockwise, 32 x 8 blocks, `out[x*H + (H - 1 - y)] = in[y*W + x]` (the
// rotated image is H wide, W high); (2) convert the rotated image to
// grayscale float, 16 x 16 blocks, `gray[i] = 0.299f*p.x + 0.587f*p.y +
// 0.114f*p.z` (alpha ignored). Both bounds-tested. One launch each. Timed:
// both. Checked: rotation exactly; grayscale rtol 1e-5 (fma contraction).
#include "../common.h"

__global__ void rotate90_rgba(const uchar4 *in, uchar4 *out, unsigned W, unsigned H) {
  unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < W && y < H) out[x * H + (H - 1 - y)] = in[y * W + x];
}

__global__ void rgba_to_gray(const uchar4 *img, float *gray, unsigned width, unsigned height) {
  unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < width && y < height) {
    uchar4 p = img[y * width + x];
    gray[y * width + x] = 0.299f * p.x + 0.587f * p.y + 0.114f * p.z;
  }
}

int main(int argc, char **argv) {
  const unsigned W = unsigned(argInt(argc, argv, 1, 8192)), H = unsigned(argInt(argc, argv, 2, 4096));
  const size_t n = size_t(W) * H;
  std::vector<uchar4> img(n);
  for (size_t i = 0; i < n; i++) {
    uint32_t h = hashAt(1101, i);
    img[i] = make_uchar4((unsigned char)(1 + (h & 0xFE)), (unsigned char)(1 + ((h >> 8) & 0xFE)),
                         (unsigned char)(1 + ((h >> 16) & 0xFE)), (unsigned char)(h >> 24));
  }
  uchar4 *d_img = toDevice(img), *d_rot;
  float *d_gray;
  CHECK(cudaMalloc(&d_rot, n * sizeof(uchar4)));
  CHECK(cudaMalloc(&d_gray, n * sizeof(float)));
  CHECK(cudaDeviceSynchronize());

  dim3 rb(32, 8), rg((W + 31) / 32, (H + 7) / 8);
  dim3 gb(16, 16), gg((H + 15) / 16, (W + 15) / 16);
  GpuTimer t;
  t.start();
  rotate90_rgba<<<rg, rb>>>(d_img, d_rot, W, H);
  CHECK_LAUNCH();
  rgba_to_gray<<<gg, gb>>>(d_rot, d_gray, H, W);
  CHECK_LAUNCH();
  float ms = t.stop();
  std::vector<uchar4> rot = fromDevice(d_rot, n);
  std::vector<float> gray = fromDevice(d_gray, n);

  size_t bad = 0;
  std::vector<float> gref(n);
  for (size_t y = 0; y < H; y++)
    for (size_t x = 0; x < W; x++) {
      const uchar4 p = img[y * W + x], q = rot[x * H + (H - 1 - y)];
      if (p.x != q.x || p.y != q.y || p.z != q.z || p.w != q.w) ++bad;
      gref[x * H + (H - 1 - y)] = 0.299f * p.x + 0.587f * p.y + 0.114f * p.z;
    }
  if (bad) std::fprintf(stderr, "rotate90: %zu of %zu pixels differ\n", bad, n);
  bool ok = bad == 0;
  ok = checkFloats("grayscale", gray.data(), gref.data(), n, 1e-5, 1.0) && ok;
  CHECK(cudaFree(d_img));
  CHECK(cudaFree(d_rot));
  CHECK(cudaFree(d_gray));
  return finish(ms, ok);
}
