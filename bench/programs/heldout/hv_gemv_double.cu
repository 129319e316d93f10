// hv_gemv_double: y = A x in double, A m x n (4096 x 4096, 128 MB), one
// thread per row with a register accumulator and 32-bit index arithmetic
// (`A[i*n+j]`, int i and j), blocks of 128 threads, an `if (i < m)` guard.
// One launch. Timed: the kernel only. Checked: relative 1e-10 (the device
// contracts into fma, the host does not).
#include "../common.h"

__global__ void gemv_double(const double *A, const double *x, double *y, int m, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < m) {
    double s = 0.0;
    for (int j = 0; j < n; j++) s += A[i * n + j] * x[j];
    y[i] = s;
  }
}

int main(int argc, char **argv) {
  const int m = argInt(argc, argv, 1, 4096), n = argInt(argc, argv, 2, 4096);
  std::vector<double> A(size_t(m) * n), x(n);
  for (size_t k = 0; k < A.size(); k++) A[k] = 0.25 + double(hashAt(301, k)) * (1.0 / 4294967296.0);
  for (int j = 0; j < n; j++) x[j] = 0.5 + double(hashAt(302, j)) * (1.0 / 4294967296.0);
  double *dA = toDevice(A), *dx = toDevice(x), *dy;
  CHECK(cudaMalloc(&dy, size_t(m) * sizeof(double)));
  GpuTimer t;
  t.start();
  gemv_double<<<blocksFor(m, 128), 128>>>(dA, dx, dy, m, n);
  CHECK_LAUNCH();
  float ms = t.stop();
  std::vector<double> y = fromDevice(dy, m);

  size_t bad = 0, first = 0;
  double firstWant = 0;
  for (int i = 0; i < m; i++) {
    double s = 0.0;
    for (int j = 0; j < n; j++) s += A[size_t(i) * n + j] * x[j];
    if (!closeEnough(y[i], s, 1e-10, 1e-300)) {
      if (!bad) first = i, firstWant = s;
      ++bad;
    }
  }
  if (bad)
    std::fprintf(stderr, "y: %zu of %d differ; first at %zu: got %.17g want %.17g\n", bad, m, first, y[first],
                 firstWant);
  CHECK(cudaFree(dA));
  CHECK(cudaFree(dx));
  CHECK(cudaFree(dy));
  return finish(ms, bad == 0);
}
