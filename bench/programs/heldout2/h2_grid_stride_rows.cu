// h2_grid_stride_rows: per-row sum of a rows x cols float matrix (65536 x
// 1024, 256 MB), written as a grid-stride loop over rows: `for (int r =
// blockIdx.x*blockDim.x + threadIdx.x; r < rows; r += gridDim.x*blockDim.x)`,
// each row summed with a register accumulator, launched with a fixed grid of
// 132*4 = 528 blocks of 128 threads (67584 threads: each covers at most one
// row at the default size; pass rows > 67584 to make threads take several).
// One launch. Timed: the kernel only. Checked exactly (adds only, same order).
#include "../common.h"

__global__ void row_sums(const float *m, float *sums, int rows, int cols) {
  for (int r = blockIdx.x * blockDim.x + threadIdx.x; r < rows; r += gridDim.x * blockDim.x) {
    float s = 0.0f;
    for (int c = 0; c < cols; c++) s += m[(size_t)r * cols + c];
    sums[r] = s;
  }
}

int main(int argc, char **argv) {
  const int rows = argInt(argc, argv, 1, 65536), cols = argInt(argc, argv, 2, 1024);
  const size_t n = size_t(rows) * cols;
  std::vector<float> m(n);
  fillFloats(m, 1501);
  float *dm = toDevice(m), *ds;
  CHECK(cudaMalloc(&ds, size_t(rows) * sizeof(float)));
  CHECK(cudaDeviceSynchronize());
  const int grid = 132 * 4, block = 128;
  GpuTimer t;
  t.start();
  row_sums<<<grid, block>>>(dm, ds, rows, cols);
  CHECK_LAUNCH();
  float ms = t.stop();
  std::vector<float> sums = fromDevice(ds, rows);

  std::vector<float> ref(rows);
  for (int r = 0; r < rows; r++) {
    float s = 0.0f;
    for (int c = 0; c < cols; c++) s += m[size_t(r) * cols + c];
    ref[r] = s;
  }
  bool ok = checkExact("sums", sums.data(), ref.data(), rows);
  CHECK(cudaFree(dm));
  CHECK(cudaFree(ds));
  return finish(ms, ok);
}
