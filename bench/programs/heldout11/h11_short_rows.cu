// h11_short_rows: rows of short elements summed by a thread per row with a
// register accumulator. (1) `__half` rows summed into float, each element
// converted with __half2float, `unsigned` indices: `s +=
// __half2float(h[r*cols + j])`, HR x HC = 8192 x 4096 (67 MB), 128-thread
// blocks; (2) an 8-bit grey image, a row's sum into `unsigned` and its mean
// `(float)s / (float)width`, `size_t` indices, IR x IW = 16384 x 4096 (67
// MB), 256-thread blocks; (3) int16 rows (values +-1..1000) summed into int,
// `int` indices with the width a template parameter: `template <int COLS>
// ... s += a[r*COLS + j]`, SR x 4096 = 8192 x 4096 (67 MB), 64-thread
// blocks. Sizes: HR HC IR IW SR (argv; the int16 width is compile-time).
// Each kernel launched once. Timed: the 3 launches. Checked: exact (half ->
// float is exact and the float adds are in the CPU's order; integer sums;
// the mean is one IEEE division on both sides).
#include <cuda_fp16.h>

#include "../common.h"

#define S16_COLS 4096

__global__ void half_row_sum(const __half *h, float *out, unsigned rows, unsigned cols) {
  unsigned r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < rows) {
    float s = 0.0f;
    for (unsigned j = 0; j < cols; j++) s += __half2float(h[r * cols + j]);
    out[r] = s;
  }
}

__global__ void u8_row_mean(const unsigned char *img, unsigned *sum, float *mean, size_t height, size_t width) {
  size_t r = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (r < height) {
    unsigned s = 0;
    for (size_t j = 0; j < width; j++) s += img[r * width + j];
    sum[r] = s;
    mean[r] = (float)s / (float)width;
  }
}

template <int COLS> __global__ void s16_row_sum(const short *a, int *out, int rows) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < rows) {
    int s = 0;
    for (int j = 0; j < COLS; j++) s += a[r * COLS + j];
    out[r] = s;
  }
}

int main(int argc, char **argv) {
  const unsigned HR = argInt(argc, argv, 1, 8192), HC = argInt(argc, argv, 2, 4096);
  const size_t IR = argInt(argc, argv, 3, 16384), IW = argInt(argc, argv, 4, 4096);
  const int SR = argInt(argc, argv, 5, 8192);
  const size_t nh = size_t(HR) * HC, ni = IR * IW, ns = size_t(SR) * S16_COLS;
  std::vector<__half> h(nh);
  std::vector<float> hf(nh);
  for (size_t k = 0; k < nh; k++) {
    h[k] = __float2half(0.25f + float(hashAt(11401, k) >> 8) * (1.0f / 16777216.0f));
    hf[k] = __half2float(h[k]);
  }
  std::vector<unsigned char> img(ni);
  for (size_t k = 0; k < ni; k++) img[k] = (unsigned char)(1 + hashAt(11402, k) % 255);
  std::vector<short> a(ns);
  for (size_t k = 0; k < ns; k++) {
    uint32_t u = hashAt(11403, k);
    int v = 1 + int(u % 1000);
    a[k] = short((u >> 16) & 1 ? -v : v);
  }
  __half *d_h = toDevice(h);
  unsigned char *d_img = toDevice(img);
  short *d_a = toDevice(a);
  float *d_hs, *d_mean;
  unsigned *d_isum;
  int *d_ss;
  CHECK(cudaMalloc(&d_hs, HR * sizeof(float)));
  CHECK(cudaMalloc(&d_isum, IR * sizeof(unsigned)));
  CHECK(cudaMalloc(&d_mean, IR * sizeof(float)));
  CHECK(cudaMalloc(&d_ss, SR * sizeof(int)));
  CHECK(cudaDeviceSynchronize());

  GpuTimer t;
  t.start();
  half_row_sum<<<blocksFor(HR, 128), 128>>>(d_h, d_hs, HR, HC);
  CHECK_LAUNCH();
  u8_row_mean<<<blocksFor(long(IR), 256), 256>>>(d_img, d_isum, d_mean, IR, IW);
  CHECK_LAUNCH();
  s16_row_sum<S16_COLS><<<blocksFor(SR, 64), 64>>>(d_a, d_ss, SR);
  CHECK_LAUNCH();
  float ms = t.stop();
  std::vector<float> ghs = fromDevice(d_hs, HR), gmean = fromDevice(d_mean, IR);
  std::vector<unsigned> gisum = fromDevice(d_isum, IR);
  std::vector<int> gss = fromDevice(d_ss, SR);

  std::vector<float> whs(HR), wmean(IR);
  std::vector<unsigned> wisum(IR);
  std::vector<int> wss(SR);
  for (size_t r = 0; r < HR; r++) {
    float s = 0.0f;
    for (size_t j = 0; j < HC; j++) s += hf[r * HC + j];
    whs[r] = s;
  }
  for (size_t r = 0; r < IR; r++) {
    unsigned s = 0;
    for (size_t j = 0; j < IW; j++) s += img[r * IW + j];
    wisum[r] = s;
    wmean[r] = (float)s / (float)IW;
  }
  for (size_t r = 0; r < size_t(SR); r++) {
    int s = 0;
    for (size_t j = 0; j < S16_COLS; j++) s += a[r * S16_COLS + j];
    wss[r] = s;
  }
  bool ok = checkExact("half_row_sum", ghs.data(), whs.data(), HR);
  ok = checkExact("u8 row sum", gisum.data(), wisum.data(), IR) && ok;
  ok = checkExact("u8 row mean", gmean.data(), wmean.data(), IR) && ok;
  ok = checkExact("s16_row_sum", gss.data(), wss.data(), SR) && ok;

  CHECK(cudaFree(d_h));
  CHECK(cudaFree(d_img));
  CHECK(cudaFree(d_a));
  CHECK(cudaFree(d_hs));
  CHECK(cudaFree(d_isum));
  CHECK(cudaFree(d_mean));
  CHECK(cudaFree(d_ss));
  return finish(ms, ok);
}
