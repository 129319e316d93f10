// Row walks that nvcc unrolls (issue 15, item 5): the loop holds U accesses
// at base + j*s and its counter moves them by U*s; tests/lit/analysis/
// unroll.test checks that s (the source loop's stride) and U are reported.
// Regenerate unroll.ptx with:
//   nvcc -arch=sm_90 -ptx -O3 unroll.cu -o unroll.ptx

// Runtime bound, floats: nvcc unrolls by 4 (plus a remainder loop).
__global__ void rowwalk(const float *a, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0;
  for (int k = 0; k < n; ++k) s += a[i * n + k];
  out[i] = s;
}
// Constant bound 1024, unrolled 8 times on request: unit stride on the loop.
__global__ void rowwalk_const(const int *a, int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int s = 0;
#pragma unroll 8
  for (int k = 0; k < 1024; ++k) s += a[i * 1024 + k];
  out[i] = s;
}
// Doubles with a guard, two elements per step (stride 16 B per element).
__global__ void rowwalk_pairs(const double *a, double *out, int n, int rows) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= rows) return;
  double s = 0;
#pragma unroll 4
  for (int k = 0; k < n; k += 2) s += a[(long)i * n + k];
  out[i] = s;
}
// Not an unrolled walk: two different arrays, same stride.
__global__ void two_arrays(const float *a, const float *b, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0;
#pragma unroll 1
  for (int k = 0; k < n; ++k) s += a[i * n + k] * b[i * n + k];
  out[i] = s;
}
