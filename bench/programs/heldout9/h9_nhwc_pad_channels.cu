// h9_nhwc_pad_channels: layout conversions with padding channels (the ones
// inference code writes so that a pixel's channels fill 4 or 8 lanes), each
// launched with an explicit `cudaLaunchKernel(&kernel, grid, block, args,
// 0, stream)` on a created stream. (1) float NCHW with C = 3 -> NHWC with 4
// channels, the 4th zero: a thread per pixel (w, h), n = blockIdx.z, 32 x 8
// blocks, `int`, a loop over the 4 output channels `out[((n*H + h)*W +
// w)*4 + c] = c < 3 ? in[((n*3 + c)*H + h)*W + w] : 0.0f` (N H W = 16 500
// 500: 48 MB in, 64 MB out); (2) u8 NHWC with 4 channels -> NCHW with 3
// (the padding dropped): a thread per pixel, 64 x 4 blocks, `unsigned`,
// `out[((n*3 + c)*H + h)*W + w] = in[((n*H + h)*W + w)*4 + c]` for c < 3 (N
// H W = 16 1000 1000: 64 MB in); (3) float NHWC with C = 20 -> NCHW with
// Cp = 24 over the flat output, a thread per output element, blocks of
// 256, `size_t` and `/` `%`: `w = idx % W; h = (idx / W) % H; c = (idx /
// (W*H)) % Cp; n = idx / (W*H*Cp)`, `out[idx] = c < C ? in[((n*H + h)*W +
// w)*C + c] : 0.0f` (N H W = 16 224 224: 64 MB in, 77 MB out). Sizes in
// argv order: N1 H1 W1 N2 H2 W2 N3 H3 W3. The three launches run 3 times
// (REPEAT = 3, the same outputs rewritten). Timed: the 9 launches (the
// stream synchronized before the stop event). Checked: every output,
// padding included, exactly.
#include "../common.h"

__global__ void nchw3_to_nhwc4(const float *in, float *out, int H, int W) {
  int w = blockIdx.x * blockDim.x + threadIdx.x;
  int h = blockIdx.y * blockDim.y + threadIdx.y;
  int n = blockIdx.z;
  if (w < W && h < H)
    for (int c = 0; c < 4; c++) out[((n * H + h) * W + w) * 4 + c] = c < 3 ? in[((n * 3 + c) * H + h) * W + w] : 0.0f;
}

__global__ void nhwc4_to_nchw3_u8(const unsigned char *in, unsigned char *out, unsigned H, unsigned W) {
  unsigned w = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned h = blockIdx.y * blockDim.y + threadIdx.y;
  unsigned n = blockIdx.z;
  if (w < W && h < H)
    for (unsigned c = 0; c < 3; c++) out[((n * 3 + c) * H + h) * W + w] = in[((n * H + h) * W + w) * 4 + c];
}

__global__ void nhwc_to_nchw_padc(const float *in, float *out, size_t N, size_t C, size_t Cp, size_t H, size_t W) {
  size_t idx = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (idx < N * Cp * H * W) {
    size_t w = idx % W;
    size_t h = (idx / W) % H;
    size_t c = (idx / (W * H)) % Cp;
    size_t n = idx / (W * H * Cp);
    out[idx] = c < C ? in[((n * H + h) * W + w) * C + c] : 0.0f;
  }
}

int main(int argc, char **argv) {
  int N1 = argInt(argc, argv, 1, 16), H1 = argInt(argc, argv, 2, 500), W1 = argInt(argc, argv, 3, 500);
  unsigned N2 = argInt(argc, argv, 4, 16), H2 = argInt(argc, argv, 5, 1000), W2 = argInt(argc, argv, 6, 1000);
  size_t N3 = argInt(argc, argv, 7, 16), H3 = argInt(argc, argv, 8, 224), W3 = argInt(argc, argv, 9, 224);
  size_t C3 = 20, Cp3 = 24;
  const size_t in1n = size_t(N1) * 3 * H1 * W1, out1n = size_t(N1) * H1 * W1 * 4;
  const size_t in2n = size_t(N2) * H2 * W2 * 4, out2n = size_t(N2) * 3 * H2 * W2;
  const size_t in3n = N3 * H3 * W3 * C3, out3n = N3 * Cp3 * H3 * W3;
  std::vector<float> in1(in1n), in3(in3n);
  fillFloats(in1, 9701);
  fillFloats(in3, 9703);
  std::vector<unsigned char> in2(in2n);
  for (size_t i = 0; i < in2n; i++) in2[i] = (unsigned char)(1 + hashAt(9702, i) % 255);
  float *d_in1 = toDevice(in1), *d_in3 = toDevice(in3), *d_out1, *d_out3;
  unsigned char *d_in2 = toDevice(in2), *d_out2;
  CHECK(cudaMalloc(&d_out1, out1n * sizeof(float)));
  CHECK(cudaMalloc(&d_out2, out2n));
  CHECK(cudaMalloc(&d_out3, out3n * sizeof(float)));
  cudaStream_t s;
  CHECK(cudaStreamCreate(&s));
  CHECK(cudaDeviceSynchronize());

  void *a1[] = {&d_in1, &d_out1, &H1, &W1};
  void *a2[] = {&d_in2, &d_out2, &H2, &W2};
  void *a3[] = {&d_in3, &d_out3, &N3, &C3, &Cp3, &H3, &W3};
  dim3 b1(32, 8), g1((W1 + 31) / 32, (H1 + 7) / 8, N1);
  dim3 b2(64, 4), g2((W2 + 63) / 64, (H2 + 3) / 4, N2);
  dim3 b3(256), g3(blocksFor(long(out3n), 256));
  GpuTimer t;
  t.start();
  for (int r = 0; r < 3; r++) {
    CHECK(cudaLaunchKernel(&nchw3_to_nhwc4, g1, b1, a1, 0, s));
    CHECK(cudaLaunchKernel(&nhwc4_to_nchw3_u8, g2, b2, a2, 0, s));
    CHECK(cudaLaunchKernel(&nhwc_to_nchw_padc, g3, b3, a3, 0, s));
  }
  CHECK(cudaStreamSynchronize(s));
  float ms = t.stop();
  std::vector<float> go1 = fromDevice(d_out1, out1n);
  std::vector<unsigned char> go2 = fromDevice(d_out2, out2n);
  std::vector<float> go3 = fromDevice(d_out3, out3n);

  std::vector<float> r1(out1n), r3(out3n);
  std::vector<unsigned char> r2(out2n);
  for (size_t n = 0; n < size_t(N1); n++)
    for (size_t h = 0; h < size_t(H1); h++)
      for (size_t w = 0; w < size_t(W1); w++)
        for (size_t c = 0; c < 4; c++)
          r1[((n * H1 + h) * W1 + w) * 4 + c] = c < 3 ? in1[((n * 3 + c) * H1 + h) * W1 + w] : 0.0f;
  for (size_t n = 0; n < N2; n++)
    for (size_t c = 0; c < 3; c++)
      for (size_t h = 0; h < H2; h++)
        for (size_t w = 0; w < W2; w++) r2[((n * 3 + c) * H2 + h) * W2 + w] = in2[((n * H2 + h) * W2 + w) * 4 + c];
  for (size_t n = 0; n < N3; n++)
    for (size_t c = 0; c < Cp3; c++)
      for (size_t h = 0; h < H3; h++)
        for (size_t w = 0; w < W3; w++)
          r3[((n * Cp3 + c) * H3 + h) * W3 + w] = c < C3 ? in3[((n * H3 + h) * W3 + w) * C3 + c] : 0.0f;
  bool ok = checkExact("nchw3 -> nhwc4", go1.data(), r1.data(), out1n);
  ok = checkExact("nhwc4 -> nchw3 u8", go2.data(), r2.data(), out2n) && ok;
  ok = checkExact("nhwc -> nchw padded", go3.data(), r3.data(), out3n) && ok;
  CHECK(cudaStreamDestroy(s));
  CHECK(cudaFree(d_in1));
  CHECK(cudaFree(d_out1));
  CHECK(cudaFree(d_in2));
  CHECK(cudaFree(d_out2));
  CHECK(cudaFree(d_in3));
  CHECK(cudaFree(d_out3));
  return finish(ms, ok);
}
