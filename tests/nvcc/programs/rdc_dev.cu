// The second translation unit of rdc_main.cu.
#include "common.h"

__device__ int devOffset;
__device__ int combine(int a, int b) { return 2 * a - b; }

__global__ void colNeg(const float *in, float *out) {
  int i = threadIdx.x * gridDim.x + blockIdx.x;
  out[i] = -in[i];
}

void runOther() {
  const unsigned grid = 1024, block = 512;
  const size_t n = size_t(grid) * block;
  std::vector<float> in(n);
  fill(in, 8);
  float *din = toDevice(in), *dout;
  CHECK(cudaMalloc(&dout, n * sizeof(float)));
  colNeg<<<grid, block>>>(din, dout);
  CHECK(cudaGetLastError());
  std::vector<float> want(n);
  for (size_t i = 0; i < n; ++i) want[i] = -in[i];
  report("rdc colNeg (second unit)", fromDevice(dout, n), want);
}
