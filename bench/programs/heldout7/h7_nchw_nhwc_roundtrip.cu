// h7_nchw_nhwc_roundtrip: float tensors, N C H W = 16 64 136 136 (76 MB).
// (1) NCHW -> NHWC with a 3-D grid: the H*W plane in x (blocks of 128),
// channels in y, batch in z; `int` indices, `out[(n*HW + p)*C + c] =
// in[(n*C + c)*HW + p]`; (2) NHWC -> NCHW back, a flat 1-D grid over the
// output elements (blocks of 256), `int` index math with / and %:
// w = i % W, h = (i / W) % H, c = (i / (W*H)) % C, n = i / (W*H*C). The
// plane (18496) is not a multiple of 128. (2) reads (1)'s output. Timed:
// both launches. Checked: exactly ((1) against a host permute; (2) equal to
// the input).
#include "../common.h"

__global__ void nchw_to_nhwc(const float *__restrict__ in, float *__restrict__ out, int C, int HW) {
  int p = blockIdx.x * blockDim.x + threadIdx.x;
  int c = blockIdx.y;
  int n = blockIdx.z;
  if (p < HW) out[(n * HW + p) * C + c] = in[(n * C + c) * HW + p];
}

__global__ void nhwc_to_nchw_flat(const float *in, float *out, int N, int C, int H, int W) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int total = N * C * H * W;
  if (i < total) {
    int w = i % W;
    int h = (i / W) % H;
    int c = (i / (W * H)) % C;
    int n = i / (W * H * C);
    out[i] = in[((n * H + h) * W + w) * C + c];
  }
}

int main(int argc, char **argv) {
  const int N = argInt(argc, argv, 1, 16), C = argInt(argc, argv, 2, 64);
  const int H = argInt(argc, argv, 3, 136), W = argInt(argc, argv, 4, 136);
  const int HW = H * W;
  const size_t total = size_t(N) * C * HW;

  std::vector<float> x(total);
  fillFloats(x, 7401);
  float *d_x = toDevice(x), *d_nhwc, *d_back;
  CHECK(cudaMalloc(&d_nhwc, total * sizeof(float)));
  CHECK(cudaMalloc(&d_back, total * sizeof(float)));
  CHECK(cudaDeviceSynchronize());

  dim3 grid1((HW + 127) / 128, C, N);
  GpuTimer t;
  t.start();
  nchw_to_nhwc<<<grid1, 128>>>(d_x, d_nhwc, C, HW);
  CHECK_LAUNCH();
  nhwc_to_nchw_flat<<<blocksFor(long(total), 256), 256>>>(d_nhwc, d_back, N, C, H, W);
  CHECK_LAUNCH();
  float ms = t.stop();
  std::vector<float> nhwc = fromDevice(d_nhwc, total), back = fromDevice(d_back, total);

  std::vector<float> ref(total);
  for (size_t n = 0; n < size_t(N); n++)
    for (size_t c = 0; c < size_t(C); c++)
      for (size_t p = 0; p < size_t(HW); p++) ref[(n * HW + p) * C + c] = x[(n * C + c) * HW + p];
  bool ok = checkExact("nchw->nhwc", nhwc.data(), ref.data(), total);
  ok = checkExact("nhwc->nchw round trip", back.data(), x.data(), total) && ok;
  CHECK(cudaFree(d_x));
  CHECK(cudaFree(d_nhwc));
  CHECK(cudaFree(d_back));
  return finish(ms, ok);
}
