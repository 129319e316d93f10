// gesummv (PolyBench/GPU): y = alpha A x + beta B x, A and B n x n float
// (n = 4096): two matrices walked in one loop, one thread per row, the
// accumulators tmp[i] and y[i] in global memory as PolyBench writes them,
// then y[i] = alpha*tmp[i] + beta*y[i]. One launch, 256 threads a block.
// Timed: the kernel only.
#include "common.h"

__global__ void gesummv_kernel(const float *a, const float *b, const float *x, float *y, float *tmp, int n,
                               float alpha, float beta) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    for (int j = 0; j < n; j++) {
      tmp[i] += a[i * n + j] * x[j];
      y[i] += b[i * n + j] * x[j];
    }
    y[i] = alpha * tmp[i] + beta * y[i];
  }
}

int main(int argc, char **argv) {
  const int n = argInt(argc, argv, 1, 4096);
  const float alpha = 1.5f, beta = 1.25f;
  std::vector<float> a(size_t(n) * n), b(size_t(n) * n), x(n);
  fillFloats(a, 41);
  fillFloats(b, 42);
  fillFloats(x, 43);
  float *da = toDevice(a), *db = toDevice(b), *dx = toDevice(x), *dy, *dtmp;
  CHECK(cudaMalloc(&dy, n * sizeof(float)));
  CHECK(cudaMalloc(&dtmp, n * sizeof(float)));
  CHECK(cudaMemset(dy, 0, n * sizeof(float)));
  CHECK(cudaMemset(dtmp, 0, n * sizeof(float)));
  GpuTimer t;
  t.start();
  gesummv_kernel<<<blocksFor(n, 256), 256>>>(da, db, dx, dy, dtmp, n, alpha, beta);
  CHECK_LAUNCH();
  float ms = t.stop();
  std::vector<float> y = fromDevice(dy, n);

  std::vector<float> ref(n);
  for (int i = 0; i < n; i++) {
    float tmp = 0.0f, yi = 0.0f;
    for (int j = 0; j < n; j++) {
      tmp += a[size_t(i) * n + j] * x[j];
      yi += b[size_t(i) * n + j] * x[j];
    }
    ref[i] = alpha * tmp + beta * yi;
  }
  return finish(ms, checkFloats("y", y.data(), ref.data(), n, 1e-3));
}
