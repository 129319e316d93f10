// Kernel/function attributes and parameter passing: __launch_bounds__
// (.maxntid/.minnctapersm), __maxnreg__ (.maxnreg), __grid_constant__,
// by-value struct parameters, templates (.weak .func under -rdc), restrict.
#include <cstdint>

struct Params {
  float scale;
  int n;
  float bias[8];
  double d;
  char tag;
};

__global__ void __launch_bounds__(256, 2) launchBounds(float *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] *= 2.f;
}

__global__ void __launch_bounds__(1024) launchBoundsMaxOnly(int *p) {
  p[blockIdx.x * blockDim.x + threadIdx.x] = threadIdx.x;
}

__global__ void __maxnreg__(40) maxRegs(float *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = p[i] * p[i] + 1.f;
}

// Read-only struct parameter whose address is taken without a local copy.
__global__ void gridConstant(const __grid_constant__ Params prm, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  const Params *pp = &prm;
  if (i < pp->n) out[i] = out[i] * pp->scale + pp->bias[i & 7] + (float)pp->d;
}

// Struct by value: address taken forces a local copy of the param space.
__global__ void byValueStruct(Params prm, float *out) {
  Params *pp = &prm;
  pp->bias[threadIdx.x & 7] += threadIdx.x;
  out[threadIdx.x] = pp->bias[(threadIdx.x + 1) & 7] + pp->tag;
}

// Many scalar parameters of mixed widths.
__global__ void manyParams(int8_t a, uint16_t b, int32_t c, int64_t d, float e,
                           double f, bool g, char4 h, float2 i, double2 j,
                           long long *out) {
  out[threadIdx.x] = a + b + c + d + (long long)e + (long long)f + g + h.x +
                     h.w + (long long)i.y + (long long)j.x;
}

template <typename T> __device__ __noinline__ T twice(T x) { return x + x; }

template <typename T>
__global__ void templatedKernel(T *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] = twice(a[i]);
}
template __global__ void templatedKernel<int>(int *, int);
template __global__ void templatedKernel<float>(float *, int);
template __global__ void templatedKernel<double>(double *, int);

extern "C" __global__ void cLinkageKernel(const float *__restrict__ a,
                                          const float *__restrict__ b,
                                          float *__restrict__ c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = __ldg(&a[i]) + __ldg(&b[i]);
}

// Explicitly read-only / streaming / cache-hinted loads and stores.
__global__ void cacheHints(const float4 *in, float4 *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float4 v = __ldcs(&in[i]);
    float4 w = __ldlu(&in[n - 1 - i]);
    float4 x = __ldcg(&in[i ^ 1]);
    __stcs(&out[i], make_float4(v.x + w.x, v.y + w.y, v.z + x.z, v.w + x.w));
    __stwt(&out[n - 1 - i], x);
  }
}
