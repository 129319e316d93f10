// h2_gemv_template: y = A x, one thread per row, written as a template
// `template <typename T, int BLOCK> __global__ void gemv(...)` with
// `__launch_bounds__(BLOCK)`, the row from `blockIdx.x * BLOCK +
// threadIdx.x`, an early `return` past the last row, and `#pragma unroll 4`
// on the inner loop over a runtime n. Instantiated for (float, 128) on a
// 4096 x 4096 float matrix (64 MB) and (double, 256) on a 4096 x 4096
// double matrix (128 MB). One launch each. Timed: both kernels. Checked
// exactly against a CPU loop using std::fma in the device's order (the PTX
// is `fma.rn.f32` / `fma.rn.f64`).
#include "../common.h"

template <typename T, int BLOCK>
__global__ void __launch_bounds__(BLOCK) gemv(const T *A, const T *x, T *y, int m, int n) {
  int row = blockIdx.x * BLOCK + threadIdx.x;
  if (row >= m) return;
  T acc = T(0);
#pragma unroll 4
  for (int j = 0; j < n; ++j) acc += A[size_t(row) * n + j] * x[j];
  y[row] = acc;
}

template <typename T, int BLOCK> void launch(const T *A, const T *x, T *y, int m, int n) {
  gemv<T, BLOCK><<<(m + BLOCK - 1) / BLOCK, BLOCK>>>(A, x, y, m, n);
  CHECK_LAUNCH();
}

template <typename T> size_t countBad(const std::vector<T> &A, const std::vector<T> &x, const std::vector<T> &y,
                                      int m, int n) {
  size_t bad = 0;
  for (int i = 0; i < m; i++) {
    T acc = T(0);
    for (int j = 0; j < n; j++) acc = std::fma(A[size_t(i) * n + j], x[j], acc);
    bad += !(y[i] == acc);
  }
  return bad;
}

int main(int argc, char **argv) {
  const int mf = argInt(argc, argv, 1, 4096), nf = argInt(argc, argv, 2, 4096);
  const int md = argInt(argc, argv, 3, 4096), nd = argInt(argc, argv, 4, 4096);
  std::vector<float> Af(size_t(mf) * nf), xf(nf);
  fillFloats(Af, 1201);
  fillFloats(xf, 1202);
  std::vector<double> Ad(size_t(md) * nd), xd(nd);
  for (size_t k = 0; k < Ad.size(); k++) Ad[k] = 0.25 + double(hashAt(1203, k)) * (1.0 / 4294967296.0);
  for (int j = 0; j < nd; j++) xd[j] = 0.5 + double(hashAt(1204, j)) * (1.0 / 4294967296.0);
  float *dAf = toDevice(Af), *dxf = toDevice(xf), *dyf;
  double *dAd = toDevice(Ad), *dxd = toDevice(xd), *dyd;
  CHECK(cudaMalloc(&dyf, size_t(mf) * sizeof(float)));
  CHECK(cudaMalloc(&dyd, size_t(md) * sizeof(double)));
  CHECK(cudaDeviceSynchronize());
  GpuTimer t;
  t.start();
  launch<float, 128>(dAf, dxf, dyf, mf, nf);
  launch<double, 256>(dAd, dxd, dyd, md, nd);
  float ms = t.stop();
  std::vector<float> yf = fromDevice(dyf, mf);
  std::vector<double> yd = fromDevice(dyd, md);

  size_t badf = countBad(Af, xf, yf, mf, nf), badd = countBad(Ad, xd, yd, md, nd);
  if (badf) std::fprintf(stderr, "float y: %zu of %d differ\n", badf, mf);
  if (badd) std::fprintf(stderr, "double y: %zu of %d differ\n", badd, md);
  return finish(ms, badf == 0 && badd == 0);
}
