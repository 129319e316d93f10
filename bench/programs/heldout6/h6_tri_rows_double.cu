// h6_tri_rows_double: triangular-solve-like thread-per-row steps in double
// on an n x n matrix, n = 4500 (162 MB stored; ~81 MB read a kernel),
// `size_t` indices, x read-only (values already known), y written:
// (1) lower, blocks of 64: `double s = 0; for (k = 0; k < i; k++) s +=
// L[i*n + k] * x[k]; y[i] = (b[i] - s) / L[i*n + i];` (2) upper, blocks of
// 32: `for (k = i + 1; k < n; k++) s += U[i*n + k] * x[k]; y[i] = (b[i] - s)
// / U[i*n + i];` on a second matrix. One launch each. Timed: both. Checked
// exactly: fma in the device's order, IEEE division.
#include "../common.h"

__global__ void lower_row_solve(const double *L, const double *b, const double *x, double *y, size_t n) {
  size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    double s = 0.0;
    for (size_t k = 0; k < i; k++) s += L[i * n + k] * x[k];
    y[i] = (b[i] - s) / L[i * n + i];
  }
}

__global__ void upper_row_solve(const double *U, const double *b, const double *x, double *y, size_t n) {
  size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    double s = 0.0;
    for (size_t k = i + 1; k < n; k++) s += U[i * n + k] * x[k];
    y[i] = (b[i] - s) / U[i * n + i];
  }
}

static void fillDoubles(std::vector<double> &v, uint64_t seed, double lo, double hi) {
  for (size_t i = 0; i < v.size(); i++) v[i] = lo + (hi - lo) * double(hashAt(seed, i)) / 4294967296.0;
}

int main(int argc, char **argv) {
  const size_t n = size_t(argInt(argc, argv, 1, 4500));
  std::vector<double> L(n * n), U(n * n), b(n), x(n);
  fillDoubles(L, 1701, 0.25, 1.25);
  fillDoubles(U, 1702, 0.25, 1.25);
  fillDoubles(b, 1703, 1.0, 2.0);
  fillDoubles(x, 1704, 0.001, 0.002);
  double *dL = toDevice(L), *dU = toDevice(U), *db = toDevice(b), *dx = toDevice(x), *dyl, *dyu;
  CHECK(cudaMalloc(&dyl, n * sizeof(double)));
  CHECK(cudaMalloc(&dyu, n * sizeof(double)));
  CHECK(cudaDeviceSynchronize());

  GpuTimer t;
  t.start();
  lower_row_solve<<<blocksFor(long(n), 64), 64>>>(dL, db, dx, dyl, n);
  CHECK_LAUNCH();
  upper_row_solve<<<blocksFor(long(n), 32), 32>>>(dU, db, dx, dyu, n);
  CHECK_LAUNCH();
  float ms = t.stop();
  std::vector<double> yl = fromDevice(dyl, n), yu = fromDevice(dyu, n);

  std::vector<double> rl(n), ru(n);
  for (size_t i = 0; i < n; i++) {
    double sl = 0.0, su = 0.0;
    for (size_t k = 0; k < i; k++) sl = std::fma(L[i * n + k], x[k], sl);
    for (size_t k = i + 1; k < n; k++) su = std::fma(U[i * n + k], x[k], su);
    rl[i] = (b[i] - sl) / L[i * n + i];
    ru[i] = (b[i] - su) / U[i * n + i];
  }
  bool ok = checkExact("lower rows", yl.data(), rl.data(), n);
  ok = checkExact("upper rows", yu.data(), ru.data(), n) && ok;
  CHECK(cudaFree(dL));
  CHECK(cudaFree(dU));
  CHECK(cudaFree(db));
  CHECK(cudaFree(dx));
  CHECK(cudaFree(dyl));
  CHECK(cudaFree(dyu));
  return finish(ms, ok);
}
