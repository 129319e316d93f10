// Index shapes nvcc writes with bit operations (issue 15, items 2 and 3);
// tests/lit/analysis/bits.test checks the strides derived by hand.
// Regenerate bits.ptx with:
//   nvcc -arch=sm_90 -ptx -O3 bits.cu -o bits.ptx
#include <cstdint>

// n-1-i: nvcc writes not.b32 + add. Stride -4 on %tid.x.
__global__ void reverse_int(const int *in, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[n - 1 - i] = in[i];
}
// The same with the length from the launch, on floats: -4 on %tid.x.
__global__ void reverse_float(const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int n = gridDim.x * blockDim.x;
  out[n - 1 - i] = in[i];
}
// Reversal of a 64-bit index on doubles: -8 on %tid.x.
__global__ void reverse_long(const double *in, double *out, long n) {
  long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
  if (i < n) out[n - 1 - i] = in[i];
}
