// h12_row_reductions: row-wise reductions other than a plain sum, a thread
// per row. (1) row_argmax: the row's maximum and its first index, a branch
// in the loop: `v = A[i*cols + j]; if (v > best) { best = v; bj = j; }`,
// float, `int` indices, 16384 x 2048 (134 MB), 64-thread blocks, `if (i <
// rows)`; (2) row_l2_normalize: two walks of the same row, the first `ss +=
// v*v`, then `inv = 1.0 / sqrt(ss)` and the second `B[i*cols + j] =
// A[i*cols + j]*inv`, double, `size_t` indices, 4096 x 2048 (67 MB each of A
// and B), 128-thread blocks, `if (i < rows)`; (3) row_softmax: three walks,
// `m = fmaxf(m, X[..])`, then `s += expf(X[..] - m)`, then `Y[..] =
// expf(X[..] - m)*inv`, float, `unsigned` indices, 8192 x 2048 with inputs in
// [0.25, 8.25) (67 MB each of X and Y), 256-thread blocks, `if (r < rows)`.
// Sizes: arows acols nrows ncols srows scols (argv). Each kernel launched
// once. Timed: the 3 launches. Checked: (1) exact (value and index); (2)
// relative tolerance 1e-9 (B and the norms; fma contraction); (3) against a
// double CPU softmax, relative tolerance 1e-3 (expf's few ulps, fma).
#include "../common.h"

__global__ void row_argmax(const float *A, float *maxv, int *arg, int rows, int cols) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < rows) {
    float best = A[i * cols];
    int bj = 0;
    for (int j = 1; j < cols; j++) {
      float v = A[i * cols + j];
      if (v > best) {
        best = v;
        bj = j;
      }
    }
    maxv[i] = best;
    arg[i] = bj;
  }
}

__global__ void row_l2_normalize(const double *A, double *B, double *norms, size_t rows, size_t cols) {
  size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < rows) {
    double ss = 0.0;
    for (size_t j = 0; j < cols; j++) {
      double v = A[i * cols + j];
      ss += v * v;
    }
    double nrm = sqrt(ss);
    double inv = 1.0 / nrm;
    for (size_t j = 0; j < cols; j++) B[i * cols + j] = A[i * cols + j] * inv;
    norms[i] = nrm;
  }
}

__global__ void row_softmax(const float *X, float *Y, unsigned rows, unsigned cols) {
  unsigned r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < rows) {
    float m = -INFINITY;
    for (unsigned j = 0; j < cols; j++) m = fmaxf(m, X[r * cols + j]);
    float s = 0.0f;
    for (unsigned j = 0; j < cols; j++) s += expf(X[r * cols + j] - m);
    float inv = 1.0f / s;
    for (unsigned j = 0; j < cols; j++) Y[r * cols + j] = expf(X[r * cols + j] - m) * inv;
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
  const int arows = argInt(argc, argv, 1, 16384), acols = argInt(argc, argv, 2, 2048);
  const size_t nrows = argInt(argc, argv, 3, 4096), ncols = argInt(argc, argv, 4, 2048);
  const unsigned srows = argInt(argc, argv, 5, 8192), scols = argInt(argc, argv, 6, 2048);
  const size_t na = size_t(arows) * acols, nn = nrows * ncols, ns = size_t(srows) * scols;

  std::vector<float> A(na), X(ns);
  fillFloats(A, 12601);
  fillFloats(X, 12602, 0.25f, 8.25f);
  std::vector<double> D(nn);
  for (size_t k = 0; k < nn; k++) D[k] = 0.25 + double(hashAt(12603, k)) * (1.0 / 4294967296.0);

  float *d_A = toDevice(A), *d_maxv, *d_X = toDevice(X), *d_Y;
  int *d_arg;
  double *d_D = toDevice(D), *d_B, *d_norm;
  CHECK(cudaMalloc(&d_maxv, arows * sizeof(float)));
  CHECK(cudaMalloc(&d_arg, arows * sizeof(int)));
  CHECK(cudaMalloc(&d_B, nn * sizeof(double)));
  CHECK(cudaMalloc(&d_norm, nrows * sizeof(double)));
  CHECK(cudaMalloc(&d_Y, ns * sizeof(float)));
  CHECK(cudaDeviceSynchronize());

  GpuTimer t;
  t.start();
  row_argmax<<<blocksFor(arows, 64), 64>>>(d_A, d_maxv, d_arg, arows, acols);
  CHECK_LAUNCH();
  row_l2_normalize<<<blocksFor(long(nrows), 128), 128>>>(d_D, d_B, d_norm, nrows, ncols);
  CHECK_LAUNCH();
  row_softmax<<<blocksFor(srows, 256), 256>>>(d_X, d_Y, srows, scols);
  CHECK_LAUNCH();
  float ms = t.stop();
  std::vector<float> gmaxv = fromDevice(d_maxv, arows);
  std::vector<int> garg = fromDevice(d_arg, arows);
  std::vector<double> gB = fromDevice(d_B, nn), gnorm = fromDevice(d_norm, nrows);
  std::vector<float> gY = fromDevice(d_Y, ns);

  std::vector<float> wmaxv(arows);
  std::vector<int> warg(arows);
  for (size_t i = 0; i < size_t(arows); i++) {
    float best = A[i * acols];
    int bj = 0;
    for (int j = 1; j < acols; j++)
      if (A[i * acols + j] > best) best = A[i * acols + j], bj = j;
    wmaxv[i] = best;
    warg[i] = bj;
  }
  std::vector<double> wB(nn), wnorm(nrows);
  for (size_t i = 0; i < nrows; i++) {
    double ss = 0;
    for (size_t j = 0; j < ncols; j++) ss += D[i * ncols + j] * D[i * ncols + j];
    double nrm = std::sqrt(ss);
    for (size_t j = 0; j < ncols; j++) wB[i * ncols + j] = D[i * ncols + j] / nrm;
    wnorm[i] = nrm;
  }
  std::vector<float> wY(ns);
  std::vector<double> e(scols);
  for (size_t r = 0; r < srows; r++) {
    double m = X[r * scols];
    for (size_t j = 1; j < scols; j++) m = std::fmax(m, double(X[r * scols + j]));
    double s = 0;
    for (size_t j = 0; j < scols; j++) s += (e[j] = std::exp(double(X[r * scols + j]) - m));
    for (size_t j = 0; j < scols; j++) wY[r * scols + j] = float(e[j] / s);
  }
  bool ok = checkExact("row_argmax value", gmaxv.data(), wmaxv.data(), arows);
  ok = checkExact("row_argmax index", garg.data(), warg.data(), arows) && ok;
  ok = checkDoubles("row_l2_normalize rows", gB.data(), wB.data(), nn, 1e-9) && ok;
  ok = checkDoubles("row_l2_normalize norms", gnorm.data(), wnorm.data(), nrows, 1e-9) && ok;
  ok = checkFloats("row_softmax", gY.data(), wY.data(), ns, 1e-3, 1e-12) && ok;

  float *fb[] = {d_A, d_maxv, d_X, d_Y};
  for (float *p : fb) CHECK(cudaFree(p));
  CHECK(cudaFree(d_arg));
  double *db[] = {d_D, d_B, d_norm};
  for (double *p : db) CHECK(cudaFree(p));
  return finish(ms, ok);
}
