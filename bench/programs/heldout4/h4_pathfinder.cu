// h4_pathfinder: Rodinia pathfinder (dynamic programming down the rows of a
// wall of ints, each step `dst[n] = wall[t][n] + min(src[n-1], src[n],
// src[n+1])` with the edges taking two neighbours) written without the
// pyramid tiling: one launch per row, one thread per column (blocks of 256),
// ping-pong between two result rows. (1) pathfinder_step on the row-major
// wall, `wall[t*cols + n]` (`int` indices); (2) pathfinder_step_cm on the
// same wall stored column-major, `wallT[n*rows + t]` (`size_t` indices: the
// reads strided by rows across threads). rows cols = 9 2097152 (each wall
// 72 MB); 8 steps each (8 + 8 launches). Timed: the 16 launches. Checked
// exactly (both final rows against a CPU loop).
#include "../common.h"

#include <algorithm>
#include <utility>

#define IN_RANGE(x, min, max) ((x) >= (min) && (x) <= (max))
#define MIN(a, b) ((a) <= (b) ? (a) : (b))

__global__ void pathfinder_step(const int *wall, const int *src, int *dst, int cols, int t) {
  int n = blockIdx.x * blockDim.x + threadIdx.x;

  if (IN_RANGE(n, 0, cols - 1)) {
    int shortest = src[n];
    if (n > 0) shortest = MIN(shortest, src[n - 1]);
    if (n < cols - 1) shortest = MIN(shortest, src[n + 1]);
    dst[n] = wall[t * cols + n] + shortest;
  }
}

__global__ void pathfinder_step_cm(const int *wallT, const int *src, int *dst, size_t cols, size_t rows, size_t t) {
  size_t n = (size_t)blockIdx.x * blockDim.x + threadIdx.x;

  if (n < cols) {
    int left = (n > 0) ? src[n - 1] : src[n];
    int up = src[n];
    int right = (n + 1 < cols) ? src[n + 1] : src[n];
    dst[n] = wallT[n * rows + t] + MIN(MIN(left, up), right);
  }
}

int main(int argc, char **argv) {
  const int rows = argInt(argc, argv, 1, 9), cols = argInt(argc, argv, 2, 2097152);
  const size_t total = size_t(rows) * cols;
  std::vector<int> wall(total), wallT(total);
  for (size_t k = 0; k < total; k++) wall[k] = int(1 + hashAt(4901, k) % 10u);
  for (size_t t = 0; t < size_t(rows); t++)
    for (size_t n = 0; n < size_t(cols); n++) wallT[n * rows + t] = wall[t * cols + n];
  std::vector<int> row0(wall.begin(), wall.begin() + cols);
  int *dwall = toDevice(wall), *dwallT = toDevice(wallT);
  int *da0 = toDevice(row0), *da1, *db0 = toDevice(row0), *db1;
  CHECK(cudaMalloc(&da1, size_t(cols) * sizeof(int)));
  CHECK(cudaMalloc(&db1, size_t(cols) * sizeof(int)));
  CHECK(cudaDeviceSynchronize());
  GpuTimer tm;
  tm.start();
  int *src = da0, *dst = da1;
  for (int t = 1; t < rows; t++) {
    pathfinder_step<<<blocksFor(cols, 256), 256>>>(dwall, src, dst, cols, t);
    CHECK_LAUNCH();
    std::swap(src, dst);
  }
  int *srcT = db0, *dstT = db1;
  for (int t = 1; t < rows; t++) {
    pathfinder_step_cm<<<blocksFor(cols, 256), 256>>>(dwallT, srcT, dstT, size_t(cols), size_t(rows), size_t(t));
    CHECK_LAUNCH();
    std::swap(srcT, dstT);
  }
  float ms = tm.stop();
  std::vector<int> g1 = fromDevice(src, size_t(cols)), g2 = fromDevice(srcT, size_t(cols));

  std::vector<int> prev(row0), cur(cols);
  for (size_t t = 1; t < size_t(rows); t++) {
    for (size_t n = 0; n < size_t(cols); n++) {
      int m = prev[n];
      if (n > 0) m = std::min(m, prev[n - 1]);
      if (n + 1 < size_t(cols)) m = std::min(m, prev[n + 1]);
      cur[n] = wall[t * cols + n] + m;
    }
    std::swap(prev, cur);
  }
  bool ok = checkExact("pathfinder", g1.data(), prev.data(), size_t(cols));
  ok = checkExact("pathfinder (column-major wall)", g2.data(), prev.data(), size_t(cols)) && ok;
  CHECK(cudaFree(dwall));
  CHECK(cudaFree(dwallT));
  CHECK(cudaFree(da0));
  CHECK(cudaFree(da1));
  CHECK(cudaFree(db0));
  CHECK(cudaFree(db1));
  return finish(ms, ok);
}
