// h5_transpose_u8_float: transposes fused with a conversion, 16 x 16 blocks,
// `unsigned` indices and a bounds test. (1) 8-bit image to normalized float,
// `out[x*H + y] = in[y*W + x] / 255.0f` (W x H = 9001 x 8000: 72 MB in,
// 288 MB out); (2) back, float to 8-bit with rounding, `back[x*W + y] =
// (unsigned char)(in[y*H + x] * 255.0f + 0.5f)` over the H x W float result
// (288 MB in, 72 MB out). One launch each. Timed: both. Checked exactly:
// (1) against the host's IEEE `v / 255.0f`, (2) equal to the original image.
#include "../common.h"

__global__ void u8_to_float_transpose(const unsigned char *in, float *out, unsigned W, unsigned H) {
  unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < W && y < H) out[x * H + y] = in[y * W + x] / 255.0f;
}

__global__ void float_to_u8_transpose(const float *in, unsigned char *out, unsigned W, unsigned H) {
  unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < W && y < H) out[x * H + y] = (unsigned char)(in[y * W + x] * 255.0f + 0.5f);
}

int main(int argc, char **argv) {
  const unsigned W = unsigned(argInt(argc, argv, 1, 9001)), H = unsigned(argInt(argc, argv, 2, 8000));
  const size_t n = size_t(W) * H;
  std::vector<unsigned char> img(n);
  for (size_t k = 0; k < n; k++) img[k] = (unsigned char)(1 + hashAt(6001, k) % 255u);
  unsigned char *dimg = toDevice(img), *dback;
  float *dnorm;
  CHECK(cudaMalloc(&dnorm, n * sizeof(float)));
  CHECK(cudaMalloc(&dback, n));
  CHECK(cudaDeviceSynchronize());

  const dim3 block(16, 16);
  GpuTimer t;
  t.start();
  u8_to_float_transpose<<<dim3((W + 15) / 16, (H + 15) / 16), block>>>(dimg, dnorm, W, H);
  CHECK_LAUNCH();
  // The float image is H wide and W high.
  float_to_u8_transpose<<<dim3((H + 15) / 16, (W + 15) / 16), block>>>(dnorm, dback, H, W);
  CHECK_LAUNCH();
  float ms = t.stop();
  std::vector<float> norm = fromDevice(dnorm, n);
  std::vector<unsigned char> back = fromDevice(dback, n);

  std::vector<float> ref(n);
  for (size_t y = 0; y < H; y++)
    for (size_t x = 0; x < W; x++) ref[x * H + y] = float(img[y * W + x]) / 255.0f;
  bool ok = checkExact("u8 -> float transpose", norm.data(), ref.data(), n);
  ok = checkExact("float -> u8 transpose back", back.data(), img.data(), n) && ok;
  CHECK(cudaFree(dimg));
  CHECK(cudaFree(dnorm));
  CHECK(cudaFree(dback));
  return finish(ms, ok);
}
