// mv_atx: y = A^T x, A n x n float (n = 4096), one thread per column j
// walking down its column with the accumulator in global memory
// (`y[j] += A[i*n+j] * x[i]`, PolyBench's atax/bicg column kernel; y set to
// zero by cudaMemset first). One launch, 128 threads a block.
// Timed: the kernel only.
#include "common.h"

__global__ void atx_kernel(const float *A, const float *x, float *y, int n) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j < n) {
    for (int i = 0; i < n; i++) y[j] += A[i * n + j] * x[i];
  }
}

int main(int argc, char **argv) {
  const int n = argInt(argc, argv, 1, 4096);
  std::vector<float> A(size_t(n) * n), x(n);
  fillFloats(A, 11);
  fillFloats(x, 12);
  float *dA = toDevice(A), *dx = toDevice(x), *dy;
  CHECK(cudaMalloc(&dy, n * sizeof(float)));
  CHECK(cudaMemset(dy, 0, n * sizeof(float)));
  GpuTimer t;
  t.start();
  atx_kernel<<<blocksFor(n, 128), 128>>>(dA, dx, dy, n);
  CHECK_LAUNCH();
  float ms = t.stop();
  std::vector<float> y = fromDevice(dy, n);

  std::vector<float> ref(n, 0.0f);
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) ref[j] += A[size_t(i) * n + j] * x[i];
  return finish(ms, checkFloats("y", y.data(), ref.data(), n, 1e-3));
}
