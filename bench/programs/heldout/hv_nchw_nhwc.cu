// hv_nchw_nhwc: layout permutes of a float tensor, N x C x H x W = 16 x 64 x
// 112 x 112 (51 MB each way), one element per thread, a 3-D grid with
// blockIdx.z = n, x the spatial index h*W+w, y the channel. (1) NCHW ->
// NHWC, blocks of 16 x 16: coalesced reads, writes strided by C. (2) NHWC
// -> NCHW back, blocks of 32 x 8: reads strided by C, coalesced writes.
// One launch each. Timed: both kernels. Checked exactly: the NHWC tensor
// against the CPU, and the round trip against the input.
#include "../common.h"

__global__ void nchw_to_nhwc(const float *in, float *out, int C, int HW) {
  int hw = blockIdx.x * blockDim.x + threadIdx.x;
  int c = blockIdx.y * blockDim.y + threadIdx.y;
  int n = blockIdx.z;
  if (hw < HW && c < C) out[(n * HW + hw) * C + c] = in[(n * C + c) * HW + hw];
}

__global__ void nhwc_to_nchw(const float *in, float *out, int C, int HW) {
  int hw = blockIdx.x * blockDim.x + threadIdx.x;
  int c = blockIdx.y * blockDim.y + threadIdx.y;
  int n = blockIdx.z;
  if (hw < HW && c < C) out[(n * C + c) * HW + hw] = in[(n * HW + hw) * C + c];
}

int main(int argc, char **argv) {
  const int N = argInt(argc, argv, 1, 16), C = argInt(argc, argv, 2, 64);
  const int H = argInt(argc, argv, 3, 112), W = argInt(argc, argv, 4, 112);
  const int HW = H * W;
  const size_t total = size_t(N) * C * HW;
  std::vector<float> in(total);
  fillFloats(in, 381);
  float *din = toDevice(in), *dnhwc, *dback;
  CHECK(cudaMalloc(&dnhwc, total * sizeof(float)));
  CHECK(cudaMalloc(&dback, total * sizeof(float)));
  GpuTimer t;
  t.start();
  nchw_to_nhwc<<<dim3(blocksFor(HW, 16), blocksFor(C, 16), N), dim3(16, 16)>>>(din, dnhwc, C, HW);
  CHECK_LAUNCH();
  nhwc_to_nchw<<<dim3(blocksFor(HW, 32), blocksFor(C, 8), N), dim3(32, 8)>>>(dnhwc, dback, C, HW);
  CHECK_LAUNCH();
  float ms = t.stop();
  std::vector<float> nhwc = fromDevice(dnhwc, total), back = fromDevice(dback, total);

  size_t bad = 0;
  for (size_t n = 0; n < size_t(N); n++)
    for (size_t c = 0; c < size_t(C); c++)
      for (size_t hw = 0; hw < size_t(HW); hw++)
        bad += !(nhwc[(n * HW + hw) * C + c] == in[(n * C + c) * HW + hw]);
  if (bad) std::fprintf(stderr, "nhwc: %zu of %zu differ\n", bad, total);
  bool ok = bad == 0;
  ok = checkExact("round trip", back.data(), in.data(), total) && ok;
  return finish(ms, ok);
}
