// h3_spmv_ell: column-major ELLPACK SpMV (the Parboil / ELLPACK-R layout),
// float, one thread per row, 1M rows. (1) plain ELL of width K = 32, rows
// padded with zero values on their own column: `for (j = 0; j < K; j++) {
// sum += val[j*rows + row] * x[col[j*rows + row]]; }`, K a runtime argument,
// 1-D blocks of 256; (2) ELLPACK-R with a per-row length `rl[row]` (8-32,
// the same storage): `for (j = 0; j < rl[row]; j++) ...`, blocks of 64.
// Columns banded (row - 64 .. row + 64, clamped). 128 MB of values and 128
// MB of column indices. Each launched 3 times. Timed: the 6 launches.
// Checked exactly against CPU loops with fmaf in the device's order.
#include <algorithm>

#include "../common.h"

__global__ void ell_spmv(const float *val, const int *col, const float *x, float *y, int rows, int K) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < rows) {
    float sum = 0.0f;
    for (int j = 0; j < K; j++) {
      sum += val[j * rows + row] * x[col[j * rows + row]];
    }
    y[row] = sum;
  }
}

__global__ void ellr_spmv(const float *val, const int *col, const int *rl, const float *x, float *y, int rows) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < rows) {
    float sum = 0.0f;
    int len = rl[row];
    for (int j = 0; j < len; j++) {
      int idx = j * rows + row;
      sum += val[idx] * x[col[idx]];
    }
    y[row] = sum;
  }
}

int main(int argc, char **argv) {
  const int rows = argInt(argc, argv, 1, 1 << 20), K = argInt(argc, argv, 2, 32);
  const size_t n = size_t(rows) * K;
  std::vector<float> val(n), x(rows);
  std::vector<int> col(n), rl(rows);
  fillFloats(val, 3701);
  fillFloats(x, 3702);
  for (int r = 0; r < rows; r++) {
    rl[r] = std::min(K, 8 + int(hashAt(3703, r) % 25u));
    for (int j = 0; j < K; j++) {
      int c = r - 64 + int(hashAt(3704, size_t(r) * K + j) % 129u);
      col[size_t(j) * rows + r] = std::max(0, std::min(rows - 1, c));
    }
  }
  // Plain ELL: entries past rl[r] are padding (value 0 on column r); the
  // ELLPACK-R kernel never reads them.
  for (int r = 0; r < rows; r++)
    for (int j = rl[r]; j < K; j++) val[size_t(j) * rows + r] = 0.0f, col[size_t(j) * rows + r] = r;
  float *dval = toDevice(val), *dx = toDevice(x), *dy1, *dy2;
  int *dcol = toDevice(col), *drl = toDevice(rl);
  CHECK(cudaMalloc(&dy1, size_t(rows) * sizeof(float)));
  CHECK(cudaMalloc(&dy2, size_t(rows) * sizeof(float)));
  CHECK(cudaDeviceSynchronize());
  GpuTimer t;
  t.start();
  for (int it = 0; it < 3; it++) {
    ell_spmv<<<blocksFor(rows, 256), 256>>>(dval, dcol, dx, dy1, rows, K);
    CHECK_LAUNCH();
  }
  for (int it = 0; it < 3; it++) {
    ellr_spmv<<<blocksFor(rows, 64), 64>>>(dval, dcol, drl, dx, dy2, rows);
    CHECK_LAUNCH();
  }
  float ms = t.stop();
  std::vector<float> y1 = fromDevice(dy1, rows), y2 = fromDevice(dy2, rows);

  std::vector<float> r1(rows), r2(rows);
  for (int r = 0; r < rows; r++) {
    float s = 0.0f;
    for (int j = 0; j < K; j++) {
      size_t idx = size_t(j) * rows + r;
      s = std::fmaf(val[idx], x[col[idx]], s);
      if (j + 1 == rl[r]) r2[r] = s;
    }
    r1[r] = s;
  }
  bool ok = checkExact("ell", y1.data(), r1.data(), rows);
  ok = checkExact("ellpack-r", y2.data(), r2.data(), rows) && ok;
  CHECK(cudaFree(dval));
  CHECK(cudaFree(dx));
  CHECK(cudaFree(dy1));
  CHECK(cudaFree(dy2));
  CHECK(cudaFree(dcol));
  CHECK(cudaFree(drl));
  return finish(ms, ok);
}
