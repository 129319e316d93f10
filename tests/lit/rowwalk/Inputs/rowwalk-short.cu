// Rows of 8- and 16-bit elements summed into 32-bit integers (and a
// __half row summed into a float) for the rowwalk pass's staged clone
// (tests/lit/rowwalk/short.test; issue 29, item 4; RowWalkShort.cpp).
// Compiled with
//   nvcc -arch=sm_90 -O3 -ptx rowwalk-short.cu -o rowwalk-short.ptx
// (nvcc 13.0). The same kernels run on the GPU in
// tests/gpu/cases/rowwalkshort.cu and in bench/rowwalk/index32.cu --short.
// nvcc unrolls each loop by 4 (by 8 for the constant row of 1000): an
// iteration reads 4 bytes of chars or 8 of shorts.
#include <cuda_fp16.h>

// 64-bit pointer walks (size_t row index), runtime row length.
extern "C" __global__ void rowsum_ptr_u8(const unsigned char *a, int *y, unsigned n, unsigned N) {
  size_t r = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (r < n) {
    const unsigned char *row = a + r * N;
    int acc = 0;
    for (size_t i = 0; i < N; i++) acc += row[i];
    y[r] = acc;
  }
}

extern "C" __global__ void rowsum_ptr_s8(const signed char *a, int *y, unsigned n, unsigned N) {
  size_t r = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (r < n) {
    const signed char *row = a + r * N;
    int acc = 0;
    for (size_t i = 0; i < N; i++) acc += row[i];
    y[r] = acc;
  }
}

extern "C" __global__ void rowsum_ptr_u16(const unsigned short *a, int *y, unsigned n, unsigned N) {
  size_t r = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (r < n) {
    const unsigned short *row = a + r * N;
    int acc = 0;
    for (size_t i = 0; i < N; i++) acc += row[i];
    y[r] = acc;
  }
}

extern "C" __global__ void rowsum_ptr_s16(const short *a, int *y, unsigned n, unsigned N) {
  size_t r = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (r < n) {
    const short *row = a + r * N;
    int acc = 0;
    for (size_t i = 0; i < N; i++) acc += row[i];
    y[r] = acc;
  }
}

// 32-bit unsigned indices: `a[r * N + i]` (bytes: cvt.u64.u32 without a
// multiply; shorts: mul.wide.u32 by 2).
extern "C" __global__ void rowsum_u32_u8(const unsigned char *a, int *y, unsigned n, unsigned N) {
  unsigned r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < n) {
    int acc = 0;
    for (unsigned i = 0; i < N; i++) acc += a[r * N + i];
    y[r] = acc;
  }
}

extern "C" __global__ void rowsum_u32_s8(const signed char *a, int *y, unsigned n, unsigned N) {
  unsigned r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < n) {
    int acc = 0;
    for (unsigned i = 0; i < N; i++) acc += a[r * N + i];
    y[r] = acc;
  }
}

extern "C" __global__ void rowsum_u32_u16(const unsigned short *a, int *y, unsigned n, unsigned N) {
  unsigned r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < n) {
    int acc = 0;
    for (unsigned i = 0; i < N; i++) acc += a[r * N + i];
    y[r] = acc;
  }
}

extern "C" __global__ void rowsum_u32_s16(const short *a, int *y, unsigned n, unsigned N) {
  unsigned r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < n) {
    int acc = 0;
    for (unsigned i = 0; i < N; i++) acc += a[r * N + i];
    y[r] = acc;
  }
}

// An `int` index over an unsigned counter (sign-extended: cvt.s64.s32).
extern "C" __global__ void rowsum_s32_u8(const unsigned char *a, int *y, int n, int N) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < n) {
    int acc = 0;
    for (unsigned i = 0; i < N; i++) {
      int idx = r * N + (int)i;
      acc += a[idx];
    }
    y[r] = acc;
  }
}

// A constant row length (1024 bytes: unrolled by 4; 1000: by 8, two
// windows of 4 per iteration).
extern "C" __global__ void rowsum_c1024_u8(const unsigned char *a, int *y, int n) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < n) {
    int acc = 0;
    for (int i = 0; i < 1024; i++) acc += a[r * 1024 + i];
    y[r] = acc;
  }
}

extern "C" __global__ void rowsum_c1000_s8(const signed char *a, int *y, int n) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < n) {
    int acc = 0;
    for (int i = 0; i < 1000; i++) acc += a[r * 1000 + i];
    y[r] = acc;
  }
}

// A __half row summed into a float (exact: the same order).
extern "C" __global__ void rowsum_ptr_h(const __half *a, float *y, unsigned n, unsigned N) {
  size_t r = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (r < n) {
    const __half *row = a + r * N;
    float acc = 0;
    for (size_t i = 0; i < N; i++) acc += __half2float(row[i]);
    y[r] = acc;
  }
}

// Not unrolled (1 byte per iteration): refused with a remark.
extern "C" __global__ void rowsum_u8_nounroll(const unsigned char *a, int *y, unsigned n, unsigned N) {
  size_t r = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (r < n) {
    const unsigned char *row = a + r * N;
    int acc = 0;
#pragma unroll 1
    for (size_t i = 0; i < N; i++) acc += row[i];
    y[r] = acc;
  }
}

// Unrolled by 2 (2 bytes per iteration): refused with a remark.
extern "C" __global__ void rowsum_u8_unroll2(const unsigned char *a, int *y, unsigned n, unsigned N) {
  unsigned r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < n) {
    int acc = 0;
#pragma unroll 2
    for (unsigned i = 0; i < N; i++) acc += a[r * N + i];
    y[r] = acc;
  }
}

// A window of a larger array (the GPU test reaches index 2^32 - 1 with a
// small buffer): element `skip` of the whole array is a0[0].
extern "C" __global__ void rowsum_u32_u8_window(const unsigned char *a0, int *y, unsigned skip, unsigned r0,
                                                unsigned n, unsigned N) {
  const unsigned char *a = a0 - (size_t)skip;
  unsigned r = r0 + blockIdx.x * blockDim.x + threadIdx.x;
  if (r - r0 < n) {
    int acc = 0;
    for (unsigned i = 0; i < N; i++) acc += a[r * N + i];
    y[r - r0] = acc;
  }
}

// Bytes summed into a float (cvt.rn.f32.u32, add.f32): no lanes clone
// without --reassociate, so -O2 runs the staged clone.
extern "C" __global__ void rowsum_u32_u8_f32(const unsigned char *a, float *y, unsigned n, unsigned N) {
  unsigned r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < n) {
    float acc = 0;
    for (unsigned i = 0; i < N; i++) acc += a[r * N + i];
    y[r] = acc;
  }
}
