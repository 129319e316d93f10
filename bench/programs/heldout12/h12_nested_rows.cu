// h12_nested_rows: row walks nested inside another loop of the same thread.
// (1) syrk_full_rows: a full syrk `C = alpha*A*A^T + beta*C`, a thread per row
// i walking every j in 0..n-1 and, for each, the two rows i and j of A:
// `for (j = 0; j < n; j++) { s = 0; for (k = 0; k < m; k++) s += A[i*m + k]*
// A[j*m + k]; C[i*n + j] = alpha*s + beta*C[i*n + j]; }`, float, `int`
// indices, n x m = 4096 x 64 (C 67 MB), 128-thread blocks, `if (i < n)`;
// (2) syrk_lower_rows: the lower-triangular variant `j <= i` in double,
// `size_t` indices, n2 x m2 = 3072 x 64 (C2 75 MB, the lower half written),
// 64-thread blocks launched without a guard (n2 rounded up to a multiple of
// 64); (3) gemv_batched: a thread per row looping over B batches and walking
// its row in each: `for (b = 0; b < B; b++) { s = 0; for (j = 0; j < cols;
// j++) s += A[(b*rows + i)*cols + j]*x[b*cols + j]; y[b*rows + i] = s; }`,
// float, `unsigned` indices (B*rows*cols must stay below 2^32), 8 x 4096 x
// 1024 (134 MB), 96-thread blocks; (4) rowdot_gridstride: a grid-stride loop
// over rows `for (i = tid; i < rows; i += stride)` with a row dot inside,
// `size_t` indices, 32768 x 1024 float (134 MB), 24 blocks of 512 threads
// (each thread 2 or 3 rows). Sizes: n m n2 m2 B rows cols srows scols
// (argv). Each kernel launched once. Timed: the 4 launches. Checked: (1),
// (3), (4) against double CPU sums, relative tolerance 1e-3 (fma
// contraction; positive inputs); (2) relative tolerance 1e-9, the upper
// triangle of C2 exactly as it was.
#include "../common.h"

__global__ void syrk_full_rows(const float *A, float *C, int n, int m, float alpha, float beta) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    for (int j = 0; j < n; j++) {
      float s = 0.0f;
      for (int k = 0; k < m; k++) s += A[i * m + k] * A[j * m + k];
      C[i * n + j] = alpha * s + beta * C[i * n + j];
    }
  }
}

__global__ void syrk_lower_rows(const double *A, double *C, size_t n, size_t m, double alpha, double beta) {
  size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  for (size_t j = 0; j <= i; j++) {
    double s = 0.0;
    for (size_t k = 0; k < m; k++) s += A[i * m + k] * A[j * m + k];
    C[i * n + j] = alpha * s + beta * C[i * n + j];
  }
}

__global__ void gemv_batched(const float *A, const float *x, float *y, unsigned batches, unsigned rows,
                             unsigned cols) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < rows) {
    for (unsigned b = 0; b < batches; b++) {
      float s = 0.0f;
      for (unsigned j = 0; j < cols; j++) s += A[(b * rows + i) * cols + j] * x[b * cols + j];
      y[b * rows + i] = s;
    }
  }
}

__global__ void rowdot_gridstride(const float *A, const float *x, float *y, size_t rows, size_t cols) {
  size_t stride = size_t(gridDim.x) * blockDim.x;
  for (size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < rows; i += stride) {
    float s = 0.0f;
    for (size_t j = 0; j < cols; j++) s += A[i * cols + j] * x[j];
    y[i] = s;
  }
}

static bool checkDoubles(const char *what, const double *got, const double *want, size_t n, double rtol) {
  size_t bad = 0, first = 0;
  for (size_t i = 0; i < n; ++i)
    if (!closeEnough(got[i], want[i], rtol, 1e-12)) {
      if (!bad) first = i;
      ++bad;
    }
  if (bad)
    std::fprintf(stderr, "%s: %zu of %zu differ; first at %zu: got %.17g want %.17g\n", what, bad, n, first,
                 got[first], want[first]);
  return bad == 0;
}

int main(int argc, char **argv) {
  const int n = argInt(argc, argv, 1, 4096), m = argInt(argc, argv, 2, 64);
  size_t n2 = argInt(argc, argv, 3, 3072);
  const size_t m2 = argInt(argc, argv, 4, 64);
  n2 = (n2 + 63) / 64 * 64;  // syrk_lower_rows has no guard
  const unsigned B = argInt(argc, argv, 5, 8), rows = argInt(argc, argv, 6, 4096), cols = argInt(argc, argv, 7, 1024);
  const size_t srows = argInt(argc, argv, 8, 32768), scols = argInt(argc, argv, 9, 1024);
  const float alpha = 1.5f, beta = 0.5f;
  const double alpha2 = 0.75, beta2 = 1.25;

  std::vector<float> A(size_t(n) * m), C(size_t(n) * n);
  fillFloats(A, 12101);
  fillFloats(C, 12102);
  std::vector<double> A2(n2 * m2), C2(n2 * n2);
  for (size_t k = 0; k < A2.size(); k++) A2[k] = 0.25 + double(hashAt(12103, k)) * (1.0 / 4294967296.0);
  for (size_t k = 0; k < C2.size(); k++) C2[k] = 0.5 + double(hashAt(12104, k)) * (1.0 / 4294967296.0);
  std::vector<float> BA(size_t(B) * rows * cols), bx(size_t(B) * cols);
  fillFloats(BA, 12105);
  fillFloats(bx, 12106);
  std::vector<float> S(srows * scols), sx(scols);
  fillFloats(S, 12107);
  fillFloats(sx, 12108);

  float *d_A = toDevice(A), *d_C = toDevice(C), *d_BA = toDevice(BA), *d_bx = toDevice(bx), *d_by;
  float *d_S = toDevice(S), *d_sx = toDevice(sx), *d_sy;
  double *d_A2 = toDevice(A2), *d_C2 = toDevice(C2);
  CHECK(cudaMalloc(&d_by, size_t(B) * rows * sizeof(float)));
  CHECK(cudaMalloc(&d_sy, srows * sizeof(float)));
  CHECK(cudaDeviceSynchronize());

  GpuTimer t;
  t.start();
  syrk_full_rows<<<blocksFor(n, 128), 128>>>(d_A, d_C, n, m, alpha, beta);
  CHECK_LAUNCH();
  syrk_lower_rows<<<unsigned(n2 / 64), 64>>>(d_A2, d_C2, n2, m2, alpha2, beta2);
  CHECK_LAUNCH();
  gemv_batched<<<blocksFor(rows, 96), 96>>>(d_BA, d_bx, d_by, B, rows, cols);
  CHECK_LAUNCH();
  rowdot_gridstride<<<24, 512>>>(d_S, d_sx, d_sy, srows, scols);
  CHECK_LAUNCH();
  float ms = t.stop();
  std::vector<float> gC = fromDevice(d_C, C.size());
  std::vector<double> gC2 = fromDevice(d_C2, C2.size());
  std::vector<float> gby = fromDevice(d_by, size_t(B) * rows), gsy = fromDevice(d_sy, srows);

  std::vector<float> wC(C.size());
  for (size_t i = 0; i < size_t(n); i++) {
    const float *ai = &A[i * m];
    for (size_t j = 0; j < size_t(n); j++) {
      const float *aj = &A[j * m];
      double s = 0;
      for (int k = 0; k < m; k++) s += double(ai[k]) * aj[k];
      wC[i * n + j] = float(double(alpha) * s + double(beta) * C[i * n + j]);
    }
  }
  std::vector<double> wC2(C2);
  for (size_t i = 0; i < n2; i++)
    for (size_t j = 0; j <= i; j++) {
      double s = 0;
      for (size_t k = 0; k < m2; k++) s += A2[i * m2 + k] * A2[j * m2 + k];
      wC2[i * n2 + j] = alpha2 * s + beta2 * C2[i * n2 + j];
    }
  std::vector<float> wby(size_t(B) * rows), wsy(srows);
  for (size_t b = 0; b < B; b++)
    for (size_t i = 0; i < rows; i++) {
      double s = 0;
      const float *row = &BA[(b * rows + i) * cols];
      for (size_t j = 0; j < cols; j++) s += double(row[j]) * bx[b * cols + j];
      wby[b * rows + i] = float(s);
    }
  for (size_t i = 0; i < srows; i++) {
    double s = 0;
    for (size_t j = 0; j < scols; j++) s += double(S[i * scols + j]) * sx[j];
    wsy[i] = float(s);
  }
  bool ok = checkFloats("syrk_full_rows", gC.data(), wC.data(), wC.size(), 1e-3);
  ok = checkDoubles("syrk_lower_rows", gC2.data(), wC2.data(), wC2.size(), 1e-9) && ok;
  ok = checkFloats("gemv_batched", gby.data(), wby.data(), wby.size(), 1e-3) && ok;
  ok = checkFloats("rowdot_gridstride", gsy.data(), wsy.data(), srows, 1e-3) && ok;

  float *fb[] = {d_A, d_C, d_BA, d_bx, d_by, d_S, d_sx, d_sy};
  for (float *p : fb) CHECK(cudaFree(p));
  CHECK(cudaFree(d_A2));
  CHECK(cudaFree(d_C2));
  return finish(ms, ok);
}
