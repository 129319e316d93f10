// h5_nchw_nhwc_mixed: NCHW -> NHWC layout permutes. (1) __half images with
// C = 3 (RGB), 32 x 8 blocks over (w, h), blockIdx.z = n, the channel loop
// inside the thread: `for (c = 0; c < C; ++c) out[((n*H + h)*W + w)*C + c]
// = in[((n*C + c)*H + h)*W + w]` (N = 64, 512 x 512: 101 MB each way);
// (2) uint8 feature maps with `template <int C>` C = 32, one thread a pixel
// (1-D blocks of 128 over H*W, blockIdx.y = n), writing its 32 channels
// (N = 64, 224 x 224: 103 MB); (3) a flat 1-D permute of one CHW float
// tensor, thread i the input element, `w = i % W; h = (i / W) % H; c = i /
// (H*W); out[(h*W + w)*C + c] = in[i]` with runtime sizes (C = 128, 384 x
// 384: 75 MB; blocks of 512). One launch each. Timed: all three. Checked
// exactly (the half data compared as 16-bit patterns).
#include <cuda_fp16.h>

#include <cstring>

#include "../common.h"

__global__ void nchw_to_nhwc_half(const __half *in, __half *out, int C, int H, int W) {
  int w = blockIdx.x * blockDim.x + threadIdx.x;
  int h = blockIdx.y * blockDim.y + threadIdx.y;
  int n = blockIdx.z;
  if (w < W && h < H) {
    for (int c = 0; c < C; ++c) out[(((size_t)n * H + h) * W + w) * C + c] = in[(((size_t)n * C + c) * H + h) * W + w];
  }
}

template <int C> __global__ void nchw_to_nhwc_u8(const uint8_t *in, uint8_t *out, int HW) {
  int p = blockIdx.x * blockDim.x + threadIdx.x;
  int n = blockIdx.y;
  if (p < HW) {
    const uint8_t *src = in + (size_t)n * C * HW + p;
    uint8_t *dst = out + ((size_t)n * HW + p) * C;
    for (int c = 0; c < C; ++c) dst[c] = src[(size_t)c * HW];
  }
}

__global__ void chw_to_hwc_flat(const float *in, float *out, int C, int H, int W) {
  long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  long long total = (long long)C * H * W;
  if (i < total) {
    int w = int(i % W);
    int h = int((i / W) % H);
    int c = int(i / ((long long)H * W));
    out[((long long)h * W + w) * C + c] = in[i];
  }
}

constexpr int kC8 = 32;

int main(int argc, char **argv) {
  const int Nh = argInt(argc, argv, 1, 64), Hh = argInt(argc, argv, 2, 512), Wh = argInt(argc, argv, 3, 512);
  const int Nu = argInt(argc, argv, 4, 64), HWu = argInt(argc, argv, 5, 224 * 224);
  const int Cf = argInt(argc, argv, 6, 128), Hf = argInt(argc, argv, 7, 384), Wf = argInt(argc, argv, 8, 384);
  const int Ch = 3;
  const size_t nh = size_t(Nh) * Ch * Hh * Wh, nu = size_t(Nu) * kC8 * HWu, nf = size_t(Cf) * Hf * Wf;
  std::vector<uint16_t> hin(nh);  // the half data as bit patterns
  for (size_t k = 0; k < nh; k++) {
    __half v = __float2half(0.25f + float(hashAt(6101, k) >> 8) * (1.0f / 16777216.0f));
    std::memcpy(&hin[k], &v, sizeof v);
  }
  std::vector<uint8_t> uin(nu);
  for (size_t k = 0; k < nu; k++) uin[k] = uint8_t(1 + hashAt(6102, k) % 255u);
  std::vector<float> fin(nf);
  fillFloats(fin, 6103);
  uint16_t *dhin = toDevice(hin), *dhout;
  uint8_t *duin = toDevice(uin), *duout;
  float *dfin = toDevice(fin), *dfout;
  CHECK(cudaMalloc(&dhout, nh * sizeof(uint16_t)));
  CHECK(cudaMalloc(&duout, nu));
  CHECK(cudaMalloc(&dfout, nf * sizeof(float)));
  CHECK(cudaDeviceSynchronize());

  GpuTimer t;
  t.start();
  nchw_to_nhwc_half<<<dim3((Wh + 31) / 32, (Hh + 7) / 8, Nh), dim3(32, 8)>>>((const __half *)dhin, (__half *)dhout,
                                                                             Ch, Hh, Wh);
  CHECK_LAUNCH();
  nchw_to_nhwc_u8<kC8><<<dim3(blocksFor(HWu, 128), Nu), 128>>>(duin, duout, HWu);
  CHECK_LAUNCH();
  chw_to_hwc_flat<<<blocksFor(long(nf), 512), 512>>>(dfin, dfout, Cf, Hf, Wf);
  CHECK_LAUNCH();
  float ms = t.stop();
  std::vector<uint16_t> hout = fromDevice(dhout, nh);
  std::vector<uint8_t> uout = fromDevice(duout, nu);
  std::vector<float> fout = fromDevice(dfout, nf);

  std::vector<uint16_t> href(nh);
  const size_t HWh = size_t(Hh) * Wh;
  for (size_t n = 0; n < size_t(Nh); n++)
    for (size_t c = 0; c < size_t(Ch); c++)
      for (size_t p = 0; p < HWh; p++) href[(n * HWh + p) * Ch + c] = hin[(n * Ch + c) * HWh + p];
  std::vector<uint8_t> uref(nu);
  for (size_t n = 0; n < size_t(Nu); n++)
    for (size_t c = 0; c < size_t(kC8); c++)
      for (size_t p = 0; p < size_t(HWu); p++) uref[(n * HWu + p) * kC8 + c] = uin[(n * kC8 + c) * HWu + p];
  std::vector<float> fref(nf);
  const size_t HWf = size_t(Hf) * Wf;
  for (size_t c = 0; c < size_t(Cf); c++)
    for (size_t p = 0; p < HWf; p++) fref[p * Cf + c] = fin[c * HWf + p];
  bool ok = checkExact("half C=3", hout.data(), href.data(), nh);
  ok = checkExact("uint8 C=32", uout.data(), uref.data(), nu) && ok;
  ok = checkExact("flat float CHW->HWC", fout.data(), fref.data(), nf) && ok;
  CHECK(cudaFree(dhin));
  CHECK(cudaFree(dhout));
  CHECK(cudaFree(duin));
  CHECK(cudaFree(duout));
  CHECK(cudaFree(dfin));
  CHECK(cudaFree(dfout));
  return finish(ms, ok);
}
