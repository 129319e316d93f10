// Input of half.test (Inputs/half.ptx is nvcc 13.0's output:
// nvcc -arch=sm_90 -ptx half.cu -o half.ptx, in this folder): 16-bit
// floating-point kernels, whose arithmetic cuda_fp16.h and cuda_bf16.h write
// as inline asm, which nvcc emits as nested `{ }` blocks, some declaring
// their own registers. The group pass repeats such a block per logical
// thread like one instruction. The GPU differential tests run the same
// kernels (tests/gpu/cases/half.cu includes this file).
#include <cuda_bf16.h>
#include <cuda_fp16.h>

// Blocks of one instruction each (cvt, mul.f16, add.f16).
extern "C" __global__ void half_axpy(const __half *x, const __half *y, __half *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = __hadd(y[i], __hmul(x[i], __float2half(0.5f)));
}
// A block that declares a predicate (__hmax), and fma.
extern "C" __global__ void half_fma_max(const __half *a, const __half *b, __half *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = __hfma(a[i], b[i], __hmax(a[i], b[i]));
}
// Leaky ReLU: an if-then region (the multiply) made of blocks, predicated
// in the fast path.
extern "C" __global__ void half_leaky_relu(const __half *in, __half *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    __half v = in[i];
    out[i] = __hgt(v, __float2half(0.f)) ? v : __hmul(v, __float2half(0.1f));
  }
}
// bfloat16 through float.
extern "C" __global__ void bf16_scale(const __nv_bfloat16 *in, __nv_bfloat16 *out, float s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = __float2bfloat16(__bfloat162float(in[i]) * s);
}
// half2: 4-byte elements (k = 4), blocks that declare two halves.
extern "C" __global__ void half2_to_float(const __half2 *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = __low2float(in[i]) + __high2float(in[i]);
}
// The paper's Fig. 6-a form with __half: coalesce exchanges %tid.x and
// %ctaid.x first, then group merges 8 logical threads of the swap clone.
extern "C" __global__ void half_col_add(const __half *a, const __half *b, __half *c) {
  int i = threadIdx.x * gridDim.x + blockIdx.x;
  c[i] = __hadd(a[i], __hmul(b[i], __float2half(2.f)));
}
