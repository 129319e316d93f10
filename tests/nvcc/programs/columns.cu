// Uncoalesced column walks in the forms the paper's matrix add takes and
// beyond: thread index as the row, block index as the column, for int, float,
// double and short; 1-D blocks of 96, 256 and 1000 threads; a 2-D block; large
// grids (65536 blocks) and tiny ones.
// FLAGS: -O3
#include "common.h"

template <class T> __global__ void colScale(const T *in, T *out, T k) {
  int i = threadIdx.x * gridDim.x + blockIdx.x;
  out[i] = in[i] * k + T(1);
}

__global__ void colAdd2d(const float *a, const float *b, float *c, int rows) {
  int r = threadIdx.y * blockDim.x + threadIdx.x;
  int col = blockIdx.x;
  c[r * gridDim.x + col] = a[r * gridDim.x + col] + b[r * gridDim.x + col];
}

__global__ void rowSum(const int *m, int *sums, int cols) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  int s = 0;
  for (int c = 0; c < cols; ++c) s += m[r * cols + c];
  sums[r] = s;
}

template <class T> static void runCol(const char *type, unsigned grid, unsigned block) {
  size_t n = size_t(grid) * block;
  std::vector<T> in(n);
  fill(in, grid ^ block);
  T *din = toDevice(in), *dout;
  CHECK(cudaMalloc(&dout, n * sizeof(T)));
  colScale<T><<<grid, block>>>(din, dout, T(3));
  CHECK(cudaGetLastError());
  std::vector<T> got = fromDevice(dout, n), want(n);
  for (size_t i = 0; i < n; ++i) want[i] = T(in[i] * T(3) + T(1));
  report(label("colScale<%s> grid=%u block=%u", type, grid, block), got, want);
  CHECK(cudaFree(din));
  CHECK(cudaFree(dout));
}

static void runCol2d(unsigned grid, dim3 block) {
  size_t n = size_t(grid) * block.x * block.y;
  std::vector<float> a(n), b(n);
  fill(a, 1);
  fill(b, 2);
  float *da = toDevice(a), *db = toDevice(b), *dc;
  CHECK(cudaMalloc(&dc, n * sizeof(float)));
  colAdd2d<<<grid, block>>>(da, db, dc, block.x * block.y);
  CHECK(cudaGetLastError());
  std::vector<float> got = fromDevice(dc, n), want(n);
  for (size_t i = 0; i < n; ++i) want[i] = a[i] + b[i];
  report(label("colAdd2d grid=%u block=%ux%u", grid, block.x, block.y), got, want);
  CHECK(cudaFree(da));
  CHECK(cudaFree(db));
  CHECK(cudaFree(dc));
}

static void runRowSum(int rows, int cols) {
  std::vector<int> m(size_t(rows) * cols);
  fill(m, rows);
  int *dm = toDevice(m), *ds;
  CHECK(cudaMalloc(&ds, rows * sizeof(int)));
  rowSum<<<rows / 128, 128>>>(dm, ds, cols);
  CHECK(cudaGetLastError());
  std::vector<int> got = fromDevice(ds, rows), want(rows, 0);
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c) want[r] += m[size_t(r) * cols + c];
  report(label("rowSum %dx%d", rows, cols), got, want);
  CHECK(cudaFree(dm));
  CHECK(cudaFree(ds));
}

int main() {
  runCol<int>("int", 512, 256);
  runCol<int>("int", 65536, 1024);
  runCol<int>("int", 2000, 1000);
  runCol<int>("int", 7, 96);
  runCol<float>("float", 4096, 256);
  runCol<double>("double", 1024, 512);
  runCol<short>("short", 3000, 128);
  runCol<unsigned char>("uchar", 4096, 256);
  runCol2d(1024, dim3(32, 8));
  runCol2d(300, dim3(16, 16));
  runRowSum(8192, 256);
  runRowSum(1024, 1000);
  return 0;
}
