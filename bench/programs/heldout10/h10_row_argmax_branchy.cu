// h10_row_argmax_branchy: per-row maximum and the index of its first
// occurrence, written with a branch as one would on a CPU: `int best =
// a[r*cols]; int bi = 0; for (int j = 1; j < cols; j++) { int v =
// a[r*cols + j]; if (v > best) { best = v; bi = j; } }`. A thread per row,
// blocks of 128, `int` indices. Matrix rows x cols = 4096 x 8192 int (134
// MB), values in [-1000, 1000] without 0, so a row's maximum usually occurs
// several times (about 4 on average) and the strict `>` (the first index)
// matters. Sizes: rows cols (argv). Launched once. Timed: the launch.
// Checked: every row's maximum and index, exactly.
#include "../common.h"

__global__ void row_argmax(const int *a, int *maxv, int *argi, int rows, int cols) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < rows) {
    int best = a[r * cols];
    int bi = 0;
    for (int j = 1; j < cols; j++) {
      int v = a[r * cols + j];
      if (v > best) {
        best = v;
        bi = j;
      }
    }
    maxv[r] = best;
    argi[r] = bi;
  }
}

int main(int argc, char **argv) {
  const int rows = argInt(argc, argv, 1, 4096), cols = argInt(argc, argv, 2, 8192);
  const size_t n = size_t(rows) * cols;
  std::vector<int> a(n);
  for (size_t i = 0; i < n; i++) {
    uint32_t h = hashAt(10601, i);
    int v = 1 + int((h >> 1) % 1000);
    a[i] = (h & 1) ? -v : v;
  }
  int *d_a = toDevice(a), *d_max, *d_idx;
  CHECK(cudaMalloc(&d_max, rows * sizeof(int)));
  CHECK(cudaMalloc(&d_idx, rows * sizeof(int)));
  CHECK(cudaDeviceSynchronize());

  GpuTimer t;
  t.start();
  row_argmax<<<blocksFor(rows, 128), 128>>>(d_a, d_max, d_idx, rows, cols);
  CHECK_LAUNCH();
  float ms = t.stop();
  std::vector<int> gmax = fromDevice(d_max, rows), gidx = fromDevice(d_idx, rows);

  std::vector<int> rmax(rows), ridx(rows);
  for (size_t r = 0; r < size_t(rows); r++) {
    int best = a[r * cols], bi = 0;
    for (size_t j = 1; j < size_t(cols); j++)
      if (a[r * cols + j] > best) best = a[r * cols + j], bi = int(j);
    rmax[r] = best;
    ridx[r] = bi;
  }
  bool ok = checkExact("row max", gmax.data(), rmax.data(), rows);
  ok = checkExact("row argmax", gidx.data(), ridx.data(), rows) && ok;
  CHECK(cudaFree(d_a));
  CHECK(cudaFree(d_max));
  CHECK(cudaFree(d_idx));
  return finish(ms, ok);
}
