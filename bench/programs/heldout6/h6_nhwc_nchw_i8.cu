// h6_nhwc_nchw_i8: int8 tensor layout conversions, N x H x W x C = 32 x 224
// x 224 x 64 (103 MB), one thread per OUTPUT element over a 1-D grid, `int`
// index math with / and %: (1) NHWC -> NCHW (blocks of 256), `w = idx % W;
// h = (idx / W) % H; c = (idx / (W*H)) % C; n = idx / (W*H*C); out[idx] =
// in[((n*H + h)*W + w)*C + c]`; (2) the reverse NCHW -> NHWC of (1)'s output
// (blocks of 512). One launch each. Timed: both. Checked exactly: (1)
// against a CPU permute, (2) equal to the original input.
#include "../common.h"

__global__ void nhwc_to_nchw(const int8_t *in, int8_t *out, int N, int H, int W, int C) {
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  int total = N * C * H * W;
  if (idx < total) {
    int w = idx % W;
    int h = (idx / W) % H;
    int c = (idx / (W * H)) % C;
    int n = idx / (W * H * C);
    out[idx] = in[((n * H + h) * W + w) * C + c];
  }
}

__global__ void nchw_to_nhwc(const int8_t *in, int8_t *out, int N, int H, int W, int C) {
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx >= N * H * W * C) return;
  int c = idx % C;
  int w = (idx / C) % W;
  int h = (idx / (C * W)) % H;
  int n = idx / (C * W * H);
  out[idx] = in[((n * C + c) * H + h) * W + w];
}

int main(int argc, char **argv) {
  const int N = argInt(argc, argv, 1, 32), H = argInt(argc, argv, 2, 224), W = argInt(argc, argv, 3, 224),
            C = argInt(argc, argv, 4, 64);
  const size_t total = size_t(N) * H * W * C;
  std::vector<int8_t> x(total);
  for (size_t i = 0; i < total; i++) {
    int v = int(hashAt(1501, i) % 255u) - 127;
    x[i] = int8_t(v == 0 ? 1 : v);
  }
  int8_t *d_x = toDevice(x), *d_nchw, *d_back;
  CHECK(cudaMalloc(&d_nchw, total));
  CHECK(cudaMalloc(&d_back, total));
  CHECK(cudaDeviceSynchronize());

  GpuTimer t;
  t.start();
  nhwc_to_nchw<<<blocksFor(long(total), 256), 256>>>(d_x, d_nchw, N, H, W, C);
  CHECK_LAUNCH();
  nchw_to_nhwc<<<blocksFor(long(total), 512), 512>>>(d_nchw, d_back, N, H, W, C);
  CHECK_LAUNCH();
  float ms = t.stop();
  std::vector<int8_t> nchw = fromDevice(d_nchw, total), back = fromDevice(d_back, total);

  std::vector<int8_t> ref(total);
  for (size_t n = 0; n < size_t(N); n++)
    for (size_t h = 0; h < size_t(H); h++)
      for (size_t w = 0; w < size_t(W); w++)
        for (size_t c = 0; c < size_t(C); c++)
          ref[((n * C + c) * H + h) * W + w] = x[((n * H + h) * W + w) * C + c];
  bool ok = checkExact("NHWC -> NCHW", nchw.data(), ref.data(), total);
  ok = checkExact("NCHW -> NHWC (round trip)", back.data(), x.data(), total) && ok;
  CHECK(cudaFree(d_x));
  CHECK(cudaFree(d_nchw));
  CHECK(cudaFree(d_back));
  return finish(ms, ok);
}
