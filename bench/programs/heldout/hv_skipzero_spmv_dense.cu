// hv_skipzero_spmv_dense: y = A x over a dense m x n float matrix (4096 x
// 4096, 64 MB) of which about half the entries are zero; one thread per row
// skips them with a branch (`if (a != 0.0f) s += a * x[j]`), unsigned
// indices (`A[i*n+j]`), blocks of 256, an `if (i < m)` guard. One launch.
// Timed: the kernel only. Checked: relative 1e-3.
#include "../common.h"

__global__ void spmv_dense_skip(const float *A, const float *x, float *y, unsigned m, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < m) {
    float s = 0.0f;
    for (unsigned j = 0; j < n; j++) {
      float a = A[i * n + j];
      if (a != 0.0f) s += a * x[j];
    }
    y[i] = s;
  }
}

int main(int argc, char **argv) {
  const unsigned m = unsigned(argInt(argc, argv, 1, 4096)), n = unsigned(argInt(argc, argv, 2, 4096));
  std::vector<float> A(size_t(m) * n), x(n);
  fillFloats(A, 321);
  fillFloats(x, 322);
  for (size_t k = 0; k < A.size(); k++)
    if (hashAt(323, k) & 1u) A[k] = 0.0f;  // about half the entries zero
  float *dA = toDevice(A), *dx = toDevice(x), *dy;
  CHECK(cudaMalloc(&dy, size_t(m) * sizeof(float)));
  GpuTimer t;
  t.start();
  spmv_dense_skip<<<blocksFor(m, 256), 256>>>(dA, dx, dy, m, n);
  CHECK_LAUNCH();
  float ms = t.stop();
  std::vector<float> y = fromDevice(dy, m);

  std::vector<float> ref(m);
  for (unsigned i = 0; i < m; i++) {
    float s = 0.0f;
    for (unsigned j = 0; j < n; j++) {
      float a = A[size_t(i) * n + j];
      if (a != 0.0f) s += a * x[j];
    }
    ref[i] = s;
  }
  return finish(ms, checkFloats("y", y.data(), ref.data(), m, 1e-3));
}
