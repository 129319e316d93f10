// h16_bytes_rows: data preprocessing over rows of bytes, and per-row
// polynomials, a thread per row. (1) hist8_rows, an 8-bin intensity
// histogram of each image row: uint8 pixels, `int` i and j, the row length
// at run time, the counts in a per-thread register array
// `unsigned h[8]`, `h[img[i*n + j] >> 5]++` under `#pragma unroll 4`, then
// the 8 counts written to `hist[i*8 + b]`, 16384 x 8192 pixels 1..255 with
// a per-row brightness (128 MB), 256-thread blocks, `if (i < rows)`; (2)
// run_stats, run-length statistics of a segmentation scanline: uint8
// labels 1..5 in runs of 1..64, `long long` i and row length, a pointer
// walk `while (p < e) { uint8_t v = *p++; if (v != prev) ... }` counting
// the runs and the longest run, 16384 x 8192 labels (128 MB), 1024-thread
// blocks, early `return`; (3) horner_rows<K, M>, per-row calibration
// polynomials in double: the coefficients a row of K (template, HK 128),
// evaluated by Horner at M (template, HM 8) points kept in registers,
// `for (int k = K - 1; k >= 0; --k) { c = coef[i*K + k]; acc[m] =
// acc[m]*x[m] + c; }` with `#pragma unroll` over m, `unsigned` i, 65536
// rows (64 MB), coefficients +-0.25..1.25, points in (-0.95, 0.95),
// 384-thread blocks, `if (i < rows)`. Sizes: r1 n1 r2 n2 r3 (argv; HK and
// HM are compile-time). Timed: the 3 launches. Checked: (1) and (2)
// exactly; (3) 1e-9 against double (floor 1).
#include "../common.h"
#include <algorithm>

#define HK 128
#define HM 8

__global__ void hist8_rows(const uint8_t *img, unsigned *hist, int rows, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < rows) {
    unsigned h[8] = {0, 0, 0, 0, 0, 0, 0, 0};
#pragma unroll 4
    for (int j = 0; j < n; j++) h[img[i * n + j] >> 5]++;
    for (int b = 0; b < 8; b++) hist[i * 8 + b] = h[b];
  }
}

__global__ void run_stats(const uint8_t *seg, int *nruns, int *longest, long long rows, long long n) {
  long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (i >= rows) return;
  const uint8_t *p = seg + i * n, *e = p + n;
  uint8_t prev = *p++;
  int runs = 1, cur = 1, best = 1;
  while (p < e) {
    uint8_t v = *p++;
    if (v != prev) {
      runs++;
      cur = 1;
      prev = v;
    } else {
      cur++;
    }
    if (cur > best) best = cur;
  }
  nruns[i] = runs;
  longest[i] = best;
}

template <int K, int M>
__global__ void horner_rows(const double *coef, const double *xs, double *y, unsigned rows) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < rows) {
    double x[M], acc[M];
#pragma unroll
    for (int m = 0; m < M; m++) {
      x[m] = xs[m];
      acc[m] = 0.0;
    }
    for (int k = K - 1; k >= 0; --k) {
      double c = coef[i * K + k];
#pragma unroll
      for (int m = 0; m < M; m++) acc[m] = acc[m] * x[m] + c;
    }
#pragma unroll
    for (int m = 0; m < M; m++) y[i * M + m] = acc[m];
  }
}

static bool checkDoubles(const char *what, const double *got, const double *want, size_t n, double rtol,
                         double floor) {
  size_t bad = 0, first = 0;
  for (size_t i = 0; i < n; ++i)
    if (!closeEnough(got[i], want[i], rtol, floor)) {
      if (!bad) first = i;
      ++bad;
    }
  if (bad)
    std::fprintf(stderr, "%s: %zu of %zu differ; first at %zu: got %.17g want %.17g\n", what, bad, n, first,
                 got[first], want[first]);
  return bad == 0;
}

int main(int argc, char **argv) {
  const int r1 = argInt(argc, argv, 1, 16384);
  const int n1 = argInt(argc, argv, 2, 8192);
  const long long r2 = argInt(argc, argv, 3, 16384);
  const long long n2 = argInt(argc, argv, 4, 8192);
  const int r3 = argInt(argc, argv, 5, 65536);

  // (1) pixels 1..255: a per-row brightness plus noise.
  const size_t e1 = size_t(r1) * n1;
  std::vector<uint8_t> img(e1);
  for (size_t i = 0; i < size_t(r1); i++) {
    int base = int(hashAt(16601, i) % 192u);
    for (size_t j = 0; j < size_t(n1); j++) {
      int v = base + int(hashAt(16602, i * n1 + j) % 64u) + 1;
      img[i * n1 + j] = uint8_t(v > 255 ? 255 : v);
    }
  }

  // (2) labels 1..5 in runs of 1..64 (a new run may repeat the label).
  const size_t e2 = size_t(r2) * size_t(n2);
  std::vector<uint8_t> seg(e2);
  for (size_t i = 0; i < size_t(r2); i++) {
    size_t j = 0, run = 0;
    uint8_t lab = 1;
    while (j < size_t(n2)) {
      uint32_t h = hashAt(16603, i * 65536 + run++);
      lab = uint8_t(1 + (h >> 8) % 5u);
      size_t len = 1 + h % 64u;
      for (size_t k = 0; k < len && j < size_t(n2); k++) seg[i * n2 + j++] = lab;
    }
  }

  // (3)
  const size_t e3 = size_t(r3) * HK;
  std::vector<double> coef(e3), xs(HM);
  for (size_t k = 0; k < e3; k++)
    coef[k] = ((hashAt(16604, k) & 1u) ? -1.0 : 1.0) * (0.25 + (hashAt(16605, k) >> 8) * (1.0 / 16777216.0));
  for (int m = 0; m < HM; m++) xs[m] = -0.95 + 1.9 * (m + 0.5) / HM;

  uint8_t *d_img = toDevice(img), *d_seg = toDevice(seg);
  unsigned *d_hist;
  CHECK(cudaMalloc(&d_hist, size_t(r1) * 8 * sizeof(unsigned)));
  int *d_nruns, *d_longest;
  CHECK(cudaMalloc(&d_nruns, size_t(r2) * sizeof(int)));
  CHECK(cudaMalloc(&d_longest, size_t(r2) * sizeof(int)));
  double *d_coef = toDevice(coef), *d_xs = toDevice(xs), *d_y;
  CHECK(cudaMalloc(&d_y, size_t(r3) * HM * sizeof(double)));
  CHECK(cudaDeviceSynchronize());

  GpuTimer t;
  t.start();
  hist8_rows<<<blocksFor(r1, 256), 256>>>(d_img, d_hist, r1, n1);
  CHECK_LAUNCH();
  run_stats<<<blocksFor(long(r2), 1024), 1024>>>(d_seg, d_nruns, d_longest, r2, n2);
  CHECK_LAUNCH();
  horner_rows<HK, HM><<<blocksFor(r3, 384), 384>>>(d_coef, d_xs, d_y, unsigned(r3));
  CHECK_LAUNCH();
  float ms = t.stop();
  std::vector<unsigned> ghist = fromDevice(d_hist, size_t(r1) * 8);
  std::vector<int> gnruns = fromDevice(d_nruns, size_t(r2));
  std::vector<int> glongest = fromDevice(d_longest, size_t(r2));
  std::vector<double> gy = fromDevice(d_y, size_t(r3) * HM);

  // (1)
  std::vector<unsigned> whist(size_t(r1) * 8, 0u);
  for (size_t i = 0; i < size_t(r1); i++)
    for (size_t j = 0; j < size_t(n1); j++) whist[i * 8 + img[i * n1 + j] / 32]++;
  bool ok = checkExact("hist8_rows", ghist.data(), whist.data(), size_t(r1) * 8);

  // (2): runs as maximal stretches of equal labels, found by their ends.
  std::vector<int> wnruns(r2), wlongest(r2);
  for (size_t i = 0; i < size_t(r2); i++) {
    const uint8_t *row = &seg[i * n2];
    int runs = 0, best = 0;
    size_t start = 0;
    for (size_t j = 0; j < size_t(n2); j++)
      if (j + 1 == size_t(n2) || row[j + 1] != row[j]) {
        runs++;
        best = std::max(best, int(j + 1 - start));
        start = j + 1;
      }
    wnruns[i] = runs;
    wlongest[i] = best;
  }
  ok = checkExact("run_stats runs", gnruns.data(), wnruns.data(), size_t(r2)) && ok;
  ok = checkExact("run_stats longest", glongest.data(), wlongest.data(), size_t(r2)) && ok;

  // (3): the power sum, not Horner.
  std::vector<double> wy(size_t(r3) * HM);
  for (size_t i = 0; i < size_t(r3); i++)
    for (int m = 0; m < HM; m++) {
      double s = 0, p = 1;
      for (int k = 0; k < HK; k++) {
        s += coef[i * HK + k] * p;
        p *= xs[m];
      }
      wy[i * HM + m] = s;
    }
  ok = checkDoubles("horner_rows", gy.data(), wy.data(), size_t(r3) * HM, 1e-9, 1.0) && ok;

  CHECK(cudaFree(d_img));
  CHECK(cudaFree(d_seg));
  CHECK(cudaFree(d_hist));
  CHECK(cudaFree(d_nruns));
  CHECK(cudaFree(d_longest));
  CHECK(cudaFree(d_coef));
  CHECK(cudaFree(d_xs));
  CHECK(cudaFree(d_y));
  return finish(ms, ok);
}
