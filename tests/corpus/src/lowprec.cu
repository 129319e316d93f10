// fp16 / bf16 / fp8 arithmetic and conversions.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>

__global__ void haxpy(int n, __half a, const __half *x, __half *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = __hfma(a, x[i], y[i]);
}

__global__ void half2Ops(int n, const __half2 *x, const __half2 *y, __half2 *z,
                         float *f) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  __half2 a = x[i], b = y[i];
  __half2 r = __hmul2(__hadd2(a, b), __hsub2(a, b));
  r = __hmax2(r, __float2half2_rn(0.f));
  z[i] = h2exp(r);
  float2 ff = __half22float2(r);
  f[i] = ff.x + ff.y + __half2float(__hdiv(__low2half(a), __high2half(b)));
  if (__hisnan(__low2half(r))) f[i] = 0.f;
}

__global__ void bf16Ops(int n, const __nv_bfloat16 *x, __nv_bfloat16 *y,
                        const __nv_bfloat162 *p, __nv_bfloat162 *q) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  __nv_bfloat16 a = x[i];
  __nv_bfloat162 b = p[i];
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  y[i] = __hfma(a, a, __float2bfloat16(1.0f));
  q[i] = __hmul2(b, __hadd2(b, b));
#else
  y[i] = a * a + __float2bfloat16(1.0f);
  q[i] = b * (b + b);
#endif
  y[i] = __float2bfloat16(__bfloat162float(y[i]) + __bfloat162float(hsqrt(a)));
}

// Mixed: half accumulate to float with conversion idioms.
__global__ void halfDot(const __half *a, const __half *b, float *out, int n) {
  float acc = 0.f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    acc += __half2float(a[i]) * __half2float(b[i]);
  for (int o = 16; o; o >>= 1) acc += __shfl_xor_sync(0xffffffffu, acc, o);
  if ((threadIdx.x & 31) == 0) atomicAdd(out, acc);
}

__global__ void halfAtomics(__half *h, __half2 *h2, __nv_bfloat16 *b) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 700
  atomicAdd(h2, __floats2half2_rn(1.f, 2.f));
  atomicAdd(h, __float2half(1.f));
#endif
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  atomicAdd(b, __float2bfloat16(1.f));
#endif
}

// fp8 conversions (E4M3 / E5M2). The types exist for all archs (software
// emulation below sm_89); native cvt instructions are used on sm_89+.
__global__ void fp8Convert(const float *in, __nv_fp8_e4m3 *o43, __nv_fp8_e5m2 *o52,
                           float *back, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  __nv_fp8_e4m3 a(in[i]);
  __nv_fp8_e5m2 b(in[i]);
  o43[i] = a;
  o52[i] = b;
  back[i] = float(a) + float(b);
}

__global__ void fp8x2Convert(const float2 *in, __nv_fp8x2_e4m3 *o, __half2 *h,
                             int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  __nv_fp8x2_e4m3 v(in[i]);
  o[i] = v;
  h[i] = __half2(v);
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 890
  __nv_fp8x2_storage_t s =
      __nv_cvt_float2_to_fp8x2(in[i], __NV_SATFINITE, __NV_E5M2);
  __half2_raw hr = __nv_cvt_fp8x2_to_halfraw2(s, __NV_E5M2);
  h[i] = __hadd2(h[i], __half2(hr));
#endif
}
