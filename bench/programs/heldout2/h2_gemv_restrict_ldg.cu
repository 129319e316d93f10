// h2_gemv_restrict_ldg: y = A x, A rows x cols float (4096 x 4096, 64 MB),
// one thread per row, written the "read-only cache" way: every pointer
// parameter `const float* __restrict__` (y `float* __restrict__`), every
// load `__ldg(&A[row*cols + j])` / `__ldg(&x[j])`, and size_t row and loop
// index (`for (size_t j = 0; j < cols; ++j)`). Blocks of 256 threads. One
// launch. Timed: the kernel only. Checked exactly against a CPU loop that
// uses fmaf in the device's order (the PTX is `fma.rn.f32`).
#include "../common.h"

__global__ void gemv_ldg(const float *__restrict__ A, const float *__restrict__ x, float *__restrict__ y,
                         size_t rows, size_t cols) {
  size_t row = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (row < rows) {
    float s = 0.0f;
    for (size_t j = 0; j < cols; ++j) s += __ldg(&A[row * cols + j]) * __ldg(&x[j]);
    y[row] = s;
  }
}

int main(int argc, char **argv) {
  const int rows = argInt(argc, argv, 1, 4096), cols = argInt(argc, argv, 2, 4096);
  std::vector<float> A(size_t(rows) * cols), x(cols);
  fillFloats(A, 1101);
  fillFloats(x, 1102);
  float *dA = toDevice(A), *dx = toDevice(x), *dy;
  CHECK(cudaMalloc(&dy, size_t(rows) * sizeof(float)));
  CHECK(cudaDeviceSynchronize());
  GpuTimer t;
  t.start();
  gemv_ldg<<<blocksFor(rows, 256), 256>>>(dA, dx, dy, size_t(rows), size_t(cols));
  CHECK_LAUNCH();
  float ms = t.stop();
  std::vector<float> y = fromDevice(dy, rows);

  std::vector<float> ref(rows);
  for (size_t i = 0; i < size_t(rows); i++) {
    float s = 0.0f;
    for (size_t j = 0; j < size_t(cols); j++) s = std::fmaf(A[i * cols + j], x[j], s);
    ref[i] = s;
  }
  bool ok = checkExact("y", y.data(), ref.data(), rows);
  CHECK(cudaFree(dA));
  CHECK(cudaFree(dx));
  CHECK(cudaFree(dy));
  return finish(ms, ok);
}
