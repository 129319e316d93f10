// h14_multi_matrix_rows: two and four matrices walked in the same loop, a
// thread per row, several accumulators and several outputs. (1)
// cosine_rows, embedding similarity between matching rows of two float
// matrices: `unsigned` i and j, `a = A[i*cols + j]; b = B[i*cols + j]; ab +=
// a*b; aa += a*a; bb += b*b;`, then normA[i] = sqrtf(aa), normB[i] =
// sqrtf(bb), cosv[i] = ab / (normA*normB) (three outputs), A in [0.25, 1.25),
// B in [-0.5, 1), 8192 x 2048 each (67 MB each), 512-thread blocks, `if (i <
// rows)`; (2) regress_rows, an OLS fit of each asset's return series on its
// benchmark series (finance "beta"): `long` i and t, two double matrices Y
// and X, four accumulators `sx += x; sy += y; sxx += x*x; sxy += x*y;`,
// then beta[i] = (T*sxy - sx*sy) / (T*sxx - sx*sx) and alpha[i] = (sy -
// beta*sx) / T, Y = 0.6 X + noise, 4096 assets x 2048 days (67 MB each),
// 96-thread blocks, `if (i < n)`; (3) zdotc_split<N>, conjugated complex dot
// products of matching rows held as separate real and imaginary planes
// (four float matrices in one loop): `int` i and j, row length a template
// parameter (N = 2048), `sr += xr*yr + xi*yi; si += xr*yi - xi*yr;`,
// outputs re[i], im[i], 8192 rows (67 MB a plane, 268 MB), 1024-thread
// blocks, early `return`. Sizes: crows ccols n T zrows (argv; N is
// compile-time). Each kernel launched once. Timed: the 3 launches.
// Checked against double CPU loops: (1) rtol 1e-3 (cosv floor 1e-2); (2)
// rtol 1e-9; (3) rtol 1e-3 (im floor 1: it sums terms of both signs).
#include "../common.h"

#define ZN 2048

__global__ void cosine_rows(const float *A, const float *B, float *cosv, float *normA, float *normB, unsigned rows,
                            unsigned cols) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < rows) {
    float ab = 0.0f, aa = 0.0f, bb = 0.0f;
    for (unsigned j = 0; j < cols; j++) {
      float a = A[i * cols + j];
      float b = B[i * cols + j];
      ab += a * b;
      aa += a * a;
      bb += b * b;
    }
    float na = sqrtf(aa), nb = sqrtf(bb);
    normA[i] = na;
    normB[i] = nb;
    cosv[i] = ab / (na * nb);
  }
}

__global__ void regress_rows(const double *Y, const double *X, double *beta, double *alpha, long n, long T) {
  long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    double sx = 0.0, sy = 0.0, sxx = 0.0, sxy = 0.0;
    for (long t = 0; t < T; t++) {
      double x = X[i * T + t];
      double y = Y[i * T + t];
      sx += x;
      sy += y;
      sxx += x * x;
      sxy += x * y;
    }
    double b = (T * sxy - sx * sy) / (T * sxx - sx * sx);
    beta[i] = b;
    alpha[i] = (sy - b * sx) / T;
  }
}

template <int N>
__global__ void zdotc_split(const float *ar, const float *ai, const float *br, const float *bi, float *re, float *im,
                            int rows) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= rows) return;
  float sr = 0.0f, si = 0.0f;
  for (int j = 0; j < N; j++) {
    float xr = ar[i * N + j], xi = ai[i * N + j];
    float yr = br[i * N + j], yi = bi[i * N + j];
    sr += xr * yr + xi * yi;
    si += xr * yi - xi * yr;
  }
  re[i] = sr;
  im[i] = si;
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
  const int crows = argInt(argc, argv, 1, 8192), ccols = argInt(argc, argv, 2, 2048);
  const int n = argInt(argc, argv, 3, 4096), T = argInt(argc, argv, 4, 2048);
  const int zrows = argInt(argc, argv, 5, 8192);
  const size_t nc = size_t(crows) * ccols, nr = size_t(n) * T, nz = size_t(zrows) * ZN;

  std::vector<float> A(nc), B(nc);
  fillFloats(A, 14201);
  fillFloats(B, 14202, -0.5f, 1.0f);
  for (size_t k = 0; k < nc; k++)
    if (B[k] == 0.0f) B[k] = 0.25f;
  std::vector<double> X(nr), Y(nr);
  for (size_t k = 0; k < nr; k++) {
    double x = 0.25 + double(hashAt(14203, k) >> 8) * (1.0 / 16777216.0);
    double e = -0.2 + 0.4 * double(hashAt(14204, k) >> 8) * (1.0 / 16777216.0);
    X[k] = x;
    Y[k] = 0.6 * x + 0.3 + e;
  }
  std::vector<float> Ar(nz), Ai(nz), Br(nz), Bi(nz);
  fillFloats(Ar, 14205);
  fillFloats(Ai, 14206);
  fillFloats(Br, 14207);
  fillFloats(Bi, 14208);

  float *d_A = toDevice(A), *d_B = toDevice(B), *d_cos, *d_na, *d_nb;
  double *d_X = toDevice(X), *d_Y = toDevice(Y), *d_beta, *d_alpha;
  float *d_Ar = toDevice(Ar), *d_Ai = toDevice(Ai), *d_Br = toDevice(Br), *d_Bi = toDevice(Bi), *d_re, *d_im;
  CHECK(cudaMalloc(&d_cos, crows * sizeof(float)));
  CHECK(cudaMalloc(&d_na, crows * sizeof(float)));
  CHECK(cudaMalloc(&d_nb, crows * sizeof(float)));
  CHECK(cudaMalloc(&d_beta, n * sizeof(double)));
  CHECK(cudaMalloc(&d_alpha, n * sizeof(double)));
  CHECK(cudaMalloc(&d_re, zrows * sizeof(float)));
  CHECK(cudaMalloc(&d_im, zrows * sizeof(float)));
  CHECK(cudaDeviceSynchronize());

  GpuTimer t;
  t.start();
  cosine_rows<<<blocksFor(crows, 512), 512>>>(d_A, d_B, d_cos, d_na, d_nb, unsigned(crows), unsigned(ccols));
  CHECK_LAUNCH();
  regress_rows<<<blocksFor(n, 96), 96>>>(d_Y, d_X, d_beta, d_alpha, long(n), long(T));
  CHECK_LAUNCH();
  zdotc_split<ZN><<<blocksFor(zrows, 1024), 1024>>>(d_Ar, d_Ai, d_Br, d_Bi, d_re, d_im, zrows);
  CHECK_LAUNCH();
  float ms = t.stop();
  std::vector<float> gcos = fromDevice(d_cos, crows), gna = fromDevice(d_na, crows), gnb = fromDevice(d_nb, crows);
  std::vector<double> gbeta = fromDevice(d_beta, n), galpha = fromDevice(d_alpha, n);
  std::vector<float> gre = fromDevice(d_re, zrows), gim = fromDevice(d_im, zrows);

  std::vector<float> wcos(crows), wna(crows), wnb(crows);
  for (size_t i = 0; i < size_t(crows); i++) {
    double ab = 0, aa = 0, bb = 0;
    for (size_t j = 0; j < size_t(ccols); j++) {
      double a = A[i * ccols + j], b = B[i * ccols + j];
      ab += a * b;
      aa += a * a;
      bb += b * b;
    }
    wna[i] = float(std::sqrt(aa));
    wnb[i] = float(std::sqrt(bb));
    wcos[i] = float(ab / (std::sqrt(aa) * std::sqrt(bb)));
  }
  bool ok = checkFloats("cosine_rows normA", gna.data(), wna.data(), crows, 1e-3);
  ok = checkFloats("cosine_rows normB", gnb.data(), wnb.data(), crows, 1e-3) && ok;
  ok = checkFloats("cosine_rows cos", gcos.data(), wcos.data(), crows, 1e-3, 1e-2) && ok;

  std::vector<double> wbeta(n), walpha(n);
  for (size_t i = 0; i < size_t(n); i++) {
    double sx = 0, sy = 0, sxx = 0, sxy = 0;
    for (size_t t2 = 0; t2 < size_t(T); t2++) {
      double x = X[i * T + t2], y = Y[i * T + t2];
      sx += x;
      sy += y;
      sxx += x * x;
      sxy += x * y;
    }
    double b = (T * sxy - sx * sy) / (T * sxx - sx * sx);
    wbeta[i] = b;
    walpha[i] = (sy - b * sx) / T;
  }
  ok = checkDoubles("regress_rows beta", gbeta.data(), wbeta.data(), n, 1e-9, 1e-6) && ok;
  ok = checkDoubles("regress_rows alpha", galpha.data(), walpha.data(), n, 1e-9, 1e-6) && ok;

  std::vector<float> wre(zrows), wim(zrows);
  for (size_t i = 0; i < size_t(zrows); i++) {
    double sr = 0, si = 0;
    for (size_t j = 0; j < size_t(ZN); j++) {
      double xr = Ar[i * ZN + j], xi = Ai[i * ZN + j], yr = Br[i * ZN + j], yi = Bi[i * ZN + j];
      sr += xr * yr + xi * yi;
      si += xr * yi - xi * yr;
    }
    wre[i] = float(sr);
    wim[i] = float(si);
  }
  ok = checkFloats("zdotc_split re", gre.data(), wre.data(), zrows, 1e-3) && ok;
  ok = checkFloats("zdotc_split im", gim.data(), wim.data(), zrows, 1e-3, 1.0) && ok;

  float *fb[] = {d_A, d_B, d_cos, d_na, d_nb, d_Ar, d_Ai, d_Br, d_Bi, d_re, d_im};
  for (float *p : fb) CHECK(cudaFree(p));
  double *db[] = {d_X, d_Y, d_beta, d_alpha};
  for (double *p : db) CHECK(cudaFree(p));
  return finish(ms, ok);
}
