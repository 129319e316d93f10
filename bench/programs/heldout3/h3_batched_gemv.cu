// h3_batched_gemv: batched float matrix-vector products, a 2-D grid with
// blockIdx.y the batch, `row = blockIdx.x*blockDim.x + threadIdx.x`, 1-D
// blocks of 128, the row length `cols` a runtime argument. (1) `y[b][row] =
// sum_j A[b][row][j] * x[b][j]` (a row walk per thread); (2) the transposed
// product `z[b][col] = sum_i A[b][i][col] * w[b][i]` (a column walk,
// coalesced), blocks of 256. batch x rows x cols = 16 x 1024 x 1024 (64 MB).
// Each launched 3 times. Timed: the 6 launches. Checked exactly against CPU
// loops with fmaf in the device's order.
#include "../common.h"

__global__ void batched_gemv(const float *A, const float *x, float *y, int rows, int cols) {
  int b = blockIdx.y;
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < rows) {
    const float *Ab = A + (size_t)b * rows * cols;
    const float *xb = x + (size_t)b * cols;
    float sum = 0.0f;
    for (int j = 0; j < cols; j++) sum += Ab[row * cols + j] * xb[j];
    y[b * rows + row] = sum;
  }
}

__global__ void batched_gemv_t(const float *A, const float *w, float *z, int rows, int cols) {
  int b = blockIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (col < cols) {
    const float *Ab = A + (size_t)b * rows * cols;
    float sum = 0.0f;
    for (int i = 0; i < rows; i++) sum += Ab[i * cols + col] * w[b * rows + i];
    z[b * cols + col] = sum;
  }
}

int main(int argc, char **argv) {
  const int batch = argInt(argc, argv, 1, 16), rows = argInt(argc, argv, 2, 1024), cols = argInt(argc, argv, 3, 1024);
  const size_t n = size_t(batch) * rows * cols;
  std::vector<float> A(n), x(size_t(batch) * cols), w(size_t(batch) * rows);
  fillFloats(A, 4101);
  fillFloats(x, 4102);
  fillFloats(w, 4103);
  float *dA = toDevice(A), *dx = toDevice(x), *dw = toDevice(w), *dy, *dz;
  CHECK(cudaMalloc(&dy, size_t(batch) * rows * sizeof(float)));
  CHECK(cudaMalloc(&dz, size_t(batch) * cols * sizeof(float)));
  CHECK(cudaDeviceSynchronize());
  GpuTimer t;
  t.start();
  for (int it = 0; it < 3; it++) {
    batched_gemv<<<dim3(blocksFor(rows, 128), batch), 128>>>(dA, dx, dy, rows, cols);
    CHECK_LAUNCH();
  }
  for (int it = 0; it < 3; it++) {
    batched_gemv_t<<<dim3(blocksFor(cols, 256), batch), 256>>>(dA, dw, dz, rows, cols);
    CHECK_LAUNCH();
  }
  float ms = t.stop();
  std::vector<float> y = fromDevice(dy, size_t(batch) * rows), z = fromDevice(dz, size_t(batch) * cols);

  std::vector<float> ry(size_t(batch) * rows), rz(size_t(batch) * cols, 0.0f);
  for (size_t b = 0; b < size_t(batch); b++) {
    const float *Ab = A.data() + b * rows * cols;
    for (size_t r = 0; r < size_t(rows); r++) {
      float s = 0.0f;
      for (size_t j = 0; j < size_t(cols); j++) s = std::fmaf(Ab[r * cols + j], x[b * cols + j], s);
      ry[b * rows + r] = s;
    }
    for (size_t i = 0; i < size_t(rows); i++)
      for (size_t c = 0; c < size_t(cols); c++) rz[b * cols + c] = std::fmaf(Ab[i * cols + c], w[b * rows + i], rz[b * cols + c]);
  }
  bool ok = checkExact("batched_gemv", y.data(), ry.data(), ry.size());
  ok = checkExact("batched_gemv_t", z.data(), rz.data(), rz.size()) && ok;
  CHECK(cudaFree(dA));
  CHECK(cudaFree(dx));
  CHECK(cudaFree(dw));
  CHECK(cudaFree(dy));
  CHECK(cudaFree(dz));
  return finish(ms, ok);
}
