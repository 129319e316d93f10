// pack on kernels with nested { } scopes (cuda_fp16.h's inline asm): packed
// from a copy with the scopes flattened (clone::flattenScopes); the
// original keeps them. nvcc 13: nvcc -arch=sm_90 -O3 -ptx half.cu -o half.ptx
#include <cuda_fp16.h>

// A naive __half matrix product into floats, one thread per element of C:
// nvcc unrolls k by 4, so a thread reads A's four adjacent halves (one
// 8-byte load in the clone, A's row 8-byte aligned: n % 4 == 0).
extern "C" __global__ void hmatmul(const __half *A, const __half *B, float *C, int n) {
  int row = blockIdx.y * blockDim.y + threadIdx.y, col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= n || col >= n) return;
  float acc = 0.f;
  for (int k = 0; k < n; k++) acc += __half2float(A[row * n + k]) * __half2float(B[k * n + col]);
  C[row * n + col] = acc;
}

// Two adjacent halves per thread: one 4-byte load in the clone.
extern "C" __global__ void hpair(const __half *a, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  out[i] = __half2float(a[2 * i]) + __half2float(a[2 * i + 1]);
}
