// hv_rowmax_int: per-row maximum and argmax (first index of the maximum) of
// an int matrix of rows x COLS (8192 x 2048, 64 MB), one thread per row
// walking a row pointer (`row = A + (size_t)r * COLS`) with a branch
// (`if (v > best) { best = v; arg = j; }`); COLS a compile-time template
// parameter, rows from argv; blocks of 256, an early-return guard. One
// launch. Timed: the kernel only. Checked exactly.
#include "../common.h"

template <int COLS>
__global__ void rowmax_kernel(const int *A, int *maxv, int *argmax, int rows) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  const int *row = A + (size_t)r * COLS;
  int best = row[0], arg = 0;
  for (int j = 1; j < COLS; j++) {
    int v = row[j];
    if (v > best) {
      best = v;
      arg = j;
    }
  }
  maxv[r] = best;
  argmax[r] = arg;
}

constexpr int kCols = 2048;

int main(int argc, char **argv) {
  const int rows = argInt(argc, argv, 1, 8192);
  std::vector<int> A(size_t(rows) * kCols);
  for (size_t k = 0; k < A.size(); k++) {
    int v = int(hashAt(331, k) % 2000001u) - 1000000;  // ties happen
    A[k] = v ? v : 1;
  }
  int *dA = toDevice(A), *dmax, *darg;
  CHECK(cudaMalloc(&dmax, size_t(rows) * sizeof(int)));
  CHECK(cudaMalloc(&darg, size_t(rows) * sizeof(int)));
  GpuTimer t;
  t.start();
  rowmax_kernel<kCols><<<blocksFor(rows, 256), 256>>>(dA, dmax, darg, rows);
  CHECK_LAUNCH();
  float ms = t.stop();
  std::vector<int> maxv = fromDevice(dmax, rows), arg = fromDevice(darg, rows);

  std::vector<int> mref(rows), aref(rows);
  for (int r = 0; r < rows; r++) {
    const int *row = &A[size_t(r) * kCols];
    int best = row[0], a = 0;
    for (int j = 1; j < kCols; j++)
      if (row[j] > best) best = row[j], a = j;
    mref[r] = best;
    aref[r] = a;
  }
  bool ok = checkExact("max", maxv.data(), mref.data(), rows);
  ok = checkExact("argmax", arg.data(), aref.data(), rows) && ok;
  return finish(ms, ok);
}
