// h8_permute_half_rows: three independent kernels, each `<<<>>>` on its own
// created stream. (1) __half NHWC -> NCHW, N C H W = 8 128 184 184 (69 MB),
// 8 x 32 blocks (x the position in the H*W plane, y the channel, z the
// batch), `int` indices, `out[(n*C + c)*HW + p] = in[(n*HW + p)*C + c]`;
// (2) float CHW -> HWC over a flat 1-D grid of the output, C H W = 96 400
// 470 (72 MB), blocks of 256, `unsigned` index math with / and %: `c = i %
// C; w = (i / C) % W; h = i / (C*W); out[i] = in[(c*H + h)*W + w]`,
// `__restrict__`; (3) thread-per-row weighted sums of __half rows into
// float, rows x cols = 16384 x 2200 (72 MB), blocks of 128, `unsigned`
// indices, `s += __half2float(a[r*cols + j]) * w[j]`. Timed: the three
// launches (the three streams synchronized before the stop event). Checked:
// exactly ((1) halves by their bits; (3) fmaf in order).
#include "../common.h"

#include <cuda_fp16.h>
#include <cstring>

__global__ void nhwc_to_nchw_half(const __half *in, __half *out, int C, int HW) {
  int p = blockIdx.x * blockDim.x + threadIdx.x;
  int c = blockIdx.y * blockDim.y + threadIdx.y;
  int n = blockIdx.z;
  if (p < HW && c < C) out[(n * C + c) * HW + p] = in[(n * HW + p) * C + c];
}

__global__ void chw_to_hwc_flat(const float *__restrict__ in, float *__restrict__ out, unsigned C, unsigned H,
                                unsigned W) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < C * H * W) {
    unsigned c = i % C;
    unsigned w = (i / C) % W;
    unsigned h = i / (C * W);
    out[i] = in[(c * H + h) * W + w];
  }
}

__global__ void half_row_wsum(const __half *a, const float *w, float *out, unsigned rows, unsigned cols) {
  unsigned r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < rows) {
    float s = 0.0f;
    for (unsigned j = 0; j < cols; j++) s += __half2float(a[r * cols + j]) * w[j];
    out[r] = s;
  }
}

static std::vector<unsigned short> halfBits(size_t n, uint64_t seed) {
  std::vector<unsigned short> h(n);
  for (size_t i = 0; i < n; i++) {
    __half v = __float2half(0.25f + float(hashAt(seed, i) >> 8) * (1.0f / 16777216.0f));
    std::memcpy(&h[i], &v, sizeof(v));
  }
  return h;
}

static float bitsToFloat(unsigned short b) {
  __half_raw raw;
  raw.x = b;
  return __half2float(__half(raw));
}

int main(int argc, char **argv) {
  const int N = argInt(argc, argv, 1, 8), C = argInt(argc, argv, 2, 128), H = argInt(argc, argv, 3, 184),
            W = argInt(argc, argv, 4, 184);
  const unsigned C2 = unsigned(argInt(argc, argv, 5, 96)), H2 = unsigned(argInt(argc, argv, 6, 400)),
                 W2 = unsigned(argInt(argc, argv, 7, 470));
  const unsigned rows = unsigned(argInt(argc, argv, 8, 16384)), cols = unsigned(argInt(argc, argv, 9, 2200));
  const int HW = H * W;
  const size_t n1 = size_t(N) * C * HW, n2 = size_t(C2) * H2 * W2, n3 = size_t(rows) * cols;

  std::vector<unsigned short> x1 = halfBits(n1, 9001), x3 = halfBits(n3, 9003);
  std::vector<float> x2(n2), w(cols);
  fillFloats(x2, 9002);
  fillFloats(w, 9004);
  unsigned short *d_x1 = toDevice(x1), *d_y1, *d_x3 = toDevice(x3);
  float *d_x2 = toDevice(x2), *d_y2, *d_w = toDevice(w), *d_y3;
  CHECK(cudaMalloc(&d_y1, n1 * sizeof(unsigned short)));
  CHECK(cudaMalloc(&d_y2, n2 * sizeof(float)));
  CHECK(cudaMalloc(&d_y3, rows * sizeof(float)));
  cudaStream_t s[3];
  for (auto &st : s) CHECK(cudaStreamCreate(&st));
  CHECK(cudaDeviceSynchronize());

  dim3 b1(8, 32), g1((HW + 7) / 8, (C + 31) / 32, N);
  GpuTimer t;
  t.start();
  nhwc_to_nchw_half<<<g1, b1, 0, s[0]>>>(reinterpret_cast<const __half *>(d_x1), reinterpret_cast<__half *>(d_y1), C,
                                         HW);
  CHECK_LAUNCH();
  chw_to_hwc_flat<<<blocksFor(long(n2), 256), 256, 0, s[1]>>>(d_x2, d_y2, C2, H2, W2);
  CHECK_LAUNCH();
  half_row_wsum<<<blocksFor(rows, 128), 128, 0, s[2]>>>(reinterpret_cast<const __half *>(d_x3), d_w, d_y3, rows, cols);
  CHECK_LAUNCH();
  for (auto &st : s) CHECK(cudaStreamSynchronize(st));
  float ms = t.stop();
  std::vector<unsigned short> y1 = fromDevice(d_y1, n1);
  std::vector<float> y2 = fromDevice(d_y2, n2), y3 = fromDevice(d_y3, rows);

  std::vector<unsigned short> r1(n1);
  for (size_t n = 0; n < size_t(N); n++)
    for (size_t p = 0; p < size_t(HW); p++)
      for (size_t c = 0; c < size_t(C); c++) r1[(n * C + c) * HW + p] = x1[(n * HW + p) * C + c];
  std::vector<float> r2(n2);
  for (size_t h = 0; h < H2; h++)
    for (size_t ww = 0; ww < W2; ww++)
      for (size_t c = 0; c < C2; c++) r2[(h * W2 + ww) * C2 + c] = x2[(c * H2 + h) * W2 + ww];
  std::vector<float> lut(65536);
  for (size_t b = 0; b < 65536; b++) lut[b] = bitsToFloat((unsigned short)b);
  std::vector<float> r3(rows);
  for (size_t r = 0; r < rows; r++) {
    float acc = 0.0f;
    for (size_t j = 0; j < cols; j++) acc = std::fmaf(lut[x3[r * cols + j]], w[j], acc);
    r3[r] = acc;
  }
  bool ok = checkExact("half nhwc->nchw", y1.data(), r1.data(), n1);
  ok = checkExact("float chw->hwc", y2.data(), r2.data(), n2) && ok;
  ok = checkExact("half row weighted sums", y3.data(), r3.data(), rows) && ok;
  for (auto &st : s) CHECK(cudaStreamDestroy(st));
  CHECK(cudaFree(d_x1));
  CHECK(cudaFree(d_y1));
  CHECK(cudaFree(d_x3));
  CHECK(cudaFree(d_x2));
  CHECK(cudaFree(d_y2));
  CHECK(cudaFree(d_w));
  CHECK(cudaFree(d_y3));
  return finish(ms, ok);
}
