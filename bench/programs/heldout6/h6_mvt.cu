// h6_mvt: PolyBench/GPU `mvt` in double, N x N = 4096 x 4096 (128 MB), N a
// #define. Two kernels as in PolyBench, one thread per output element,
// accumulating straight into global memory (`x1[i] += a[i*N + j] * y_1[j]`):
// (1) mvt_kernel1 walks row i of A (x1 += A y1); (2) mvt_kernel2 walks column
// i of A (x2 += A^T y2). DIM_THREAD_BLOCK_X 128, Y 1. x1 and x2 start from
// non-zero values. One launch each. Timed: both. Checked exactly: fma in the
// device's order.
#include "../common.h"

#define N 4096
#define DIM_THREAD_BLOCK_X 128
#define DIM_THREAD_BLOCK_Y 1

typedef double DATA_TYPE;

__global__ void mvt_kernel1(DATA_TYPE *a, DATA_TYPE *x1, DATA_TYPE *y_1) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N) {
    int j;
    for (j = 0; j < N; j++) {
      x1[i] += a[i * N + j] * y_1[j];
    }
  }
}

__global__ void mvt_kernel2(DATA_TYPE *a, DATA_TYPE *x2, DATA_TYPE *y_2) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N) {
    int j;
    for (j = 0; j < N; j++) {
      x2[i] += a[j * N + i] * y_2[j];
    }
  }
}

static void init_array(std::vector<DATA_TYPE> &A, std::vector<DATA_TYPE> &x1, std::vector<DATA_TYPE> &x2,
                       std::vector<DATA_TYPE> &y1, std::vector<DATA_TYPE> &y2) {
  for (int i = 0; i < N; i++) {
    x1[i] = 0.5 + double(hashAt(601, i) >> 8) / 16777216.0;
    x2[i] = 0.5 + double(hashAt(602, i) >> 8) / 16777216.0;
    y1[i] = 0.001 + double(hashAt(603, i) >> 8) / 16777216.0 * 0.01;
    y2[i] = 0.001 + double(hashAt(604, i) >> 8) / 16777216.0 * 0.01;
    for (int j = 0; j < N; j++) A[size_t(i) * N + j] = 0.25 + double(hashAt(605, size_t(i) * N + j) >> 8) / 16777216.0;
  }
}

int main() {
  std::vector<DATA_TYPE> A(size_t(N) * N), x1(N), x2(N), y1(N), y2(N);
  init_array(A, x1, x2, y1, y2);
  DATA_TYPE *a_gpu = toDevice(A), *x1_gpu = toDevice(x1), *x2_gpu = toDevice(x2);
  DATA_TYPE *y_1_gpu = toDevice(y1), *y_2_gpu = toDevice(y2);
  CHECK(cudaDeviceSynchronize());

  dim3 block(DIM_THREAD_BLOCK_X, DIM_THREAD_BLOCK_Y);
  dim3 grid((size_t)ceil((float)N / ((float)DIM_THREAD_BLOCK_X)), 1);
  GpuTimer t;
  t.start();
  mvt_kernel1<<<grid, block>>>(a_gpu, x1_gpu, y_1_gpu);
  CHECK_LAUNCH();
  mvt_kernel2<<<grid, block>>>(a_gpu, x2_gpu, y_2_gpu);
  CHECK_LAUNCH();
  float ms = t.stop();
  std::vector<DATA_TYPE> x1_out = fromDevice(x1_gpu, N), x2_out = fromDevice(x2_gpu, N);

  // CPU reference: same order, fused multiply-add as on the device.
  std::vector<DATA_TYPE> r1(x1), r2(x2);
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) r1[i] = std::fma(A[size_t(i) * N + j], y1[j], r1[i]);
  for (int j = 0; j < N; j++)
    for (int i = 0; i < N; i++) r2[i] = std::fma(A[size_t(j) * N + i], y2[j], r2[i]);
  bool ok = checkExact("x1 (A y1)", x1_out.data(), r1.data(), N);
  ok = checkExact("x2 (A^T y2)", x2_out.data(), r2.data(), N) && ok;
  CHECK(cudaFree(a_gpu));
  CHECK(cudaFree(x1_gpu));
  CHECK(cudaFree(x2_gpu));
  CHECK(cudaFree(y_1_gpu));
  CHECK(cudaFree(y_2_gpu));
  return finish(ms, ok);
}
