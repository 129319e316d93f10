// h14_guarded_rows: row walks with a branch on the loaded value inside the
// loop, a thread per row. (1) row_nanmean, pandas-style `nanmean` over the
// rows of a float feature matrix with missing values (about one in 16 is
// NaN): `size_t` r and c, `v = X[r*cols + c]; if (isnan(v)) continue; s +=
// v; n++;`, outputs count[r] and mean[r] = s / n, 16384 x 2048 (134 MB), a
// grid-stride loop over rows `for (r = tid; r < rows; r += stride)`
// launched with a thread per row, 256-thread blocks; (2) row_top2, the
// largest and second-largest value of each row and the column of the
// largest: `unsigned` r and c, `if (v > m1) { m2 = m1; m1 = v; i1 = c; }
// else if (v > m2) m2 = v;`, int values +-1..1000000, 8192 x 4096 (134 MB),
// 1024-thread blocks, early `return`; (3) adc_row_stats, one channel of
// 12-bit ADC samples stored as `unsigned short` a row, the row length a
// `#define` (NSAMP 4096): `int` ch and k, `if (v >= ADC_FULL) { nsat++;
// continue; } s += v;` (about one sample in 32 saturated at 4095), outputs
// the saturated count and the `unsigned` sum of the others, 16384 channels
// (134 MB), 64-thread blocks, `if (ch < channels)`. Sizes: xrows xcols
// mrows mcols channels (argv; NSAMP is compile-time). Each kernel launched
// once. Timed: the 3 launches. Checked: (1) counts exact, means rtol 1e-3
// against a double CPU sum; (2), (3) exact.
#include "../common.h"

#include <climits>

#define NSAMP 4096
#define ADC_FULL 4095

__global__ void row_nanmean(const float *X, float *mean, int *count, size_t rows, size_t cols) {
  for (size_t r = blockIdx.x * (size_t)blockDim.x + threadIdx.x; r < rows; r += (size_t)blockDim.x * gridDim.x) {
    float s = 0.0f;
    int n = 0;
    for (size_t c = 0; c < cols; c++) {
      float v = X[r * cols + c];
      if (isnan(v)) continue;
      s += v;
      n++;
    }
    count[r] = n;
    mean[r] = n > 0 ? s / n : NAN;
  }
}

__global__ void row_top2(const int *M, int *first, int *second, unsigned *argfirst, unsigned rows, unsigned cols) {
  unsigned r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  int m1 = INT_MIN, m2 = INT_MIN;
  unsigned i1 = 0;
  for (unsigned c = 0; c < cols; c++) {
    int v = M[r * cols + c];
    if (v > m1) {
      m2 = m1;
      m1 = v;
      i1 = c;
    } else if (v > m2) {
      m2 = v;
    }
  }
  first[r] = m1;
  second[r] = m2;
  argfirst[r] = i1;
}

__global__ void adc_row_stats(const unsigned short *S, unsigned *sum, int *nsat, int channels) {
  int ch = blockIdx.x * blockDim.x + threadIdx.x;
  if (ch < channels) {
    unsigned s = 0;
    int ns = 0;
    for (int k = 0; k < NSAMP; k++) {
      unsigned short v = S[ch * NSAMP + k];
      if (v >= ADC_FULL) {
        ns++;
        continue;
      }
      s += v;
    }
    sum[ch] = s;
    nsat[ch] = ns;
  }
}

int main(int argc, char **argv) {
  const int xrows = argInt(argc, argv, 1, 16384), xcols = argInt(argc, argv, 2, 2048);
  const int mrows = argInt(argc, argv, 3, 8192), mcols = argInt(argc, argv, 4, 4096);
  const int channels = argInt(argc, argv, 5, 16384);
  const size_t nx = size_t(xrows) * xcols, nm = size_t(mrows) * mcols, ns = size_t(channels) * NSAMP;

  std::vector<float> X(nx);
  fillFloats(X, 14301);
  for (size_t k = 0; k < nx; k++)
    if (hashAt(14302, k) % 16 == 0) X[k] = NAN;
  std::vector<int> M(nm);
  for (size_t k = 0; k < nm; k++) {
    uint32_t u = hashAt(14303, k);
    int v = 1 + int(u % 1000000u);
    M[k] = (u >> 24) & 1 ? -v : v;
  }
  std::vector<unsigned short> S(ns);
  for (size_t k = 0; k < ns; k++) {
    uint32_t u = hashAt(14304, k);
    S[k] = (u >> 27) == 0 ? (unsigned short)ADC_FULL : (unsigned short)(1 + (u % 4094u));  // 1..4094 or 4095
  }

  float *d_X = toDevice(X), *d_mean;
  int *d_cnt, *d_M = toDevice(M), *d_m1, *d_m2, *d_nsat;
  unsigned *d_i1, *d_sum;
  unsigned short *d_S = toDevice(S);
  CHECK(cudaMalloc(&d_mean, xrows * sizeof(float)));
  CHECK(cudaMalloc(&d_cnt, xrows * sizeof(int)));
  CHECK(cudaMalloc(&d_m1, mrows * sizeof(int)));
  CHECK(cudaMalloc(&d_m2, mrows * sizeof(int)));
  CHECK(cudaMalloc(&d_i1, mrows * sizeof(unsigned)));
  CHECK(cudaMalloc(&d_sum, channels * sizeof(unsigned)));
  CHECK(cudaMalloc(&d_nsat, channels * sizeof(int)));
  CHECK(cudaDeviceSynchronize());

  GpuTimer t;
  t.start();
  row_nanmean<<<blocksFor(xrows, 256), 256>>>(d_X, d_mean, d_cnt, size_t(xrows), size_t(xcols));
  CHECK_LAUNCH();
  row_top2<<<blocksFor(mrows, 1024), 1024>>>(d_M, d_m1, d_m2, d_i1, unsigned(mrows), unsigned(mcols));
  CHECK_LAUNCH();
  adc_row_stats<<<blocksFor(channels, 64), 64>>>(d_S, d_sum, d_nsat, channels);
  CHECK_LAUNCH();
  float ms = t.stop();
  std::vector<float> gmean = fromDevice(d_mean, xrows);
  std::vector<int> gcnt = fromDevice(d_cnt, xrows);
  std::vector<int> gm1 = fromDevice(d_m1, mrows), gm2 = fromDevice(d_m2, mrows);
  std::vector<unsigned> gi1 = fromDevice(d_i1, mrows);
  std::vector<unsigned> gsum = fromDevice(d_sum, channels);
  std::vector<int> gnsat = fromDevice(d_nsat, channels);

  std::vector<float> wmean(xrows);
  std::vector<int> wcnt(xrows);
  for (size_t r = 0; r < size_t(xrows); r++) {
    double s = 0;
    int n = 0;
    for (size_t c = 0; c < size_t(xcols); c++) {
      float v = X[r * xcols + c];
      if (std::isnan(v)) continue;
      s += v;
      n++;
    }
    wcnt[r] = n;
    wmean[r] = n > 0 ? float(s / n) : NAN;
  }
  bool ok = checkExact("row_nanmean count", gcnt.data(), wcnt.data(), xrows);
  ok = checkFloats("row_nanmean mean", gmean.data(), wmean.data(), xrows, 1e-3) && ok;

  std::vector<int> wm1(mrows), wm2(mrows);
  std::vector<unsigned> wi1(mrows);
  for (size_t r = 0; r < size_t(mrows); r++) {
    int m1 = INT_MIN, m2 = INT_MIN;
    unsigned i1 = 0;
    for (size_t c = 0; c < size_t(mcols); c++) {
      int v = M[r * mcols + c];
      if (v > m1) {
        m2 = m1;
        m1 = v;
        i1 = unsigned(c);
      } else if (v > m2) {
        m2 = v;
      }
    }
    wm1[r] = m1;
    wm2[r] = m2;
    wi1[r] = i1;
  }
  ok = checkExact("row_top2 first", gm1.data(), wm1.data(), mrows) && ok;
  ok = checkExact("row_top2 second", gm2.data(), wm2.data(), mrows) && ok;
  ok = checkExact("row_top2 argfirst", gi1.data(), wi1.data(), mrows) && ok;

  std::vector<unsigned> wsum(channels);
  std::vector<int> wnsat(channels);
  for (size_t ch = 0; ch < size_t(channels); ch++) {
    unsigned s = 0;
    int nsat = 0;
    for (size_t k = 0; k < NSAMP; k++) {
      unsigned short v = S[ch * NSAMP + k];
      if (v >= ADC_FULL)
        nsat++;
      else
        s += v;
    }
    wsum[ch] = s;
    wnsat[ch] = nsat;
  }
  ok = checkExact("adc_row_stats sum", gsum.data(), wsum.data(), channels) && ok;
  ok = checkExact("adc_row_stats nsat", gnsat.data(), wnsat.data(), channels) && ok;

  CHECK(cudaFree(d_X));
  CHECK(cudaFree(d_mean));
  CHECK(cudaFree(d_cnt));
  CHECK(cudaFree(d_M));
  CHECK(cudaFree(d_m1));
  CHECK(cudaFree(d_m2));
  CHECK(cudaFree(d_i1));
  CHECK(cudaFree(d_S));
  CHECK(cudaFree(d_sum));
  CHECK(cudaFree(d_nsat));
  return finish(ms, ok);
}
