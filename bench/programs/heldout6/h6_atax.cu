// h6_atax: PolyBench/GPU `atax` in float, y = A^T (A x), NX x NY = 6000 x 4000
// (96 MB), sizes and DIM_THREAD_BLOCK_X 256 as #defines (neither size a
// multiple of 256). tmp and y zeroed by cudaMemset, then accumulated straight
// into global memory as in PolyBench: (1) atax_kernel1, thread i walks row i,
// `tmp[i] += A[i*NY + j] * x[j]`; (2) atax_kernel2, thread j walks column j,
// `y[j] += A[i*NY + j] * tmp[i]`. One launch each. Timed: both (and the two
// memsets). Checked exactly: fmaf in the device's order.
#include "../common.h"

#define NX 6000
#define NY 4000
#define DIM_THREAD_BLOCK_X 256
#define DIM_THREAD_BLOCK_Y 1

typedef float DATA_TYPE;

__global__ void atax_kernel1(DATA_TYPE *A, DATA_TYPE *x, DATA_TYPE *tmp) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < NX) {
    int j;
    for (j = 0; j < NY; j++) {
      tmp[i] += A[i * NY + j] * x[j];
    }
  }
}

__global__ void atax_kernel2(DATA_TYPE *A, DATA_TYPE *y, DATA_TYPE *tmp) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j < NY) {
    int i;
    for (i = 0; i < NX; i++) {
      y[j] += A[i * NY + j] * tmp[i];
    }
  }
}

int main() {
  std::vector<DATA_TYPE> A(size_t(NX) * NY), x(NY);
  fillFloats(A, 701);
  fillFloats(x, 702, 0.01f, 0.02f);
  DATA_TYPE *A_gpu = toDevice(A), *x_gpu = toDevice(x), *y_gpu, *tmp_gpu;
  CHECK(cudaMalloc(&y_gpu, sizeof(DATA_TYPE) * NY));
  CHECK(cudaMalloc(&tmp_gpu, sizeof(DATA_TYPE) * NX));
  CHECK(cudaDeviceSynchronize());

  dim3 block(DIM_THREAD_BLOCK_X, DIM_THREAD_BLOCK_Y);
  dim3 grid1((size_t)(ceil(((float)NX) / ((float)block.x))), 1);
  dim3 grid2((size_t)(ceil(((float)NY) / ((float)block.x))), 1);
  GpuTimer t;
  t.start();
  CHECK(cudaMemset(tmp_gpu, 0, sizeof(DATA_TYPE) * NX));
  CHECK(cudaMemset(y_gpu, 0, sizeof(DATA_TYPE) * NY));
  atax_kernel1<<<grid1, block>>>(A_gpu, x_gpu, tmp_gpu);
  CHECK_LAUNCH();
  atax_kernel2<<<grid2, block>>>(A_gpu, y_gpu, tmp_gpu);
  CHECK_LAUNCH();
  float ms = t.stop();
  std::vector<DATA_TYPE> tmp_out = fromDevice(tmp_gpu, NX), y_out = fromDevice(y_gpu, NY);

  std::vector<DATA_TYPE> tmp(NX, 0.0f), y(NY, 0.0f);
  for (int i = 0; i < NX; i++)
    for (int j = 0; j < NY; j++) tmp[i] = std::fmaf(A[size_t(i) * NY + j], x[j], tmp[i]);
  for (int i = 0; i < NX; i++)
    for (int j = 0; j < NY; j++) y[j] = std::fmaf(A[size_t(i) * NY + j], tmp[i], y[j]);
  bool ok = checkExact("tmp (A x)", tmp_out.data(), tmp.data(), NX);
  ok = checkExact("y (A^T tmp)", y_out.data(), y.data(), NY) && ok;
  CHECK(cudaFree(A_gpu));
  CHECK(cudaFree(x_gpu));
  CHECK(cudaFree(y_gpu));
  CHECK(cudaFree(tmp_gpu));
  return finish(ms, ok);
}
