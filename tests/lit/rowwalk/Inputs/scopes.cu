// Row walks whose loops hold nested { } scopes: the inline asm of
// cuda_fp16.h and cuda_bf16.h (conversions, half adds, comparisons with a
// scoped .reg .pred), and a hand-written scope with a label (refused).
// nvcc 13: nvcc -arch=sm_90 -O3 -ptx scopes.cu -o scopes.ptx
#include <cuda_bf16.h>
#include <cuda_fp16.h>

// __half elements summed into a float: the conversion is `{ cvt.f32.f16 }`.
extern "C" __global__ void rowsum_half_f32(const __half *a, float *y, int n, int N) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= n) return;
  const __half *row = a + (size_t)r * N;
  float acc = 0.f;
  for (int i = 0; i < N; i++) acc += __half2float(row[i]);
  y[r] = acc;
}

// A __half accumulator (__hadd: `{ add.f16 }`), stored once as a __half.
extern "C" __global__ void rowsum_half_h(const __half *a, __half *y, int n, int N) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= n) return;
  const __half *row = a + (size_t)r * N;
  __half acc = __float2half(0.f);
  for (int i = 0; i < N; i++) acc = __hadd(acc, row[i]);
  y[r] = acc;
}

// Elements above a threshold counted: `{ .reg .pred __$temp3; setp.gt.f16
// __$temp3, ..; selp.u16 .., __$temp3; }` in every unrolled iteration (the
// same name in each scope).
extern "C" __global__ void rowcount_half_gt(const __half *a, int *y, int n, int N, __half t) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= n) return;
  const __half *row = a + (size_t)r * N;
  int c = 0;
  for (int i = 0; i < N; i++) c += __hgt(row[i], t) ? 1 : 0;
  y[r] = c;
}

// A matrix-vector product of __half matrix and vector into floats.
extern "C" __global__ void gemv_half(const __half *A, const __half *x, float *y, int n, int N) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= n) return;
  float acc = 0.f;
  for (int i = 0; i < N; i++) acc += __half2float(A[(size_t)r * N + i]) * __half2float(x[i]);
  y[r] = acc;
}

// __nv_bfloat16 elements summed into a float.
extern "C" __global__ void rowsum_bf16_f32(const __nv_bfloat16 *a, float *y, int n, int N) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= n) return;
  const __nv_bfloat16 *row = a + (size_t)r * N;
  float acc = 0.f;
  for (int i = 0; i < N; i++) acc += __bfloat162float(row[i]);
  y[r] = acc;
}

// A scope with a label of its own (hand-written inline asm): not flattened,
// the kernel is refused.
extern "C" __global__ void rowsum_scoped_label(const int *a, int *y, int n, int N) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= n) return;
  const int *row = a + (size_t)r * N;
  int acc = 0;
  for (int i = 0; i < N; i++) {
    int v = row[i];
    asm("{\n\t.reg .pred p;\n\tsetp.eq.s32 p, %1, 0;\n\t@p bra.uni SKIP%=;\n\tadd.s32 %0, %0, %1;\n\tSKIP%=:\n\t}"
        : "+r"(acc)
        : "r"(v));
  }
  y[r] = acc;
}
