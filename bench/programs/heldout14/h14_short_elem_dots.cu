// h14_short_elem_dots: rows of 8- and 16-bit elements dotted or compared
// into 32-bit or float accumulators, a thread per row. (1) gemv_s8, an int8
// quantized linear layer: int8 weights (+-1..127) times int8 activations
// (+-1..127) into an `int` accumulator, `int` r and k, `acc +=
// int(W[r*K + k])*int(a[k])`, then dequantized `y[r] = float(acc)*
// wscale[r]*ascale`, 32768 x 2048 (67 MB), 256-thread blocks, `if (r <
// rows)`; (2) sad_rows, the sum of absolute differences between matching
// rows of two uint8 frames (motion estimation / frame differencing):
// `long` r and c, `s += abs(int(cur[r*width + c]) - int(ref[r*width + c]))`
// into `unsigned`, ref = cur plus noise in [-12, 12] clamped to 1..255,
// 16384 x 4096 (67 MB each), 128-thread blocks, early `return`; (3)
// gemv_half, `__half` matrix times a `__half` vector with a float
// accumulator: `size_t` r and c, `s += __half2float(A[r*cols + c])*
// __half2float(x[c])`, 16384 x 2048 (67 MB), 512-thread blocks, `if (r <
// rows)`. Sizes: wrows K frows width hrows hcols (argv). Each kernel
// launched once. Timed: the 3 launches. Checked: (1) exact (integer
// accumulator; the two float multiplies done the same way on the CPU); (2)
// exact; (3) rtol 1e-3 against a double CPU sum of the same half values.
#include "../common.h"

#include <cuda_fp16.h>

__global__ void gemv_s8(const int8_t *W, const int8_t *a, const float *wscale, float ascale, float *y, int rows,
                        int K) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < rows) {
    int acc = 0;
    for (int k = 0; k < K; k++) acc += int(W[r * K + k]) * int(a[k]);
    y[r] = float(acc) * wscale[r] * ascale;
  }
}

__global__ void sad_rows(const uint8_t *cur, const uint8_t *ref, unsigned *sad, long rows, long width) {
  long r = (long)blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  unsigned s = 0;
  for (long c = 0; c < width; c++) s += abs(int(cur[r * width + c]) - int(ref[r * width + c]));
  sad[r] = s;
}

__global__ void gemv_half(const __half *A, const __half *x, float *y, size_t rows, size_t cols) {
  size_t r = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (r < rows) {
    float s = 0.0f;
    for (size_t c = 0; c < cols; c++) s += __half2float(A[r * cols + c]) * __half2float(x[c]);
    y[r] = s;
  }
}

int main(int argc, char **argv) {
  const int wrows = argInt(argc, argv, 1, 32768), K = argInt(argc, argv, 2, 2048);
  const int frows = argInt(argc, argv, 3, 16384), width = argInt(argc, argv, 4, 4096);
  const int hrows = argInt(argc, argv, 5, 16384), hcols = argInt(argc, argv, 6, 2048);
  const size_t nw = size_t(wrows) * K, nf = size_t(frows) * width, nh = size_t(hrows) * hcols;
  const float ascale = 0.0078125f;

  std::vector<int8_t> W(nw), a(K);
  for (size_t k = 0; k < nw; k++) {
    uint32_t u = hashAt(14401, k);
    int v = 1 + int(u % 127u);
    W[k] = int8_t((u >> 16) & 1 ? -v : v);
  }
  for (int k = 0; k < K; k++) {
    uint32_t u = hashAt(14402, k);
    int v = 1 + int(u % 127u);
    a[k] = int8_t((u >> 16) & 1 ? -v : v);
  }
  std::vector<float> wscale(wrows);
  fillFloats(wscale, 14403, 0.001f, 0.01f);
  std::vector<uint8_t> cur(nf), ref(nf);
  for (size_t k = 0; k < nf; k++) {
    int p = 1 + int(hashAt(14404, k) % 255u);
    int q = p + int(hashAt(14405, k) % 25u) - 12;
    cur[k] = uint8_t(p);
    ref[k] = uint8_t(q < 1 ? 1 : q > 255 ? 255 : q);
  }
  std::vector<__half> A(nh), x(hcols);
  std::vector<float> Af(nh), xf(hcols);
  for (size_t k = 0; k < nh; k++) {
    A[k] = __float2half(0.25f + float(hashAt(14406, k) >> 8) * (1.0f / 16777216.0f));
    Af[k] = __half2float(A[k]);
  }
  for (int k = 0; k < hcols; k++) {
    x[k] = __float2half(0.25f + float(hashAt(14407, k) >> 8) * (1.0f / 16777216.0f));
    xf[k] = __half2float(x[k]);
  }

  int8_t *d_W = toDevice(W), *d_a = toDevice(a);
  float *d_wscale = toDevice(wscale), *d_y8, *d_yh;
  uint8_t *d_cur = toDevice(cur), *d_ref = toDevice(ref);
  unsigned *d_sad;
  __half *d_A = toDevice(A), *d_x = toDevice(x);
  CHECK(cudaMalloc(&d_y8, wrows * sizeof(float)));
  CHECK(cudaMalloc(&d_sad, frows * sizeof(unsigned)));
  CHECK(cudaMalloc(&d_yh, hrows * sizeof(float)));
  CHECK(cudaDeviceSynchronize());

  GpuTimer t;
  t.start();
  gemv_s8<<<blocksFor(wrows, 256), 256>>>(d_W, d_a, d_wscale, ascale, d_y8, wrows, K);
  CHECK_LAUNCH();
  sad_rows<<<blocksFor(frows, 128), 128>>>(d_cur, d_ref, d_sad, long(frows), long(width));
  CHECK_LAUNCH();
  gemv_half<<<blocksFor(hrows, 512), 512>>>(d_A, d_x, d_yh, size_t(hrows), size_t(hcols));
  CHECK_LAUNCH();
  float ms = t.stop();
  std::vector<float> gy8 = fromDevice(d_y8, wrows);
  std::vector<unsigned> gsad = fromDevice(d_sad, frows);
  std::vector<float> gyh = fromDevice(d_yh, hrows);

  std::vector<float> wy8(wrows);
  for (size_t r = 0; r < size_t(wrows); r++) {
    int acc = 0;
    for (size_t k = 0; k < size_t(K); k++) acc += int(W[r * K + k]) * int(a[k]);
    wy8[r] = float(acc) * wscale[r] * ascale;
  }
  bool ok = checkExact("gemv_s8", gy8.data(), wy8.data(), wrows);

  std::vector<unsigned> wsad(frows);
  for (size_t r = 0; r < size_t(frows); r++) {
    unsigned s = 0;
    for (size_t c = 0; c < size_t(width); c++) s += unsigned(std::abs(int(cur[r * width + c]) - int(ref[r * width + c])));
    wsad[r] = s;
  }
  ok = checkExact("sad_rows", gsad.data(), wsad.data(), frows) && ok;

  std::vector<float> wyh(hrows);
  for (size_t r = 0; r < size_t(hrows); r++) {
    double s = 0;
    for (size_t c = 0; c < size_t(hcols); c++) s += double(Af[r * hcols + c]) * xf[c];
    wyh[r] = float(s);
  }
  ok = checkFloats("gemv_half", gyh.data(), wyh.data(), hrows, 1e-3) && ok;

  CHECK(cudaFree(d_W));
  CHECK(cudaFree(d_a));
  CHECK(cudaFree(d_wscale));
  CHECK(cudaFree(d_y8));
  CHECK(cudaFree(d_cur));
  CHECK(cudaFree(d_ref));
  CHECK(cudaFree(d_sad));
  CHECK(cudaFree(d_A));
  CHECK(cudaFree(d_x));
  CHECK(cudaFree(d_yh));
  return finish(ms, ok);
}
