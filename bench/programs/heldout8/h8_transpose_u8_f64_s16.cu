// h8_transpose_u8_f64_s16: three naive one-element-a-thread transposes,
// `<<<>>>` on the default stream, none of the sizes a multiple of its
// block. (1) 8-bit, W x H = 8193 x 8191 (67 MB), 64 x 4 blocks, `unsigned`
// indices, `out[x*H + y] = in[y*W + x]`; (2) double, a 3-D permute of a
// batch of B = 3 matrices of rows x cols = 1000 x 3000 (72 MB): (b, r, c)
// -> (c, b, r), `out[(c*B + b)*rows + r] = in[(b*rows + r)*cols + c]`, 16 x
// 16 blocks, b = blockIdx.z, `size_t` indices, `__restrict__`; (3) 16-bit
// `short`, W x H = 7001 x 5003 (70 MB), 32 x 32 blocks (1024 threads), `int`
// indices, `if (x < W && y < H) out[x*H + y] = in[y*W + x]`. Timed: the
// three launches. Checked: exactly (data movement).
#include "../common.h"

__global__ void transpose_u8(const unsigned char *in, unsigned char *out, unsigned W, unsigned H) {
  unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < W && y < H) out[x * H + y] = in[y * W + x];
}

__global__ void permute_brc_cbr(const double *__restrict__ in, double *__restrict__ out, size_t B, size_t rows,
                                size_t cols) {
  size_t c = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  size_t r = blockIdx.y * (size_t)blockDim.y + threadIdx.y;
  size_t b = blockIdx.z;
  if (r < rows && c < cols) out[(c * B + b) * rows + r] = in[(b * rows + r) * cols + c];
}

__global__ void transpose_s16(const short *in, short *out, int W, int H) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < W && y < H) out[x * H + y] = in[y * W + x];
}

int main(int argc, char **argv) {
  const unsigned W8 = unsigned(argInt(argc, argv, 1, 8193)), H8 = unsigned(argInt(argc, argv, 2, 8191));
  const size_t B = size_t(argInt(argc, argv, 3, 3)), rows = size_t(argInt(argc, argv, 4, 1000)),
               cols = size_t(argInt(argc, argv, 5, 3000));
  const int W16 = argInt(argc, argv, 6, 7001), H16 = argInt(argc, argv, 7, 5003);
  const size_t n8 = size_t(W8) * H8, nd = B * rows * cols, n16 = size_t(W16) * H16;

  std::vector<unsigned char> a8(n8);
  for (size_t k = 0; k < n8; k++) a8[k] = (unsigned char)(1 + hashAt(8801, k) % 255u);
  std::vector<double> ad(nd);
  for (size_t k = 0; k < nd; k++) ad[k] = 0.25 + double(hashAt(8802, k)) * (1.0 / 4294967296.0);
  std::vector<short> a16(n16);
  for (size_t k = 0; k < n16; k++) {
    int v = int(hashAt(8803, k) % 60000u) - 30000;
    a16[k] = short(v >= 0 ? v + 1 : v);
  }

  unsigned char *d_a8 = toDevice(a8), *d_t8;
  double *d_ad = toDevice(ad), *d_td;
  short *d_a16 = toDevice(a16), *d_t16;
  CHECK(cudaMalloc(&d_t8, n8));
  CHECK(cudaMalloc(&d_td, nd * sizeof(double)));
  CHECK(cudaMalloc(&d_t16, n16 * sizeof(short)));
  CHECK(cudaDeviceSynchronize());

  dim3 b1(64, 4), g1((W8 + 63) / 64, (H8 + 3) / 4);
  dim3 b2(16, 16), g2(unsigned((cols + 15) / 16), unsigned((rows + 15) / 16), unsigned(B));
  dim3 b3(32, 32), g3((W16 + 31) / 32, (H16 + 31) / 32);
  GpuTimer t;
  t.start();
  transpose_u8<<<g1, b1>>>(d_a8, d_t8, W8, H8);
  CHECK_LAUNCH();
  permute_brc_cbr<<<g2, b2>>>(d_ad, d_td, B, rows, cols);
  CHECK_LAUNCH();
  transpose_s16<<<g3, b3>>>(d_a16, d_t16, W16, H16);
  CHECK_LAUNCH();
  float ms = t.stop();
  std::vector<unsigned char> t8 = fromDevice(d_t8, n8);
  std::vector<double> td = fromDevice(d_td, nd);
  std::vector<short> t16 = fromDevice(d_t16, n16);

  std::vector<unsigned char> r8(n8);
  for (size_t y = 0; y < H8; y++)
    for (size_t x = 0; x < W8; x++) r8[x * H8 + y] = a8[y * W8 + x];
  std::vector<double> rd(nd);
  for (size_t b = 0; b < B; b++)
    for (size_t r = 0; r < rows; r++)
      for (size_t c = 0; c < cols; c++) rd[(c * B + b) * rows + r] = ad[(b * rows + r) * cols + c];
  std::vector<short> r16(n16);
  for (size_t y = 0; y < size_t(H16); y++)
    for (size_t x = 0; x < size_t(W16); x++) r16[x * H16 + y] = a16[y * W16 + x];
  bool ok = checkExact("u8 transpose", t8.data(), r8.data(), n8);
  ok = checkExact("double (b,r,c)->(c,b,r)", td.data(), rd.data(), nd) && ok;
  ok = checkExact("short transpose", t16.data(), r16.data(), n16) && ok;
  CHECK(cudaFree(d_a8));
  CHECK(cudaFree(d_t8));
  CHECK(cudaFree(d_ad));
  CHECK(cudaFree(d_td));
  CHECK(cudaFree(d_a16));
  CHECK(cudaFree(d_t16));
  return finish(ms, ok);
}
