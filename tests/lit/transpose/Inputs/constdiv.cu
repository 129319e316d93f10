// Flat transposes and permutes with compile-time sizes (issue 30;
// TransposeConstDiv.cpp): `#define W 40` or template arguments, which nvcc
// divides by without a div: shifts and masks by powers of two (for a signed
// index with a rounding bias), multiplications by magic numbers otherwise.
// tests/lit/transpose/constdiv.test checks the clones, constdiv-emu.test
// runs them on the CPU; gpu-diff's "transpose const" cases run the same
// shapes at full size on the GPU (tests/gpu/cases/transpose_const.cu).
// Compiled with: nvcc -arch=sm_90 -O3 -ptx constdiv.cu -o constdiv.ptx
#include <cstddef>
#include <cstdint>

#define KERNEL(name, IDX, H, W)                                                              \
  extern "C" __global__ void name(const float *__restrict__ in, float *__restrict__ out) {   \
    IDX i = blockIdx.x * (IDX)blockDim.x + threadIdx.x;                                      \
    if (i < (IDX)(H) * (W)) {                                                                \
      IDX r = i / (W), c = i % (W);                                                          \
      out[c * (H) + r] = in[i];                                                              \
    }                                                                                        \
  }
// Powers of two: int (shr.s32 with a bias, the remainder's mask trimmed to
// the bits a shl keeps), unsigned (shr, shl + and), size_t and int64_t.
KERNEL(cd_int_pow2, int, 37, 64)
KERNEL(cd_uint_pow2, unsigned, 37, 64)
KERNEL(cd_sizet_pow2, size_t, 37, 64)
KERNEL(cd_int64_pow2, int64_t, 37, 64)
// Other constants: int (mul.hi.s32 + shr.s32 + the sign bit), unsigned
// (mul.wide.u32 + shr.u64 + cvt).
KERNEL(cd_int_magic, int, 37, 40)
KERNEL(cd_uint_magic, unsigned, 37, 40)
// Under 2^16 elements nvcc divides an unsigned or size_t index in 16 bits
// (not taken: the division is not of the index; the clones' launch floor
// is 2^20 threads anyway); with a runtime bound, the 32-bit magic numbers.
KERNEL(cd_sizet_magic, size_t, 37, 40)
// A size_t index under a constant bound below 2^32 (2000 rows of 40; the
// tests launch the first 37): nvcc narrows it to 32 bits, then multiplies;
// and a permute whose quotient's digit it takes in 64 bits (`and.b64` of
// the shifted product, joined by `or.b64`).
KERNEL(cd_sizet_narrow, size_t, 2000, 40)
extern "C" __global__ void cd_nchw_sizet(const float *__restrict__ in, float *__restrict__ out) {
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (i < (size_t)60 * 64 * 40) {
    size_t p = i % 40, c = (i / 40) % 64, n = i / (40 * 64);
    out[(n * 40 + p) * 64 + c] = in[i];
  }
}
extern "C" __global__ void cd_uint_bound(const float *__restrict__ in, float *__restrict__ out, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    unsigned r = i / 40u, c = i % 40u;
    out[c * 37u + r] = in[i];
  }
}

// A runtime bound, a constant width; a rotation; bytes to floats, scaled.
extern "C" __global__ void cd_bound(const float *__restrict__ in, float *__restrict__ out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int r = i / 40, c = i % 40;
    out[c * 37 + r] = in[i];
  }
}
// A multiplier of 33 bits (unsigned / 37: nvcc's sub, shr 1, add form), and
// a rotation whose negated quotient is mul.hi.s32 with the index subtracted.
extern "C" __global__ void cd_uint37(const float *__restrict__ in, float *__restrict__ out, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    unsigned r = i / 37u, c = i % 37u;
    out[c * 40u + r] = in[i];
  }
}
extern "C" __global__ void cd_rot_sub(const float *__restrict__ in, float *__restrict__ out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int r = i / 37, c = i % 37;
    out[c * 40 + (39 - r)] = in[i];
  }
}
extern "C" __global__ void cd_rot90(const float *__restrict__ in, float *__restrict__ out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < 37 * 40) {
    int r = i / 40, c = i % 40;
    out[c * 37 + (36 - r)] = in[i];
  }
}
extern "C" __global__ void cd_u8_scale(const unsigned char *__restrict__ in, float *__restrict__ out, float s,
                                       unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    unsigned r = i / 40u, c = i % 40u;
    out[c * 37u + r] = in[i] * s;
  }
}

// NCHW -> NHWC, N = 2, C = 37, H * W = 40 (two splits), and with H = 4,
// W = 10 apart (three radices).
extern "C" __global__ void cd_nchw(const float *__restrict__ in, float *__restrict__ out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < 2 * 37 * 40) {
    int p = i % 40, c = (i / 40) % 37, n = i / (40 * 37);
    out[(n * 40 + p) * 37 + c] = in[i];
  }
}
extern "C" __global__ void cd_nchw3(const float *__restrict__ in, float *__restrict__ out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < 2 * 37 * 4 * 40) {
    int w = i % 40, h = (i / 40) % 4, c = (i / 160) % 37, n = i / (160 * 37);
    out[((n * 4 + h) * 40 + w) * 37 + c] = in[i];
  }
}
// NHWC -> NCHW, C = 64 (the channel a power of two), H * W = 40.
extern "C" __global__ void cd_nhwc(const float *__restrict__ in, float *__restrict__ out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < 2 * 64 * 40) {
    int c = i % 64, p = (i / 64) % 40, n = i / (64 * 40);
    out[(n * 64 + c) * 40 + p] = in[i];
  }
}

// A grid-stride loop over a compile-time range (Caffe's CUDA_KERNEL_LOOP
// with #define sizes): the loop's bound an immediate, the condition a
// thread per element (gridStrideOnce's `times`).
extern "C" __global__ void cd_gridstride(const float *__restrict__ in, float *__restrict__ out) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < 37 * 40; i += blockDim.x * gridDim.x) {
    int r = i / 40, c = i % 40;
    out[c * 37 + r] = in[i];
  }
}

// The same with a 64-bit counter (nvcc's computed trip count and a loop
// unrolled four times: the traced form), its bound an immediate too.
extern "C" __global__ void cd_gridstride64(const float *__restrict__ in, float *__restrict__ out) {
  for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < 37 * 40; i += (int64_t)blockDim.x * gridDim.x) {
    int64_t r = i / 40, c = i % 40;
    out[c * 37 + r] = in[i];
  }
}

// Refused: a width under 32 (the tiles would be mostly idle).
KERNEL(cd_thin, int, 300, 8)
