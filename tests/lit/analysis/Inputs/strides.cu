// Kernels whose access strides are known by hand; tests/lit/analysis checks
// the analysis against them. Regenerate strides.ptx with:
//   nvcc -arch=sm_80 -ptx strides.cu -o strides.ptx
#include <cstdint>

// Fig. 6-a (int): stride 4*gridDim.x bytes along threadIdx.x, 4 along blockIdx.x.
__global__ void fig6a_int(const int *in1, const int *in2, int *out) {
  int i = threadIdx.x * gridDim.x + blockIdx.x;
  out[i] = in1[i] + in2[i];
}
// Fig. 6-a (char): stride gridDim.x bytes along threadIdx.x.
__global__ void fig6a_char(const char *in1, const char *in2, char *out) {
  int i = threadIdx.x * gridDim.x + blockIdx.x;
  out[i] = in1[i] + in2[i];
}
// Fig. 6-b: coalesced.
__global__ void fig6b_int(const int *in1, const int *in2, int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in1[i] + in2[i];
}
// 2-D block and grid: x fastest, rows of `width` floats.
__global__ void add2d(const float *a, float *b, int width) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  b[y * width + x] = a[y * width + x] * 2.0f;
}
// 2-D, transposed: threadIdx.x walks a column (stride 4*height bytes).
__global__ void column2d(const float *a, float *b, int height) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  b[x * height + y] = a[x * height + y];
}
// Each thread walks its own row: unit stride on the loop counter, not on threadIdx.x.
__global__ void rowwalk(const int *a, int *out, int n) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  int s = 0;
#pragma unroll 1
  for (int j = 0; j < n; ++j) s += a[row * n + j];
  out[row] = s;
}
// Grid-stride loop: coalesced, step blockDim.x*gridDim.x.
__global__ void gridstride(float *y, const float *x, float a, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) y[i] += a * x[i];
}
// Bounds guard: coalesced accesses under a divergent branch.
__global__ void guarded(const float *a, float *b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) b[i] = a[i] + 1.0f;
}
// Index computed in an inlined helper.
__device__ __forceinline__ int swizzled(int t, int b, int nb) { return t * nb + b; }
__global__ void helper_index(const short *a, short *b) {
  int i = swizzled(threadIdx.x, blockIdx.x, gridDim.x);
  b[i] = a[i];
}
// 64-bit index: stride 8 bytes, no 32-bit widening.
__global__ void index64(double *a, size_t n) {
  size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] *= 2.0;
}
// Unknown: the index comes from memory.
__global__ void gather(const float *a, const int *idx, float *b) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  b[i] = a[idx[i]];
}
// Unknown: the index differs by path.
__global__ void pathdep(const int *a, int *b, int flag) {
  int i = threadIdx.x;
  int j;
  if (threadIdx.x & 1) j = i * 2; else j = i * 3;
  b[i] = a[j];
}
// Unknown: division.
__global__ void divided(const int *a, int *b, int k) {
  int i = threadIdx.x;
  b[i] = a[i / k];
}
// Uniform: every thread reads the same element.
__global__ void uniform(const int *a, int *b) { b[threadIdx.x] = a[blockIdx.x]; }
