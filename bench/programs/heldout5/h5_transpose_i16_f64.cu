// h5_transpose_i16_f64: naive one-element-a-thread transposes with a bounds
// test. (1) int16_t, 32 x 8 blocks, `out[x*H + y] = in[y*W + x]` with int
// indices, W x H = 10000 x 5001 (neither a multiple of 32 nor of 8; 100 MB
// each way); (2) double, 8 x 32 blocks (x the column from threadIdx.x),
// `out[(size_t)c*rows + r] = in[(size_t)r*cols + c]`, rows x cols = 4001 x
// 3000 (96 MB each way). One launch each. Timed: both. Checked exactly.
#include "../common.h"

__global__ void transpose_i16(const int16_t *in, int16_t *out, int W, int H) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < W && y < H) out[x * H + y] = in[y * W + x];
}

__global__ void transpose_f64(const double *in, double *out, int rows, int cols) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  int r = blockIdx.y * blockDim.y + threadIdx.y;
  if (r < rows && c < cols) out[(size_t)c * rows + r] = in[(size_t)r * cols + c];
}

int main(int argc, char **argv) {
  const int W = argInt(argc, argv, 1, 10000), H = argInt(argc, argv, 2, 5001);
  const int rows = argInt(argc, argv, 3, 4001), cols = argInt(argc, argv, 4, 3000);
  const size_t ns = size_t(W) * H, nd = size_t(rows) * cols;
  std::vector<int16_t> a(ns);
  std::vector<double> b(nd);
  for (size_t k = 0; k < ns; k++) {
    int16_t v = int16_t(hashAt(5901, k) >> 16);
    a[k] = v ? v : int16_t(1);
  }
  for (size_t k = 0; k < nd; k++) b[k] = 1.0 + double(hashAt(5902, k)) * (1.0 / 4294967296.0);
  int16_t *da = toDevice(a), *dat;
  double *db = toDevice(b), *dbt;
  CHECK(cudaMalloc(&dat, ns * sizeof(int16_t)));
  CHECK(cudaMalloc(&dbt, nd * sizeof(double)));
  CHECK(cudaDeviceSynchronize());

  const dim3 b1(32, 8), g1((W + 31) / 32, (H + 7) / 8);
  const dim3 b2(8, 32), g2((cols + 7) / 8, (rows + 31) / 32);
  GpuTimer t;
  t.start();
  transpose_i16<<<g1, b1>>>(da, dat, W, H);
  CHECK_LAUNCH();
  transpose_f64<<<g2, b2>>>(db, dbt, rows, cols);
  CHECK_LAUNCH();
  float ms = t.stop();
  std::vector<int16_t> at = fromDevice(dat, ns);
  std::vector<double> bt = fromDevice(dbt, nd);

  std::vector<int16_t> aref(ns);
  std::vector<double> bref(nd);
  for (size_t y = 0; y < size_t(H); y++)
    for (size_t x = 0; x < size_t(W); x++) aref[x * H + y] = a[y * W + x];
  for (size_t r = 0; r < size_t(rows); r++)
    for (size_t c = 0; c < size_t(cols); c++) bref[c * rows + r] = b[r * cols + c];
  bool ok = checkExact("int16 transpose", at.data(), aref.data(), ns);
  ok = checkExact("double transpose", bt.data(), bref.data(), nd) && ok;
  CHECK(cudaFree(da));
  CHECK(cudaFree(dat));
  CHECK(cudaFree(db));
  CHECK(cudaFree(dbt));
  return finish(ms, ok);
}
