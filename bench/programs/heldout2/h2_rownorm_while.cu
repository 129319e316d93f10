// h2_rownorm_while: per-row L2 norm of a rows x cols float matrix (8192 x
// 4096, 128 MB), one thread per row, written as a pointer walk: `const
// float *p = A + row*cols, *end = p + cols; while (p < end) { s += *p * *p;
// ++p; }`, then `norm[row] = sqrtf(s)`. Blocks of 128 threads. One launch.
// Timed: the kernel only. Checked exactly against a CPU loop using fmaf in
// the device's order and sqrtf (the PTX is `fma.rn.f32`, `sqrt.rn.f32`).
#include "../common.h"

__global__ void rownorm(const float *A, float *norm, int rows, int cols) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < rows) {
    const float *p = A + (size_t)row * cols;
    const float *end = p + cols;
    float s = 0.0f;
    while (p < end) {
      s += *p * *p;
      ++p;
    }
    norm[row] = sqrtf(s);
  }
}

int main(int argc, char **argv) {
  const int rows = argInt(argc, argv, 1, 8192), cols = argInt(argc, argv, 2, 4096);
  std::vector<float> A(size_t(rows) * cols);
  fillFloats(A, 1301);
  float *dA = toDevice(A), *dn;
  CHECK(cudaMalloc(&dn, size_t(rows) * sizeof(float)));
  CHECK(cudaDeviceSynchronize());
  GpuTimer t;
  t.start();
  rownorm<<<blocksFor(rows, 128), 128>>>(dA, dn, rows, cols);
  CHECK_LAUNCH();
  float ms = t.stop();
  std::vector<float> got = fromDevice(dn, rows);

  std::vector<float> ref(rows);
  for (int i = 0; i < rows; i++) {
    const float *p = A.data() + size_t(i) * cols;
    float s = 0.0f;
    for (int j = 0; j < cols; j++) s = std::fmaf(p[j], p[j], s);
    ref[i] = std::sqrt(s);
  }
  bool ok = checkExact("norm", got.data(), ref.data(), rows);
  CHECK(cudaFree(dA));
  CHECK(cudaFree(dn));
  return finish(ms, ok);
}
