// Flat transposes and permutes with a 64-bit index (issue 30; TransposeWide.cpp):
// `size_t i` or `int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x`,
// split with / and % by 64-bit values, which nvcc divides through its 32-bit
// fast path (a branch on (a | b) >> 32). tests/lit/transpose/wide.test checks
// the clones, wide-emu.test runs them on the CPU, gpu-diff's "transpose wide"
// cases on the GPU (tests/gpu/cases/transpose_wide.cu).
// Compiled with: nvcc -arch=sm_90 -O3 -ptx wide.cu -o wide.ptx
#include <cstddef>
#include <cstdint>

// The naive transpose, size_t throughout.
extern "C" __global__ void wide_sizet(const float *__restrict__ in, float *__restrict__ out, size_t H, size_t W) {
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (i < H * W) {
    size_t r = i / W, c = i % W;
    out[c * H + r] = in[i];
  }
}

// An int64_t index over int sizes (widened by cvt.s64.s32), an early return.
extern "C" __global__ void wide_int_params(const float *__restrict__ in, float *__restrict__ out, int H, int W) {
  int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
  if (i >= (int64_t)H * W) return;
  int64_t r = i / W, c = i % W;
  out[c * H + r] = in[i];
}

// Bytes, the quotient only (the remainder as i - r * W).
extern "C" __global__ void wide_u8(const unsigned char *__restrict__ in, unsigned char *__restrict__ out, size_t H,
                                   size_t W) {
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (i >= H * W) return;
  size_t r = i / W;
  size_t c = i - r * W;
  out[c * H + r] = in[i];
}

// 64-bit elements, a gather (the store in order, the load along the column).
extern "C" __global__ void wide_gather_f64(const double *__restrict__ in, double *__restrict__ out, int64_t H,
                                           int64_t W) {
  int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
  if (i < H * W) out[i] = in[(i % W) * H + i / W];
}

// A 90-degree rotation of an RGBA image (32-bit pixels), with a scale of
// another array read at the store's position.
extern "C" __global__ void wide_rot90(const unsigned *__restrict__ in, unsigned *__restrict__ out, size_t H, size_t W) {
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (i >= H * W) return;
  size_t y = i / W, x = i % W;
  out[x * H + (H - 1 - y)] = in[i];
}

// NCHW -> NHWC, int64_t throughout (three splits: w, h, c, n).
extern "C" __global__ void wide_nchw_nhwc(const float *__restrict__ in, float *__restrict__ out, int64_t N, int64_t C,
                                          int64_t H, int64_t W) {
  int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
  if (i >= N * C * H * W) return;
  int64_t w = i % W, h = (i / W) % H, c = (i / (W * H)) % C, n = i / (W * H * C);
  out[((n * H + h) * W + w) * C + c] = in[i];
}

// The same with int sizes and an int64_t index (products by mul.wide.s32).
extern "C" __global__ void wide_nchw_int(const float *__restrict__ in, float *__restrict__ out, int N, int C, int H,
                                         int W) {
  int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
  if (i >= (int64_t)N * C * H * W) return;
  int64_t w = i % W, h = (i / W) % H, c = (i / ((int64_t)W * H)) % C, n = i / ((int64_t)W * H * C);
  out[((n * H + h) * W + w) * C + c] = in[i];
}

// NCHW -> NHWC with the plane one parameter (two splits), a bound of its own.
extern "C" __global__ void wide_nchw_hw(const float *__restrict__ in, float *__restrict__ out, int64_t C, int64_t HW,
                                        int64_t total) {
  int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
  if (i >= total) return;
  int64_t hw = i % HW, c = (i / HW) % C, n = i / (HW * C);
  out[(n * HW + hw) * C + c] = in[i];
}

// NHWC -> NCHW, read in order (c, hw, n): the load along c, the store along hw.
extern "C" __global__ void wide_nhwc_nchw(const float *__restrict__ in, float *__restrict__ out, int64_t C, int64_t HW,
                                          int64_t total) {
  int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
  if (i >= total) return;
  int64_t c = i % C, hw = (i / C) % HW, n = i / (C * HW);
  out[(n * C + c) * HW + hw] = in[i];
}

// A 32-bit index over size_t sizes: unsigned (nvcc's fast path then tests
// the divisor alone: the index is known to fit) and int.
extern "C" __global__ void wide_u32_index(const float *__restrict__ in, float *__restrict__ out, size_t H, size_t W) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < H * W) out[(i % W) * H + i / W] = in[i];
}
extern "C" __global__ void wide_int_index(const float *__restrict__ in, float *__restrict__ out, size_t H, size_t W) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < H * W) out[(i % W) * H + i / W] = in[i];
}

// Lookalikes, refused: in place (reads the array it writes), and a copy
// whose store follows the load (coalesced: no clone, no remark).
extern "C" __global__ void wide_inplace(float *a, size_t H, size_t W) {
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (i < H * W) a[(i % W) * H + i / W] = a[i] * 2.0f;
}
extern "C" __global__ void wide_rowcopy(const float *__restrict__ in, float *__restrict__ out, size_t H, size_t W) {
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (i < H * W) out[(i / W) * W + i % W] = in[i] + 1.0f;
}
