// h2_transpose_batched_double: batched naive transpose of `batch` = 8
// double matrices of rows x cols = 2048 x 2048 (256 MB in, 256 MB out),
// blockIdx.z the matrix, blocks of 32 x 8, one element a thread:
// `out[base + c*rows + r] = in[base + r*cols + c]` with a size_t base =
// blockIdx.z * rows * cols, c from threadIdx.x (coalesced reads, strided
// writes). One launch. Timed: the kernel only. Checked exactly.
#include "../common.h"

__global__ void transpose_batched(const double *in, double *out, int rows, int cols) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  int r = blockIdx.y * blockDim.y + threadIdx.y;
  size_t base = (size_t)blockIdx.z * rows * cols;
  if (r < rows && c < cols) out[base + c * rows + r] = in[base + r * cols + c];
}

int main(int argc, char **argv) {
  const int batch = argInt(argc, argv, 1, 8);
  const int rows = argInt(argc, argv, 2, 2048), cols = argInt(argc, argv, 3, 2048);
  const size_t per = size_t(rows) * cols, n = per * batch;
  std::vector<double> in(n);
  for (size_t k = 0; k < n; k++) in[k] = 0.25 + double(hashAt(1801, k)) * (1.0 / 4294967296.0);
  double *din = toDevice(in), *dout;
  CHECK(cudaMalloc(&dout, n * sizeof(double)));
  CHECK(cudaDeviceSynchronize());
  GpuTimer t;
  t.start();
  transpose_batched<<<dim3(blocksFor(cols, 32), blocksFor(rows, 8), batch), dim3(32, 8)>>>(din, dout, rows, cols);
  CHECK_LAUNCH();
  float ms = t.stop();
  std::vector<double> out = fromDevice(dout, n);

  size_t bad = 0;
  for (size_t b = 0; b < size_t(batch); b++)
    for (size_t r = 0; r < size_t(rows); r++)
      for (size_t c = 0; c < size_t(cols); c++) bad += !(out[b * per + c * rows + r] == in[b * per + r * cols + c]);
  if (bad) std::fprintf(stderr, "transpose: %zu of %zu differ\n", bad, n);
  CHECK(cudaFree(din));
  CHECK(cudaFree(dout));
  return finish(ms, bad == 0);
}
