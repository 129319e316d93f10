// h5_rowptr_while: y = A x, one thread per row, two ways of writing the row
// walk over one m x n float matrix (8192 x 4096, 128 MB): (1) the row pointer
// taken first, `const float* a = A + (size_t)row * n;`, then `for (int j = 0;
// j < n; j++) acc += a[j] * x[j]` after an early return (blocks of 64);
// (2) an index `while` loop, `int j = 0; while (j < n) { acc += A[row*n + j]
// * w[j]; j++; }` inside `if (row < m)` (blocks of 192, m not a multiple of
// 192), on a second vector. One launch each. Timed: both. Checked exactly
// against a CPU loop with fmaf in the device's order (`fma.rn.f32`).
#include "../common.h"

__global__ void gemv_rowptr(const float *A, const float *x, float *y, int m, int n) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= m) return;
  const float *a = A + (size_t)row * n;
  float acc = 0.0f;
  for (int j = 0; j < n; j++) acc += a[j] * x[j];
  y[row] = acc;
}

__global__ void gemv_while(const float *A, const float *w, float *z, int m, int n) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < m) {
    float acc = 0.0f;
    int j = 0;
    while (j < n) {
      acc += A[row * n + j] * w[j];
      j++;
    }
    z[row] = acc;
  }
}

int main(int argc, char **argv) {
  const int m = argInt(argc, argv, 1, 8192), n = argInt(argc, argv, 2, 4096);
  std::vector<float> A(size_t(m) * n), x(n), w(n);
  fillFloats(A, 5101);
  fillFloats(x, 5102);
  fillFloats(w, 5103, 0.5f, 1.5f);
  float *dA = toDevice(A), *dx = toDevice(x), *dw = toDevice(w), *dy, *dz;
  CHECK(cudaMalloc(&dy, size_t(m) * sizeof(float)));
  CHECK(cudaMalloc(&dz, size_t(m) * sizeof(float)));
  CHECK(cudaDeviceSynchronize());

  GpuTimer t;
  t.start();
  gemv_rowptr<<<blocksFor(m, 64), 64>>>(dA, dx, dy, m, n);
  CHECK_LAUNCH();
  gemv_while<<<blocksFor(m, 192), 192>>>(dA, dw, dz, m, n);
  CHECK_LAUNCH();
  float ms = t.stop();
  std::vector<float> y = fromDevice(dy, m), z = fromDevice(dz, m);

  std::vector<float> yref(m), zref(m);
  for (int i = 0; i < m; i++) {
    const float *a = A.data() + size_t(i) * n;
    float s = 0.0f, s2 = 0.0f;
    for (int j = 0; j < n; j++) {
      s = std::fmaf(a[j], x[j], s);
      s2 = std::fmaf(a[j], w[j], s2);
    }
    yref[i] = s;
    zref[i] = s2;
  }
  bool ok = checkExact("rowptr y", y.data(), yref.data(), m);
  ok = checkExact("while z", z.data(), zref.data(), m) && ok;
  CHECK(cudaFree(dA));
  CHECK(cudaFree(dx));
  CHECK(cudaFree(dw));
  CHECK(cudaFree(dy));
  CHECK(cudaFree(dz));
  return finish(ms, ok);
}
