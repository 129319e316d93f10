// h12_short_elem_rows: rows of short elements, a thread per row with
// register accumulators. (1) u8_above_thresh: an 8-bit grey image, each row
// with its own threshold thr[y]: `p = img[y*width + x]; if (p > t) { s += p;
// c++; }` into `unsigned` sum and count, `size_t` indices, height x width =
// 16384 x 4096 (67 MB), 256-thread blocks, `if (y < height)`; (2)
// half2_row_dot: rows of `__half2` dotted with a float2 weight vector,
// `float2 f = __half22float2(h[r*cols2 + j]); s += f.x*w[j].x + f.y*w[j].y`,
// `unsigned` indices, 8192 rows x 2048 half2 (67 MB), 128-thread blocks, `if
// (r < rows)`; (3) short2_row_sums: rows of `short2`, the width a template
// parameter (`template <int COLS2>`, 2048): `v = a[r*COLS2 + j]; sx += v.x;
// sy += abs(v.y)` into an int2, `int` indices, 8256 rows (67.6 MB),
// 96-thread blocks launched without a guard (rows rounded up to a multiple of
// 96). Sizes: height width hrows hcols2 srows (argv; the short2 width is
// compile-time). Each kernel launched once. Timed: the 3 launches. Checked:
// (1), (3) exact; (2) against a double CPU sum, relative tolerance 1e-3 (fma
// contraction; half -> float exact; positive values).
#include <cuda_fp16.h>

#include "../common.h"

#define S2_COLS 2048

__global__ void u8_above_thresh(const unsigned char *img, const unsigned char *thr, unsigned *sum, unsigned *count,
                                size_t height, size_t width) {
  size_t y = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (y < height) {
    unsigned s = 0, c = 0;
    const unsigned char t = thr[y];
    for (size_t x = 0; x < width; x++) {
      unsigned char p = img[y * width + x];
      if (p > t) {
        s += p;
        c++;
      }
    }
    sum[y] = s;
    count[y] = c;
  }
}

__global__ void half2_row_dot(const __half2 *h, const float2 *w, float *out, unsigned rows, unsigned cols2) {
  unsigned r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < rows) {
    float s = 0.0f;
    for (unsigned j = 0; j < cols2; j++) {
      float2 f = __half22float2(h[r * cols2 + j]);
      float2 ww = w[j];
      s += f.x * ww.x + f.y * ww.y;
    }
    out[r] = s;
  }
}

template <int COLS2> __global__ void short2_row_sums(const short2 *a, int2 *out) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  int sx = 0, sy = 0;
  for (int j = 0; j < COLS2; j++) {
    short2 v = a[r * COLS2 + j];
    sx += v.x;
    sy += abs(v.y);
  }
  out[r] = make_int2(sx, sy);
}

int main(int argc, char **argv) {
  const size_t height = argInt(argc, argv, 1, 16384), width = argInt(argc, argv, 2, 4096);
  const unsigned hrows = argInt(argc, argv, 3, 8192), hcols2 = argInt(argc, argv, 4, 2048);
  int srows = argInt(argc, argv, 5, 8256);
  srows = (srows + 95) / 96 * 96;  // short2_row_sums has no guard
  const size_t ni = height * width, nh2 = size_t(hrows) * hcols2, ns = size_t(srows) * S2_COLS;

  std::vector<unsigned char> img(ni), thr(height);
  for (size_t k = 0; k < ni; k++) img[k] = (unsigned char)(1 + hashAt(12501, k) % 255);
  for (size_t y = 0; y < height; y++) thr[y] = (unsigned char)(16 + hashAt(12502, y) % 224);
  std::vector<__half> h(2 * nh2);
  std::vector<float> hf(2 * nh2);
  for (size_t k = 0; k < 2 * nh2; k++) {
    h[k] = __float2half(0.25f + float(hashAt(12503, k) >> 8) * (1.0f / 16777216.0f));
    hf[k] = __half2float(h[k]);
  }
  std::vector<float2> w(hcols2);
  for (unsigned j = 0; j < hcols2; j++) {
    w[j].x = 0.25f + float(hashAt(12504, 2 * j) >> 8) * (1.0f / 16777216.0f);
    w[j].y = 0.25f + float(hashAt(12504, 2 * j + 1) >> 8) * (1.0f / 16777216.0f);
  }
  std::vector<short2> a(ns);
  for (size_t k = 0; k < ns; k++) {
    uint32_t u = hashAt(12505, k);
    int vx = 1 + int(u % 3000), vy = 1 + int((u >> 12) % 3000);
    a[k].x = short((u >> 24) & 1 ? -vx : vx);
    a[k].y = short((u >> 25) & 1 ? -vy : vy);
  }

  unsigned char *d_img = toDevice(img), *d_thr = toDevice(thr);
  __half *d_h = toDevice(h);
  float2 *d_w = toDevice(w);
  short2 *d_a = toDevice(a);
  unsigned *d_sum, *d_cnt;
  float *d_hd;
  int *d_s2;
  CHECK(cudaMalloc(&d_sum, height * sizeof(unsigned)));
  CHECK(cudaMalloc(&d_cnt, height * sizeof(unsigned)));
  CHECK(cudaMalloc(&d_hd, hrows * sizeof(float)));
  CHECK(cudaMalloc(&d_s2, 2 * size_t(srows) * sizeof(int)));
  CHECK(cudaDeviceSynchronize());

  GpuTimer t;
  t.start();
  u8_above_thresh<<<blocksFor(long(height), 256), 256>>>(d_img, d_thr, d_sum, d_cnt, height, width);
  CHECK_LAUNCH();
  half2_row_dot<<<blocksFor(hrows, 128), 128>>>(reinterpret_cast<const __half2 *>(d_h), d_w, d_hd, hrows, hcols2);
  CHECK_LAUNCH();
  short2_row_sums<S2_COLS><<<srows / 96, 96>>>(d_a, reinterpret_cast<int2 *>(d_s2));
  CHECK_LAUNCH();
  float ms = t.stop();
  std::vector<unsigned> gsum = fromDevice(d_sum, height), gcnt = fromDevice(d_cnt, height);
  std::vector<float> ghd = fromDevice(d_hd, hrows);
  std::vector<int> gs2 = fromDevice(d_s2, 2 * size_t(srows));

  std::vector<unsigned> wsum(height), wcnt(height);
  for (size_t y = 0; y < height; y++) {
    unsigned s = 0, c = 0;
    for (size_t x = 0; x < width; x++) {
      unsigned char p = img[y * width + x];
      if (p > thr[y]) s += p, c++;
    }
    wsum[y] = s;
    wcnt[y] = c;
  }
  std::vector<float> whd(hrows);
  for (size_t r = 0; r < hrows; r++) {
    double s = 0;
    for (size_t j = 0; j < hcols2; j++)
      s += double(hf[2 * (r * hcols2 + j)]) * w[j].x + double(hf[2 * (r * hcols2 + j) + 1]) * w[j].y;
    whd[r] = float(s);
  }
  std::vector<int> ws2(2 * size_t(srows));
  for (size_t r = 0; r < size_t(srows); r++) {
    int sx = 0, sy = 0;
    for (size_t j = 0; j < S2_COLS; j++) {
      sx += a[r * S2_COLS + j].x;
      sy += std::abs(int(a[r * S2_COLS + j].y));
    }
    ws2[2 * r] = sx;
    ws2[2 * r + 1] = sy;
  }
  bool ok = checkExact("u8_above_thresh sum", gsum.data(), wsum.data(), height);
  ok = checkExact("u8_above_thresh count", gcnt.data(), wcnt.data(), height) && ok;
  ok = checkFloats("half2_row_dot", ghd.data(), whd.data(), hrows, 1e-3) && ok;
  ok = checkExact("short2_row_sums", gs2.data(), ws2.data(), ws2.size()) && ok;

  CHECK(cudaFree(d_img));
  CHECK(cudaFree(d_thr));
  CHECK(cudaFree(d_h));
  CHECK(cudaFree(d_w));
  CHECK(cudaFree(d_a));
  CHECK(cudaFree(d_sum));
  CHECK(cudaFree(d_cnt));
  CHECK(cudaFree(d_hd));
  CHECK(cudaFree(d_s2));
  return finish(ms, ok);
}
