// Random flat transposes and permutes with compile-time sizes: tests/tools/constdiv_fuzz.py gen
// (tests/lit/transpose/constdiv-fuzz-emu.test). Compiled with: nvcc -arch=sm_90 -O3 -ptx
#include <cstddef>
#include <cstdint>

// FUZZ cf0 2870 1 1 arg 0
extern "C" __global__ void cf0(const unsigned char *__restrict__ in, unsigned char *__restrict__ out, long long n) {
  int i = blockIdx.x * (int)blockDim.x + threadIdx.x;
  if ((long long)i < n) out[(i % 41) * 70 + (i / 41)] = in[i];
}

// FUZZ cf1 2173 4 4 ret 0
extern "C" __global__ void cf1(const float *__restrict__ in, float *__restrict__ out) {
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (i >= (size_t)2173) return;
  out[(i % 41) * 53 + (i / 41)] = in[i];
}

// FUZZ cf2 1640 4 4 const 1
extern "C" __global__ void cf2(const float *__restrict__ in, float *__restrict__ out) {
  for (int i = blockIdx.x * (int)blockDim.x + threadIdx.x; i < (int)1640; i += (int)blockDim.x * gridDim.x) out[(i % 40) * 41 + (i / 40)] = in[i];
}

// FUZZ cf3 24440 4 4 arg 0
extern "C" __global__ void cf3(const float *__restrict__ in, float *__restrict__ out, long long n) {
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if ((long long)i < n) out[(((i / (65 * 4 * 47)) * 4 + ((i / 65) % 4)) * 65 + (i % 65)) * 47 + ((i / (65 * 4)) % 47)] = in[i];
}

// FUZZ cf4 4225 4 4 ret 0
extern "C" __global__ void cf4(const float *__restrict__ in, float *__restrict__ out) {
  unsigned i = blockIdx.x * (unsigned)blockDim.x + threadIdx.x;
  if (i >= (unsigned)4225) return;
  out[(i % 65) * 65 + (64 - (i / 65))] = in[i];
}

// FUZZ cf5 2145 4 4 const 0
extern "C" __global__ void cf5(const float *__restrict__ in, float *__restrict__ out) {
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if ((size_t)i < (size_t)2145) out[(i % 33) * 65 + (64 - (i / 33))] = in[i];
}

// FUZZ cf6 7920 4 4 const 0
extern "C" __global__ void cf6(const float *__restrict__ in, float *__restrict__ out) {
  int i = blockIdx.x * (int)blockDim.x + threadIdx.x;
  if ((int)i < (int)7920) out[(((i / (40 * 3 * 33)) * 3 + ((i / 40) % 3)) * 40 + (i % 40)) * 33 + ((i / (40 * 3)) % 33)] = in[i];
}

// FUZZ cf7 2112 4 4 const 1
extern "C" __global__ void cf7(const float *__restrict__ in, float *__restrict__ out) {
  for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < (int64_t)2112; i += (int64_t)blockDim.x * gridDim.x) out[(i % 33) * 64 + (i / 33)] = in[i];
}

// FUZZ cf8 13992 4 4 const 0
extern "C" __global__ void cf8(const float *__restrict__ in, float *__restrict__ out) {
  int i = blockIdx.x * (int)blockDim.x + threadIdx.x;
  if ((int)i < (int)13992) out[(((i / (53 * 4 * 33)) * 4 + ((i / 53) % 4)) * 53 + (i % 53)) * 33 + ((i / (53 * 4)) % 33)] = in[i];
}

// FUZZ cf9 5120 4 4 arg 0
extern "C" __global__ void cf9(const float *__restrict__ in, float *__restrict__ out, long long n) {
  unsigned i = blockIdx.x * (unsigned)blockDim.x + threadIdx.x;
  if ((long long)i < n) out[((i / (40 * 64)) * 40 + i % 40) * 64 + (i / 40) % 64] = in[i];
}

// FUZZ cf10 2706 4 4 ret 0
extern "C" __global__ void cf10(const float *__restrict__ in, float *__restrict__ out) {
  int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
  if (i >= (int64_t)2706) return;
  out[((i / (33 * 41)) * 33 + i % 33) * 41 + (i / 33) % 41] = in[i];
}

// FUZZ cf11 1353 4 4 arg 0
extern "C" __global__ void cf11(const float *__restrict__ in, float *__restrict__ out, long long n) {
  int i = blockIdx.x * (int)blockDim.x + threadIdx.x;
  if ((long long)i < n) out[(i % 33) * 41 + (i / 33)] = in[i];
}

// FUZZ cf12 1584 4 4 ret 0
extern "C" __global__ void cf12(const float *__restrict__ in, float *__restrict__ out) {
  int i = blockIdx.x * (int)blockDim.x + threadIdx.x;
  if (i >= (int)1584) return;
  out[(i % 33) * 48 + (47 - (i / 33))] = in[i];
}

// FUZZ cf13 3072 4 4 const 1
extern "C" __global__ void cf13(const float *__restrict__ in, float *__restrict__ out) {
  for (int i = blockIdx.x * (int)blockDim.x + threadIdx.x; i < (int)3072; i += (int)blockDim.x * gridDim.x) out[(i % 48) * 64 + (i / 48)] = in[i];
}

// FUZZ cf14 5088 4 4 arg 0
extern "C" __global__ void cf14(const float *__restrict__ in, float *__restrict__ out, long long n) {
  int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
  if ((long long)i < n) out[((i / (48 * 53)) * 48 + i % 48) * 53 + (i / 48) % 53] = in[i];
}

// FUZZ cf15 2544 4 4 arg 0
extern "C" __global__ void cf15(const float *__restrict__ in, float *__restrict__ out, long long n) {
  int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
  if ((long long)i < n) out[(i % 48) * 53 + (i / 48)] = in[i];
}

// FUZZ cf16 2112 4 4 const 1
extern "C" __global__ void cf16(const float *__restrict__ in, float *__restrict__ out) {
  for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < (int64_t)2112; i += (int64_t)blockDim.x * gridDim.x) out[(i % 64) * 33 + (i / 64)] = in[i];
}

// FUZZ cf17 3392 4 4 const 1
extern "C" __global__ void cf17(const float *__restrict__ in, float *__restrict__ out) {
  for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < (int64_t)3392; i += (int64_t)blockDim.x * gridDim.x) out[(i % 53) * 64 + (i / 53)] = in[i];
}

// FUZZ cf18 3290 4 4 const 1
extern "C" __global__ void cf18(const float *__restrict__ in, float *__restrict__ out) {
  for (int i = blockIdx.x * (int)blockDim.x + threadIdx.x; i < (int)3290; i += (int)blockDim.x * gridDim.x) out[(i % 70) * 47 + (i / 70)] = in[i];
}

// FUZZ cf19 2624 4 4 const 1
extern "C" __global__ void cf19(const float *__restrict__ in, float *__restrict__ out) {
  for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < (int64_t)2624; i += (int64_t)blockDim.x * gridDim.x) out[(i % 64) * 41 + (i / 64)] = in[i];
}

// FUZZ cf20 3392 4 4 ret 0
extern "C" __global__ void cf20(const float *__restrict__ in, float *__restrict__ out) {
  unsigned i = blockIdx.x * (unsigned)blockDim.x + threadIdx.x;
  if (i >= (unsigned)3392) return;
  out[(i % 53) * 64 + (i / 53)] = in[i];
}

// FUZZ cf21 1056 4 4 arg 0
extern "C" __global__ void cf21(const float *__restrict__ in, float *__restrict__ out, long long n) {
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if ((long long)i < n) out[(i % 32) * 33 + (i / 32)] = in[i];
}

// FUZZ cf22 4096 4 4 const 0
extern "C" __global__ void cf22(const float *__restrict__ in, float *__restrict__ out) {
  unsigned i = blockIdx.x * (unsigned)blockDim.x + threadIdx.x;
  if ((unsigned)i < (unsigned)4096) out[((i / (64 * 32)) * 64 + i % 64) * 32 + (i / 64) % 32] = in[i];
}

// FUZZ cf23 4884 4 4 arg 0
extern "C" __global__ void cf23(const float *__restrict__ in, float *__restrict__ out, long long n) {
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if ((long long)i < n) out[(((i / (37 * 2 * 33)) * 2 + ((i / 37) % 2)) * 37 + (i % 37)) * 33 + ((i / (37 * 2)) % 33)] = in[i];
}

