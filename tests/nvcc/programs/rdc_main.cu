// Separate compilation: kernels here call a __device__ function and read a
// __device__ variable defined in rdc_dev.cu; built with -rdc=true and device
// linking, two translation units.
// FLAGS: -O3 -rdc=true
// SOURCES: rdc_dev.cu
#include "common.h"

extern __device__ int devOffset;
extern __device__ int combine(int a, int b);

__global__ void colCombine(const int *a, const int *b, int *c) {
  int i = threadIdx.x * gridDim.x + blockIdx.x;
  c[i] = combine(a[i], b[i]) + devOffset;
}

__global__ void rowAdd16(const unsigned short *a, const unsigned short *b, unsigned short *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}

void runOther();  // rdc_dev.cu: launches a kernel of that unit

int main() {
  const unsigned grid = 4096, block = 256;
  const size_t n = size_t(grid) * block;
  std::vector<int> a(n), b(n);
  fill(a, 1);
  fill(b, 2);
  int *da = toDevice(a), *db = toDevice(b), *dc;
  CHECK(cudaMalloc(&dc, n * sizeof(int)));
  int off = 5;
  CHECK(cudaMemcpyToSymbol(devOffset, &off, sizeof off));
  colCombine<<<grid, block>>>(da, db, dc);
  CHECK(cudaGetLastError());
  std::vector<int> want(n);
  for (size_t i = 0; i < n; ++i) want[i] = 2 * a[i] - b[i] + 5;
  report("rdc colCombine", fromDevice(dc, n), want);

  int m = 1000001;
  std::vector<unsigned short> x(m), y(m);
  fill(x, 3);
  fill(y, 4);
  unsigned short *dx = toDevice(x), *dy = toDevice(y), *dz;
  CHECK(cudaMalloc(&dz, m * sizeof(unsigned short)));
  rowAdd16<<<(m + 511) / 512, 512>>>(dx, dy, dz, m);
  CHECK(cudaGetLastError());
  std::vector<unsigned short> wz(m);
  for (int i = 0; i < m; ++i) wz[i] = (unsigned short)(x[i] + y[i]);
  report("rdc rowAdd16", fromDevice(dz, m), wz);
  runOther();
  return 0;
}
