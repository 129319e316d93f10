// small_scale: y = a x over 65536 floats, 256 threads a block, one launch
// (the CUDA samples' vector kernels at their smallest). Timed: the kernel
// only. Checked exactly.
#include "common.h"

__global__ void scale_kernel(const float *x, float *y, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i];
}

int main(int argc, char **argv) {
  const int n = argInt(argc, argv, 1, 65536);
  const float a = 1.75f;
  std::vector<float> x(n);
  fillFloats(x, 191);
  float *dx = toDevice(x), *dy;
  CHECK(cudaMalloc(&dy, n * sizeof(float)));
  GpuTimer t;
  t.start();
  scale_kernel<<<blocksFor(n, 256), 256>>>(dx, dy, a, n);
  CHECK_LAUNCH();
  float ms = t.stop();
  std::vector<float> y = fromDevice(dy, n), ref(n);
  for (int i = 0; i < n; i++) ref[i] = a * x[i];
  return finish(ms, checkExact("y", y.data(), ref.data(), n));
}
