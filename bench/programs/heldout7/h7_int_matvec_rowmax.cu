// h7_int_matvec_rowmax: (1) int matrix-vector product, thread per row,
// `#define NCOLS 1000` columns, runtime rows = 18000 (72 MB), blocks of 64,
// `int` indices, `sum += A[i * NCOLS + j] * x[j]`; (2) float row maxima
// written as a branch (`if (v > m) m = v;`), rows x cols = 9000 x 2000
// (72 MB), blocks of 256, `int` row and column with a `size_t` row offset.
// One launch each. Timed: both. Checked: exactly (integer; max).
#include "../common.h"

#define NCOLS 1000

__global__ void int_matvec(const int *A, const int *x, int *y, int rows) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < rows) {
    int sum = 0;
    for (int j = 0; j < NCOLS; j++) sum += A[i * NCOLS + j] * x[j];
    y[i] = sum;
  }
}

__global__ void row_max(const float *__restrict__ a, float *__restrict__ out, int rows, int cols) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  const float *row = a + (size_t)r * cols;
  float m = row[0];
  for (int j = 1; j < cols; j++) {
    float v = row[j];
    if (v > m) m = v;
  }
  out[r] = m;
}

int main(int argc, char **argv) {
  const int rows = argInt(argc, argv, 1, 18000);
  const int mrows = argInt(argc, argv, 2, 9000), mcols = argInt(argc, argv, 3, 2000);
  const size_t na = size_t(rows) * NCOLS, nm = size_t(mrows) * mcols;

  // Entries in [-8, 8] without 0; x in [1, 15]: |sum| <= 1000 * 8 * 15.
  std::vector<int> A(na), x(NCOLS);
  for (size_t i = 0; i < na; i++) {
    int v = int(hashAt(7501, i) % 16u) - 8;
    A[i] = v >= 0 ? v + 1 : v;
  }
  for (int j = 0; j < NCOLS; j++) x[j] = 1 + int(hashAt(7502, j) % 15u);
  std::vector<float> m(nm);
  fillFloats(m, 7503, -4.0f, -0.5f);

  int *d_A = toDevice(A), *d_x = toDevice(x), *d_y;
  float *d_m = toDevice(m), *d_max;
  CHECK(cudaMalloc(&d_y, rows * sizeof(int)));
  CHECK(cudaMalloc(&d_max, mrows * sizeof(float)));
  CHECK(cudaDeviceSynchronize());

  GpuTimer t;
  t.start();
  int_matvec<<<(rows + 63) / 64, 64>>>(d_A, d_x, d_y, rows);
  CHECK_LAUNCH();
  row_max<<<(mrows + 255) / 256, 256>>>(d_m, d_max, mrows, mcols);
  CHECK_LAUNCH();
  float ms = t.stop();
  std::vector<int> y = fromDevice(d_y, rows);
  std::vector<float> mx = fromDevice(d_max, mrows);

  std::vector<int> yref(rows);
  for (size_t i = 0; i < size_t(rows); i++) {
    int s = 0;
    for (size_t j = 0; j < NCOLS; j++) s += A[i * NCOLS + j] * x[j];
    yref[i] = s;
  }
  std::vector<float> mref(mrows);
  for (size_t r = 0; r < size_t(mrows); r++) {
    float best = m[r * mcols];
    for (size_t j = 1; j < size_t(mcols); j++)
      if (m[r * mcols + j] > best) best = m[r * mcols + j];
    mref[r] = best;
  }
  bool ok = checkExact("int matvec", y.data(), yref.data(), rows);
  ok = checkExact("row max", mx.data(), mref.data(), mrows) && ok;
  CHECK(cudaFree(d_A));
  CHECK(cudaFree(d_x));
  CHECK(cudaFree(d_y));
  CHECK(cudaFree(d_m));
  CHECK(cudaFree(d_max));
  return finish(ms, ok);
}
