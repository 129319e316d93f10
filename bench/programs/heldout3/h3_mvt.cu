// h3_mvt: PolyBench-GPU-style mvt, N = 4096 a compile-time constant (the
// float matrix a is 64 MB), DIM_THREAD_BLOCK_X = 256, one thread per i, the
// accumulator read and written in global memory inside the loop as the suite
// writes it: (1) `x1[i] += a[i*N + j] * y_1[j]` (a row walk per thread);
// (2) `x2[i] += a[j*N + i] * y_2[j]` (a column walk: coalesced across
// threads). x1 and x2 start non-zero. One launch each. Timed: both kernels.
// Checked exactly against CPU loops with fmaf in the device's order.
#include "../common.h"

#define N 4096
#define DIM_THREAD_BLOCK_X 256
typedef float DATA_TYPE;

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

int main() {
  std::vector<float> a(size_t(N) * N), x1(N), x2(N), y1(N), y2(N);
  fillFloats(a, 3401);
  fillFloats(x1, 3402);
  fillFloats(x2, 3403);
  fillFloats(y1, 3404);
  fillFloats(y2, 3405);
  float *da = toDevice(a), *dx1 = toDevice(x1), *dx2 = toDevice(x2), *dy1 = toDevice(y1), *dy2 = toDevice(y2);
  CHECK(cudaDeviceSynchronize());
  dim3 block(DIM_THREAD_BLOCK_X, 1);
  dim3 grid((N + DIM_THREAD_BLOCK_X - 1) / DIM_THREAD_BLOCK_X, 1);
  GpuTimer t;
  t.start();
  mvt_kernel1<<<grid, block>>>(da, dx1, dy1);
  CHECK_LAUNCH();
  mvt_kernel2<<<grid, block>>>(da, dx2, dy2);
  CHECK_LAUNCH();
  float ms = t.stop();
  std::vector<float> gx1 = fromDevice(dx1, N), gx2 = fromDevice(dx2, N);

  std::vector<float> r1(x1), r2(x2);
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      r1[i] = std::fmaf(a[size_t(i) * N + j], y1[j], r1[i]);
      r2[i] = std::fmaf(a[size_t(j) * N + i], y2[j], r2[i]);
    }
  bool ok = checkExact("mvt x1", gx1.data(), r1.data(), N);
  ok = checkExact("mvt x2", gx2.data(), r2.data(), N) && ok;
  CHECK(cudaFree(da));
  CHECK(cudaFree(dx1));
  CHECK(cudaFree(dx2));
  CHECK(cudaFree(dy1));
  CHECK(cudaFree(dy2));
  return finish(ms, ok);
}
