// printf, non-inlined device function calls, recursion, function pointers.
#include <cstdio>

__device__ __noinline__ float poly(float x, float a, float b, float c) {
  return (a * x + b) * x + c;
}

__device__ __noinline__ void writePair(int *p, int a, int b) {
  p[0] = a;
  p[1] = b;
}

struct Big {
  float v[6];
  int tag;
};

__device__ __noinline__ Big makeBig(float s, int t) {
  Big b;
  for (int i = 0; i < 6; ++i) b.v[i] = s * i;
  b.tag = t;
  return b;
}

__device__ __noinline__ float sumBig(Big b) {
  float s = 0.f;
  for (int i = 0; i < 6; ++i) s += b.v[i];
  return s + b.tag;
}

__global__ void callKernel(const float *x, float *y, int *pairs, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    y[i] = poly(x[i], 1.f, 2.f, 3.f) + sumBig(makeBig(x[i], i));
    writePair(pairs + 2 * i, i, -i);
  }
}

__device__ unsigned fib(unsigned n) {
  return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

__device__ int ackermannLike(int m, int n) {
  if (m == 0) return n + 1;
  if (n == 0) return ackermannLike(m - 1, 1);
  return ackermannLike(m - 1, ackermannLike(m, n - 1));
}

__global__ void recursionKernel(unsigned *out, int *out2) {
  out[threadIdx.x] = fib(threadIdx.x & 15);
  out2[threadIdx.x] = ackermannLike(1, threadIdx.x & 7);
}

__global__ void printfKernel(const float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i == 0) printf("n=%d first=%f\n", n, x[0]);
  if (i < n && x[i] < 0.f)
    printf("block %d thread %d: negative value %g at %lld (%s)\n", blockIdx.x,
           threadIdx.x, (double)x[i], (long long)i, "warn");
}

// Indirect calls through a device function-pointer table.
typedef float (*unop_t)(float);
__device__ __noinline__ float opSquare(float v) { return v * v; }
__device__ __noinline__ float opNeg(float v) { return -v; }
__device__ __noinline__ float opHalf(float v) { return 0.5f * v; }
__device__ unop_t d_ops[3] = {opSquare, opNeg, opHalf};

__global__ void indirectCalls(float *data, const int *sel, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] = d_ops[sel[i] % 3](data[i]);
}

// Large switch (may lower to a jump table / brx.idx).
__device__ __noinline__ int bigSwitch(int k, int v) {
  switch (k) {
  case 0: return v + 1;
  case 1: return v * 3;
  case 2: return v ^ 0x55;
  case 3: return v - 7;
  case 4: return v << 2;
  case 5: return v >> 1;
  case 6: return ~v;
  case 7: return v * v;
  case 8: return v | 0x100;
  case 9: return v & 0xff;
  case 10: return v / 3;
  case 11: return v % 5;
  default: return 0;
  }
}

__global__ void switchKernel(int *out, const int *k) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = bigSwitch(k[i], i);
}

// Device-side malloc/free and assert.
#include <cassert>
__global__ void mallocKernel(int n) {
  int *buf = (int *)malloc(n * sizeof(int));
  assert(buf != nullptr);
  for (int i = 0; i < n; ++i) buf[i] = i * threadIdx.x;
  if (buf[n - 1] == 12345) printf("unlikely\n");
  free(buf);
}
