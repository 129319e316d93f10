// h15_band_window_rows: rows walked over part of their length, the extent
// computed from the row index or read from arrays, over dense row-major
// storage. (1) band_mv, a banded operator kept in a full dense matrix
// (as a finite-difference / smoothing code does): float, `int` i and j,
// `for (j = max(0, i - b); j <= min(n - 1, i + b); ++j) s += A[i*n + j] *
// x[j]`, n 8192 (A 256 MB, every element set), half-bandwidth b 128 at run
// time, 256-thread blocks, `if (i < n)`; (2) window_mean_half, a per-row
// window of a `__half` spectrogram: `size_t` i, `int` j, `for (j =
// start[i]; j < start[i] + len[i]; ++j) s += __half2float(A[i*n + j])`,
// output s / len[i], 16384 x 4096 (128 MB of __half, values 0.25..1.25),
// windows of 64..4096 columns, 512-thread blocks; (3) window_sum_int4,
// 4-channel integer counters (int4 elements) summed over `[lo[i], hi[i])`:
// `unsigned` i and j, `for (j = lo[i]; j < hi[i]; ++j) { int4 v = A[i*n +
// j]; ... }`, an int4 out per row, 32768 rows of 256 int4 (128 MB, values
// +-1..1000, windows of 1..256), a grid-stride loop over rows (64 blocks
// of 128 threads, 4 rows a thread). Sizes: n1 b1 r2 n2 r3 n3 (argv).
// Timed: the 3 launches. Checked: (1), (2) rtol 1e-3 against double; (3)
// exact.
#include "../common.h"

#include <cuda_fp16.h>

#include <algorithm>

__global__ void band_mv(const float *A, const float *x, float *y, int n, int b) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float s = 0.0f;
    for (int j = max(0, i - b); j <= min(n - 1, i + b); ++j) s += A[i * n + j] * x[j];
    y[i] = s;
  }
}

__global__ void window_mean_half(const __half *A, const int *start, const int *len, float *out, size_t rows,
                                 size_t n) {
  size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  if (i < rows) {
    float s = 0.0f;
    for (int j = start[i]; j < start[i] + len[i]; ++j) s += __half2float(A[i * n + j]);
    out[i] = s / float(len[i]);
  }
}

__global__ void window_sum_int4(const int4 *A, const unsigned *lo, const unsigned *hi, int4 *out, unsigned rows,
                                unsigned n) {
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < rows; i += blockDim.x * gridDim.x) {
    int4 acc = make_int4(0, 0, 0, 0);
    for (unsigned j = lo[i]; j < hi[i]; ++j) {
      int4 v = A[i * n + j];
      acc.x += v.x;
      acc.y += v.y;
      acc.z += v.z;
      acc.w += v.w;
    }
    out[i] = acc;
  }
}

static int count1000(uint32_t h) {
  int v = 1 + int((h >> 8) % 1000u);
  return (h & 1u) ? -v : v;
}

int main(int argc, char **argv) {
  const int n1 = argInt(argc, argv, 1, 8192);
  const int b1 = argInt(argc, argv, 2, 128);
  const int r2 = argInt(argc, argv, 3, 16384);
  const int n2 = argInt(argc, argv, 4, 4096);  // >= 64
  const int r3 = argInt(argc, argv, 5, 32768);
  const int n3 = argInt(argc, argv, 6, 256);

  // (1) the whole dense matrix is filled; only the band is read.
  const size_t e1 = size_t(n1) * n1;
  std::vector<float> A1(e1), x1(n1);
  fillFloats(A1, 15601);
  fillFloats(x1, 15602);

  // (2) half values in [0.25, 1.25) (exactly representable after rounding once).
  const size_t e2 = size_t(r2) * n2;
  std::vector<__half> A2(e2);
  {
    std::vector<float> f(e2);
    fillFloats(f, 15603);
    for (size_t k = 0; k < e2; k++) A2[k] = __float2half(f[k]);
  }
  std::vector<int> start2(r2), len2(r2);
  for (size_t i = 0; i < size_t(r2); i++) {
    len2[i] = 64 + int(hashAt(15604, i) % uint32_t(n2 - 63));  // 64..n2
    start2[i] = int(hashAt(15605, i) % uint32_t(n2 - len2[i] + 1));
  }

  // (3) int4 counters and [lo, hi) windows of 1..n3.
  const size_t e3 = size_t(r3) * n3;
  std::vector<int4> A3(e3);
  for (size_t k = 0; k < e3; k++)
    A3[k] = make_int4(count1000(hashAt(15606, 4 * k)), count1000(hashAt(15606, 4 * k + 1)),
                      count1000(hashAt(15606, 4 * k + 2)), count1000(hashAt(15606, 4 * k + 3)));
  std::vector<unsigned> lo3(r3), hi3(r3);
  for (size_t i = 0; i < size_t(r3); i++) {
    unsigned len = 1 + hashAt(15607, i) % unsigned(n3);
    lo3[i] = hashAt(15608, i) % (unsigned(n3) - len + 1);
    hi3[i] = lo3[i] + len;
  }

  float *d_A1 = toDevice(A1), *d_x1 = toDevice(x1), *d_y1;
  CHECK(cudaMalloc(&d_y1, n1 * sizeof(float)));
  __half *d_A2 = toDevice(A2);
  int *d_start2 = toDevice(start2), *d_len2 = toDevice(len2);
  float *d_out2;
  CHECK(cudaMalloc(&d_out2, r2 * sizeof(float)));
  int4 *d_A3 = toDevice(A3), *d_out3;
  unsigned *d_lo3 = toDevice(lo3), *d_hi3 = toDevice(hi3);
  CHECK(cudaMalloc(&d_out3, r3 * sizeof(int4)));
  CHECK(cudaDeviceSynchronize());

  GpuTimer t;
  t.start();
  band_mv<<<blocksFor(n1, 256), 256>>>(d_A1, d_x1, d_y1, n1, b1);
  CHECK_LAUNCH();
  window_mean_half<<<blocksFor(r2, 512), 512>>>(d_A2, d_start2, d_len2, d_out2, size_t(r2), size_t(n2));
  CHECK_LAUNCH();
  window_sum_int4<<<64, 128>>>(d_A3, d_lo3, d_hi3, d_out3, unsigned(r3), unsigned(n3));
  CHECK_LAUNCH();
  float ms = t.stop();
  std::vector<float> gy1 = fromDevice(d_y1, n1);
  std::vector<float> gout2 = fromDevice(d_out2, r2);
  std::vector<int4> gout3 = fromDevice(d_out3, r3);

  // (1)
  std::vector<float> wy1(n1);
  for (int i = 0; i < n1; i++) {
    double s = 0;
    for (int j = std::max(0, i - b1); j <= std::min(n1 - 1, i + b1); ++j) s += double(A1[size_t(i) * n1 + j]) * x1[j];
    wy1[i] = float(s);
  }
  bool ok = checkFloats("band_mv", gy1.data(), wy1.data(), n1, 1e-3);

  // (2)
  std::vector<float> wout2(r2);
  for (size_t i = 0; i < size_t(r2); i++) {
    double s = 0;
    for (int j = start2[i]; j < start2[i] + len2[i]; ++j) s += double(__half2float(A2[i * n2 + j]));
    wout2[i] = float(s / len2[i]);
  }
  ok = checkFloats("window_mean_half", gout2.data(), wout2.data(), r2, 1e-3) && ok;

  // (3) compared as 4 ints a row.
  std::vector<int> g3(size_t(r3) * 4), w3(size_t(r3) * 4);
  for (size_t i = 0; i < size_t(r3); i++) {
    int s[4] = {0, 0, 0, 0};
    for (unsigned j = lo3[i]; j < hi3[i]; ++j) {
      const int4 &v = A3[i * n3 + j];
      s[0] += v.x, s[1] += v.y, s[2] += v.z, s[3] += v.w;
    }
    for (int c = 0; c < 4; c++) w3[4 * i + c] = s[c];
    g3[4 * i + 0] = gout3[i].x, g3[4 * i + 1] = gout3[i].y, g3[4 * i + 2] = gout3[i].z, g3[4 * i + 3] = gout3[i].w;
  }
  ok = checkExact("window_sum_int4", g3.data(), w3.data(), g3.size()) && ok;

  CHECK(cudaFree(d_A1));
  CHECK(cudaFree(d_x1));
  CHECK(cudaFree(d_y1));
  CHECK(cudaFree(d_A2));
  CHECK(cudaFree(d_start2));
  CHECK(cudaFree(d_len2));
  CHECK(cudaFree(d_out2));
  CHECK(cudaFree(d_A3));
  CHECK(cudaFree(d_lo3));
  CHECK(cudaFree(d_hi3));
  CHECK(cudaFree(d_out3));
  return finish(ms, ok);
}
