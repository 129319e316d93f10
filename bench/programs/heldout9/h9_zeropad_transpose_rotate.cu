// h9_zeropad_transpose_rotate: naive transposes into outputs padded to a
// multiple of the tile, zeros outside the input (the CUDA samples' and
// cuBLAS users' "pad to 32" layouts), all launched with an explicit
// `cudaLaunchKernel(&kernel, grid, block, args, 0, stream)` on a created
// stream. (1) float, in H x W = 3001 x 5000 (60 MB), out Wp x Hp = 5024 x
// 3008 (multiples of 32): a thread per padded input position (x, y), 32 x
// 8 blocks, `int`, `out[x*Hp + y] = (x < W && y < H) ? in[y*W + x] : 0.0f`
// (reads along rows, writes strided); (2) u8 image h x w = 7001 x 9000 (63
// MB) rotated 90 degrees clockwise into a 9024 x 7040 output (multiples of
// 64): a thread per output pixel (c, r), 16 x 16 blocks, `unsigned`,
// `out[r*Wo + c] = (r < w && c < h) ? in[(h - 1 - c)*w + r] : 0` (reads
// down a column, backwards); (3) short, in rows x cols = 4097 x 7999 (66
// MB), out colsP x rowsP = 8000 x 4112 (multiples of 16): a thread per
// output element (x, y), 8 x 32 blocks, `size_t`, `out[y*rowsP + x] = (y <
// cols && x < rows) ? in[x*cols + y] : 0` (writes along rows, reads
// strided). Sizes in argv order as above (H W h w rows cols). The three
// launches run twice (REPEAT = 2, the same outputs rewritten). Timed: the
// 6 launches (the stream synchronized before the stop event). Checked:
// every output element, padding included, exactly.
#include "../common.h"

__global__ void transpose_pad_f32(const float *in, float *out, int W, int H, int Wp, int Hp) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < Wp && y < Hp) out[x * Hp + y] = (x < W && y < H) ? in[y * W + x] : 0.0f;
}

__global__ void rotate90_pad_u8(const unsigned char *in, unsigned char *out, unsigned w, unsigned h, unsigned Wo,
                                unsigned Ho) {
  unsigned c = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned r = blockIdx.y * blockDim.y + threadIdx.y;
  if (r < Ho && c < Wo) out[r * Wo + c] = (r < w && c < h) ? in[(h - 1 - c) * w + r] : 0;
}

__global__ void transpose_pad_s16(const short *in, short *out, size_t rows, size_t cols, size_t rowsP, size_t colsP) {
  size_t x = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  size_t y = blockIdx.y * (size_t)blockDim.y + threadIdx.y;
  if (x < rowsP && y < colsP) out[y * rowsP + x] = (y < cols && x < rows) ? in[x * cols + y] : short(0);
}

static int roundUp(int v, int m) { return (v + m - 1) / m * m; }

int main(int argc, char **argv) {
  int H = argInt(argc, argv, 1, 3001), W = argInt(argc, argv, 2, 5000);
  unsigned h = argInt(argc, argv, 3, 7001), w = argInt(argc, argv, 4, 9000);
  size_t rows = argInt(argc, argv, 5, 4097), cols = argInt(argc, argv, 6, 7999);
  int Wp = roundUp(W, 32), Hp = roundUp(H, 32);
  unsigned Ho = roundUp(int(w), 64), Wo = roundUp(int(h), 64);
  size_t rowsP = roundUp(int(rows), 16), colsP = roundUp(int(cols), 16);

  std::vector<float> in1(size_t(H) * W);
  fillFloats(in1, 9401);
  std::vector<unsigned char> in2(size_t(h) * w);
  for (size_t i = 0; i < in2.size(); i++) in2[i] = (unsigned char)(1 + hashAt(9402, i) % 255);
  std::vector<short> in3(rows * cols);
  for (size_t i = 0; i < in3.size(); i++) in3[i] = short(int(hashAt(9403, i) % 60000) - 30000) | short(1);
  float *d_in1 = toDevice(in1), *d_out1;
  unsigned char *d_in2 = toDevice(in2), *d_out2;
  short *d_in3 = toDevice(in3), *d_out3;
  const size_t n1 = size_t(Wp) * Hp, n2 = size_t(Ho) * Wo, n3 = rowsP * colsP;
  CHECK(cudaMalloc(&d_out1, n1 * sizeof(float)));
  CHECK(cudaMalloc(&d_out2, n2));
  CHECK(cudaMalloc(&d_out3, n3 * sizeof(short)));
  cudaStream_t s;
  CHECK(cudaStreamCreate(&s));
  CHECK(cudaDeviceSynchronize());

  void *a1[] = {&d_in1, &d_out1, &W, &H, &Wp, &Hp};
  void *a2[] = {&d_in2, &d_out2, &w, &h, &Wo, &Ho};
  void *a3[] = {&d_in3, &d_out3, &rows, &cols, &rowsP, &colsP};
  dim3 b1(32, 8), g1(Wp / 32, Hp / 8);
  dim3 b2(16, 16), g2(Wo / 16, Ho / 16);
  dim3 b3(8, 32), g3(unsigned(rowsP / 8), unsigned((colsP + 31) / 32));
  GpuTimer t;
  t.start();
  for (int r = 0; r < 2; r++) {
    CHECK(cudaLaunchKernel(&transpose_pad_f32, g1, b1, a1, 0, s));
    CHECK(cudaLaunchKernel(&rotate90_pad_u8, g2, b2, a2, 0, s));
    CHECK(cudaLaunchKernel(&transpose_pad_s16, g3, b3, a3, 0, s));
  }
  CHECK(cudaStreamSynchronize(s));
  float ms = t.stop();
  std::vector<float> g1h = fromDevice(d_out1, n1);
  std::vector<unsigned char> g2h = fromDevice(d_out2, n2);
  std::vector<short> g3h = fromDevice(d_out3, n3);

  std::vector<float> r1(n1);
  for (size_t x = 0; x < size_t(Wp); x++)
    for (size_t y = 0; y < size_t(Hp); y++) r1[x * Hp + y] = (x < size_t(W) && y < size_t(H)) ? in1[y * W + x] : 0.0f;
  std::vector<unsigned char> r2(n2);
  for (size_t r = 0; r < Ho; r++)
    for (size_t c = 0; c < Wo; c++) r2[r * Wo + c] = (r < w && c < h) ? in2[(h - 1 - c) * w + r] : 0;
  std::vector<short> r3(n3);
  for (size_t y = 0; y < colsP; y++)
    for (size_t x = 0; x < rowsP; x++) r3[y * rowsP + x] = (y < cols && x < rows) ? in3[x * cols + y] : short(0);
  bool ok = checkExact("pad transpose f32", g1h.data(), r1.data(), n1);
  ok = checkExact("pad rotate u8", g2h.data(), r2.data(), n2) && ok;
  ok = checkExact("pad transpose s16", g3h.data(), r3.data(), n3) && ok;
  CHECK(cudaStreamDestroy(s));
  CHECK(cudaFree(d_in1));
  CHECK(cudaFree(d_out1));
  CHECK(cudaFree(d_in2));
  CHECK(cudaFree(d_out2));
  CHECK(cudaFree(d_in3));
  CHECK(cudaFree(d_out3));
  return finish(ms, ok);
}
