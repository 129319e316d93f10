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
// or on a shifted row index: (row << 15) | 32 | threadIdx.x. With at most
// 32 threads per block the three fields cannot overlap: + 32 + %tid.x.
__global__ void __launch_bounds__(32) or_shifted32(const float *in, float *out, int row) {
  int i = (row << 10) | 1;
  out[(row << 10) + threadIdx.x] = in[(i << 5) | threadIdx.x];
}
// The same with up to 1024 threads: %tid.x may have bit 5 set, so the or
// is not an addition: unknown.
__global__ void or_shifted(const float *in, float *out, int row) {
  int i = (row << 10) | 1;
  out[(row << 10) + threadIdx.x] = in[(i << 5) | threadIdx.x];
}
// A 64-bit offset that is a multiple of 16384 or'ed with 8: + 8 bytes. The
// pointer or'ed with 8 is not: its alignment is unknown.
__global__ void or_offset(const char *in, char *out, long tile) {
  const char *p = in + (tile << 14);
  uintptr_t q = reinterpret_cast<uintptr_t>(p) | 8;
  long off = (tile << 14) | 8;
  out[off + threadIdx.x] = in[off + threadIdx.x] + *reinterpret_cast<const char *>(q);
}
// Triton-style: a block of 128 elements, offsets (pid << 7) | lane, with
// 128 threads; xor with a constant below the shift is an addition too.
__global__ void __launch_bounds__(128) xor_tile(const float *in, float *out) {
  unsigned off = (blockIdx.x << 7) | threadIdx.x;
  unsigned off2 = (blockIdx.x << 8) ^ (threadIdx.x | 128);
  out[off] = in[off2];
}
// (i << 3) >> 3 keeps the low 29 bits of i: not i unless i < 2^29, which
// the launch does not bound (gridDim.x*blockDim.x may exceed it): unknown.
__global__ void shr_wrap(const unsigned *in, unsigned *out) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[(i << 3) >> 3];
}
// Lane and warp from %tid.x: tid & 31 and tid >> 5 are not affine in
// %tid.x: lane*32 + warp (a transpose within the block) stays unknown.
__global__ void lane_warp(const float *in, float *out) {
  int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  out[threadIdx.x] = in[lane * 32 + warp];
}
// Within one warp of a 32-thread block, threadIdx.x & 31 is threadIdx.x.
__global__ void __launch_bounds__(32) lane_only(const float *in, float *out) {
  int lane = threadIdx.x & 31;
  out[blockIdx.x * 32 + lane] = in[blockIdx.x * 32 + (lane ^ 0)];
}
