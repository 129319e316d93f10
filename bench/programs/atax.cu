// atax (PolyBench/GPU): tmp = A x, then y = A^T tmp; A nx x ny float
// (4096 x 4096). Kernel 1: one thread per row, `tmp[i] += A[i*ny+j]*x[j]`
// (the accumulator in global memory, as PolyBench writes it); kernel 2: one
// thread per column, `y[j] += A[i*ny+j]*tmp[i]`. Each launched once, 256
// threads a block. Timed: both kernels.
#include "common.h"

__global__ void atax_kernel1(const float *A, const float *x, float *tmp, int nx, int ny) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < nx) {
    for (int j = 0; j < ny; j++) tmp[i] += A[i * ny + j] * x[j];
  }
}

__global__ void atax_kernel2(const float *A, float *y, const float *tmp, int nx, int ny) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j < ny) {
    for (int i = 0; i < nx; i++) y[j] += A[i * ny + j] * tmp[i];
  }
}

int main(int argc, char **argv) {
  const int nx = argInt(argc, argv, 1, 4096), ny = argInt(argc, argv, 2, 4096);
  std::vector<float> A(size_t(nx) * ny), x(ny);
  fillFloats(A, 21);
  fillFloats(x, 22);
  float *dA = toDevice(A), *dx = toDevice(x), *dtmp, *dy;
  CHECK(cudaMalloc(&dtmp, nx * sizeof(float)));
  CHECK(cudaMalloc(&dy, ny * sizeof(float)));
  CHECK(cudaMemset(dtmp, 0, nx * sizeof(float)));
  CHECK(cudaMemset(dy, 0, ny * sizeof(float)));
  GpuTimer t;
  t.start();
  atax_kernel1<<<blocksFor(nx, 256), 256>>>(dA, dx, dtmp, nx, ny);
  CHECK_LAUNCH();
  atax_kernel2<<<blocksFor(ny, 256), 256>>>(dA, dy, dtmp, nx, ny);
  CHECK_LAUNCH();
  float ms = t.stop();
  std::vector<float> y = fromDevice(dy, ny);

  std::vector<float> tmp(nx, 0.0f), ref(ny, 0.0f);
  for (int i = 0; i < nx; i++)
    for (int j = 0; j < ny; j++) tmp[i] += A[size_t(i) * ny + j] * x[j];
  for (int i = 0; i < nx; i++)
    for (int j = 0; j < ny; j++) ref[j] += A[size_t(i) * ny + j] * tmp[i];
  return finish(ms, checkFloats("y", y.data(), ref.data(), ny, 1e-3));
}
