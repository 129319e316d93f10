// h13_aos_rows: rows whose elements are small structs, a thread per row.
// (1) row_centroid: rows of `struct P3 { float x, y, z; }` points (12-byte
// elements), three accumulators `sx += p.x; sy += p.y; sz += p.z`, the
// row's centroid (sums times 1/cols) written as a float3, `int` indices,
// 8192 rows x 2048 points (201 MB), 256-thread blocks, `if (i < rows)`; (2)
// cgemv: complex matrix-vector product over `float2` elements, `y[i] =
// sum_j A[i*n + j]*x[j]` (re += a.x*b.x - a.y*b.y; im += a.x*b.y + a.y*b.x),
// `size_t` row offset and `int` column, 8192 x 2048 (134 MB), real parts in
// [0.25, 1.25), imaginary parts in [0.25, 0.5) (the real sums do not
// cancel), 128-thread blocks, `if (i < rows)`; (3) row_sum_d2: rows of
// `double2` summed into a double2 (sx += v.x; sy += v.y), `unsigned`
// indices, 4096 x 2048 (134 MB), 64-thread blocks, `if (i < rows)`. Sizes:
// prows pcols crows ccols drows dcols (argv). Each kernel launched once.
// Timed: the 3 launches. Checked: (1), (2) against double CPU results,
// relative tolerance 1e-3 (fma contraction); (3) relative tolerance 1e-9.
#include "../common.h"

struct P3 {
  float x, y, z;
};
static_assert(sizeof(P3) == 12 && sizeof(float3) == 12, "packed 12-byte elements");

__global__ void row_centroid(const P3 *P, float3 *out, int rows, int cols) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < rows) {
    float sx = 0.0f, sy = 0.0f, sz = 0.0f;
    for (int j = 0; j < cols; j++) {
      P3 p = P[i * cols + j];
      sx += p.x;
      sy += p.y;
      sz += p.z;
    }
    float inv = 1.0f / cols;
    out[i] = make_float3(sx * inv, sy * inv, sz * inv);
  }
}

__global__ void cgemv(const float2 *A, const float2 *x, float2 *y, int rows, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < rows) {
    size_t row = size_t(i) * n;
    float re = 0.0f, im = 0.0f;
    for (int j = 0; j < n; j++) {
      float2 a = A[row + j], b = x[j];
      re += a.x * b.x - a.y * b.y;
      im += a.x * b.y + a.y * b.x;
    }
    y[i] = make_float2(re, im);
  }
}

__global__ void row_sum_d2(const double2 *D, double2 *out, unsigned rows, unsigned cols) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < rows) {
    double sx = 0.0, sy = 0.0;
    for (unsigned j = 0; j < cols; j++) {
      double2 v = D[i * cols + j];
      sx += v.x;
      sy += v.y;
    }
    out[i] = make_double2(sx, sy);
  }
}

static float unit(uint64_t seed, size_t k, float lo, float hi) {
  return lo + float(hashAt(seed, k) >> 8) * ((hi - lo) * (1.0f / 16777216.0f));
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
  const int prows = argInt(argc, argv, 1, 8192), pcols = argInt(argc, argv, 2, 2048);
  const int crows = argInt(argc, argv, 3, 8192), ccols = argInt(argc, argv, 4, 2048);
  const unsigned drows = argInt(argc, argv, 5, 4096), dcols = argInt(argc, argv, 6, 2048);
  const size_t np = size_t(prows) * pcols, nc = size_t(crows) * ccols, nd = size_t(drows) * dcols;

  std::vector<P3> P(np);
  for (size_t k = 0; k < np; k++) P[k] = {unit(13201, k, 0.25f, 1.25f), unit(13202, k, 0.25f, 1.25f),
                                          unit(13203, k, 0.25f, 1.25f)};
  std::vector<float2> A(nc), x(ccols);
  for (size_t k = 0; k < nc; k++) A[k] = make_float2(unit(13204, k, 0.25f, 1.25f), unit(13205, k, 0.25f, 0.5f));
  for (int k = 0; k < ccols; k++) x[k] = make_float2(unit(13206, k, 0.25f, 1.25f), unit(13207, k, 0.25f, 0.5f));
  std::vector<double2> D(nd);
  for (size_t k = 0; k < nd; k++)
    D[k] = make_double2(0.25 + double(hashAt(13208, k)) * (1.0 / 4294967296.0),
                        0.25 + double(hashAt(13209, k)) * (1.0 / 4294967296.0));

  P3 *d_P = toDevice(P);
  float3 *d_cen;
  float2 *d_A = toDevice(A), *d_x = toDevice(x), *d_y;
  double2 *d_D = toDevice(D), *d_dsum;
  CHECK(cudaMalloc(&d_cen, prows * sizeof(float3)));
  CHECK(cudaMalloc(&d_y, crows * sizeof(float2)));
  CHECK(cudaMalloc(&d_dsum, drows * sizeof(double2)));
  CHECK(cudaDeviceSynchronize());

  GpuTimer t;
  t.start();
  row_centroid<<<blocksFor(prows, 256), 256>>>(d_P, d_cen, prows, pcols);
  CHECK_LAUNCH();
  cgemv<<<blocksFor(crows, 128), 128>>>(d_A, d_x, d_y, crows, ccols);
  CHECK_LAUNCH();
  row_sum_d2<<<blocksFor(drows, 64), 64>>>(d_D, d_dsum, drows, dcols);
  CHECK_LAUNCH();
  float ms = t.stop();
  std::vector<float3> gcen = fromDevice(d_cen, prows);
  std::vector<float2> gy = fromDevice(d_y, crows);
  std::vector<double2> gdsum = fromDevice(d_dsum, drows);

  std::vector<float> wcen(3 * size_t(prows)), wy(2 * size_t(crows));
  std::vector<double> wdsum(2 * size_t(drows));
  for (size_t i = 0; i < size_t(prows); i++) {
    double sx = 0, sy = 0, sz = 0;
    for (size_t j = 0; j < size_t(pcols); j++) {
      const P3 &p = P[i * pcols + j];
      sx += p.x, sy += p.y, sz += p.z;
    }
    wcen[3 * i] = float(sx / pcols), wcen[3 * i + 1] = float(sy / pcols), wcen[3 * i + 2] = float(sz / pcols);
  }
  for (size_t i = 0; i < size_t(crows); i++) {
    double re = 0, im = 0;
    for (size_t j = 0; j < size_t(ccols); j++) {
      const float2 a = A[i * ccols + j], b = x[j];
      re += double(a.x) * b.x - double(a.y) * b.y;
      im += double(a.x) * b.y + double(a.y) * b.x;
    }
    wy[2 * i] = float(re), wy[2 * i + 1] = float(im);
  }
  for (size_t i = 0; i < drows; i++) {
    double sx = 0, sy = 0;
    for (size_t j = 0; j < dcols; j++) sx += D[i * dcols + j].x, sy += D[i * dcols + j].y;
    wdsum[2 * i] = sx, wdsum[2 * i + 1] = sy;
  }
  const float *gc = reinterpret_cast<const float *>(gcen.data()), *gyf = reinterpret_cast<const float *>(gy.data());
  const double *gd = reinterpret_cast<const double *>(gdsum.data());
  bool ok = checkFloats("row_centroid", gc, wcen.data(), wcen.size(), 1e-3);
  ok = checkFloats("cgemv", gyf, wy.data(), wy.size(), 1e-3) && ok;
  ok = checkDoubles("row_sum_d2", gd, wdsum.data(), wdsum.size(), 1e-9) && ok;

  CHECK(cudaFree(d_P));
  CHECK(cudaFree(d_cen));
  float2 *fb[] = {d_A, d_x, d_y};
  for (float2 *p : fb) CHECK(cudaFree(p));
  CHECK(cudaFree(d_D));
  CHECK(cudaFree(d_dsum));
  return finish(ms, ok);
}
