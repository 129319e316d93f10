// h11_triangular: triangular row walks, a thread per row, so the trip count
// differs from thread to thread. (1) upper-triangular matrix-vector product,
// float, `int` indices, rows that shrink: `for (int k = i; k < n; k++) s +=
// U[i*n + k]*x[k]`, n = 8192 (268 MB stored, the upper half read),
// 128-thread blocks; (2) syrk-like diagonal update with a double
// accumulator over a float matrix, `unsigned` indices, rows that grow: `double
// s = 0; for (unsigned k = 0; k <= i; k++) s += (double)A[i*m + k] *
// (double)A[i*m + k]`, then c[i] = alpha*s + beta*c[i] (double c; alpha 0.5,
// beta 2.0), m = 6144 (151 MB stored, the lower half read), 64-thread
// blocks. Sizes: n m (argv). Each kernel launched once. Timed: the 2
// launches. Checked: (1) against a double CPU sum, relative tolerance 1e-3;
// (2) relative tolerance 1e-9 (fma contraction on the device; positive
// inputs).
#include "../common.h"

__global__ void trmv_upper(const float *U, const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float s = 0.0f;
    for (int k = i; k < n; k++) s += U[i * n + k] * x[k];
    y[i] = s;
  }
}

__global__ void syrk_diag_lower(const float *A, double *c, unsigned m, double alpha, double beta) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < m) {
    double s = 0.0;
    for (unsigned k = 0; k <= i; k++) s += (double)A[i * m + k] * (double)A[i * m + k];
    c[i] = alpha * s + beta * c[i];
  }
}

int main(int argc, char **argv) {
  const int n = argInt(argc, argv, 1, 8192);
  const unsigned m = argInt(argc, argv, 2, 6144);
  const double alpha = 0.5, beta = 2.0;
  std::vector<float> U(size_t(n) * n), x(n), A(size_t(m) * m);
  fillFloats(U, 11601);
  fillFloats(x, 11602);
  fillFloats(A, 11603);
  std::vector<double> c(m);
  for (unsigned i = 0; i < m; i++) c[i] = 0.25 + double(hashAt(11604, i) >> 8) * (1.0 / 16777216.0);
  float *d_U = toDevice(U), *d_x = toDevice(x), *d_A = toDevice(A), *d_y;
  double *d_c = toDevice(c);
  CHECK(cudaMalloc(&d_y, n * sizeof(float)));
  CHECK(cudaDeviceSynchronize());

  GpuTimer t;
  t.start();
  trmv_upper<<<blocksFor(n, 128), 128>>>(d_U, d_x, d_y, n);
  CHECK_LAUNCH();
  syrk_diag_lower<<<blocksFor(m, 64), 64>>>(d_A, d_c, m, alpha, beta);
  CHECK_LAUNCH();
  float ms = t.stop();
  std::vector<float> gy = fromDevice(d_y, n);
  std::vector<double> gc = fromDevice(d_c, m);

  std::vector<float> wy(n);
  for (int i = 0; i < n; i++) {
    double s = 0;
    for (int k = i; k < n; k++) s += double(U[size_t(i) * n + k]) * x[k];
    wy[i] = float(s);
  }
  bool ok = checkFloats("trmv_upper", gy.data(), wy.data(), n, 1e-3);
  size_t bad = 0;
  for (size_t i = 0; i < m; i++) {
    double s = 0;
    for (size_t k = 0; k <= i; k++) s += double(A[i * m + k]) * double(A[i * m + k]);
    double want = alpha * s + beta * c[i];
    if (!closeEnough(gc[i], want, 1e-9, 1e-12)) {
      if (!bad) std::fprintf(stderr, "syrk_diag_lower: first bad at %zu: got %.17g want %.17g\n", i, gc[i], want);
      ++bad;
    }
  }
  if (bad) std::fprintf(stderr, "syrk_diag_lower: %zu of %u differ\n", bad, m);
  ok = ok && bad == 0;

  CHECK(cudaFree(d_U));
  CHECK(cudaFree(d_x));
  CHECK(cudaFree(d_A));
  CHECK(cudaFree(d_y));
  CHECK(cudaFree(d_c));
  return finish(ms, ok);
}
