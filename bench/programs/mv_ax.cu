// mv_ax: y = A x, A n x n float (n = 4096), one thread per row walking its
// row with a register accumulator (PolyBench's mvt/atax row kernel, with
// int indices as PolyBench writes them). One launch.
// Timed: the kernel only (cudaEvents).
#include "common.h"

__global__ void mv_kernel(const float *A, const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float acc = 0.0f;
    for (int j = 0; j < n; j++) acc += A[i * n + j] * x[j];
    y[i] = acc;
  }
}

int main(int argc, char **argv) {
  const int n = argInt(argc, argv, 1, 4096);
  std::vector<float> A(size_t(n) * n), x(n);
  fillFloats(A, 1);
  fillFloats(x, 2);
  float *dA = toDevice(A), *dx = toDevice(x), *dy;
  CHECK(cudaMalloc(&dy, n * sizeof(float)));
  GpuTimer t;
  t.start();
  mv_kernel<<<blocksFor(n, 256), 256>>>(dA, dx, dy, n);
  CHECK_LAUNCH();
  float ms = t.stop();
  std::vector<float> y = fromDevice(dy, n);

  std::vector<float> ref(n);
  for (int i = 0; i < n; i++) {
    float acc = 0.0f;
    for (int j = 0; j < n; j++) acc += A[size_t(i) * n + j] * x[j];
    ref[i] = acc;
  }
  return finish(ms, checkFloats("y", y.data(), ref.data(), n, 1e-3));
}
