// Row walks that store along the row they walk (issue 29; docs/PASSES.md,
// rowwalk, "Stores along a row"): in place (`a[i*n + j] *= s`), into a row
// of another array (`y[i*n + j] = f(x[i*n + j])`), recurrences that keep
// the last value in a register (deriche's causal pass), and the softmax a
// thread per row writes, and rows walked down (deriche's anti-causal pass,
// a sum from the row's end). The staged clone writes each stored row into the
// lane's row of the tile and the warp writes the tile back with coalesced
// 16-byte stores after each tile's body copies. A scan that reads back the
// element it stored in the previous iteration (refused until the
// twenty-fourth session; Inputs/scans.cu has the family). Lookalikes that
// must stay refused: a store under a guard, floyd-warshall's step (it reads
// a[i*n + k] of the row it stores), a shift (the stores and the loads of
// one row at different offsets). tests/lit/rowwalk/rowstores.test checks
// the clones, rowstores-emu.test runs them on the CPU, gpu-diff's "rowwalk
// rowstores" cases on the GPU (tests/gpu/cases/rowwalkrowstores.cu
// includes this file).
// Compiled with: nvcc -arch=sm_90 -O3 -ptx rowstores.cu -o rowstores.ptx

#include <cuda_fp16.h>

// In place, int index: each row scaled.
extern "C" __global__ void scale_f32(float *a, int rows, int n, float s) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < rows)
    for (int j = 0; j < n; j++) a[i * n + j] *= s;
}

// Into another array, unsigned index.
extern "C" __global__ void affine_u32(const float *x, float *y, unsigned rows, unsigned n, float s, float t) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < rows)
    for (unsigned j = 0; j < n; j++) y[i * n + j] = x[i * n + j] * s + t;
}

// In place beside another array's row, 64-bit pointers.
extern "C" __global__ void add_i32(int *a, const int *b, int rows, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < rows) {
    int *ra = a + (size_t)i * n;
    const int *rb = b + (size_t)i * n;
    for (int j = 0; j < n; j++) ra[j] = ra[j] * 3 + rb[j];
  }
}

// Deriche's causal pass: the output's last value kept in a register, the
// input's reloaded after each store (the compiler cannot keep them apart).
extern "C" __global__ void causal_f32(const float *in, float *y, int rows, int n, float a1, float a2, float b1,
                                      float b2) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= rows) return;
  float ym1 = 0.0f, ym2 = 0.0f, xm1 = 0.0f;
  for (int j = 0; j < n; j++) {
    y[i * n + j] = a1 * in[i * n + j] + a2 * xm1 + b1 * ym1 + b2 * ym2;
    xm1 = in[i * n + j];
    ym2 = ym1;
    ym1 = y[i * n + j];
  }
}

// Two rows read, one written (deriche's last loop: out = c * (y1 + y2)).
extern "C" __global__ void sum2_f32(const float *y1, const float *y2, float *out, int rows, int n, float c) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < rows)
    for (int j = 0; j < n; j++) out[i * n + j] = c * (y1[i * n + j] + y2[i * n + j]);
}

// Softmax, a thread per row: the maximum, the sum of exponentials, the row written.
extern "C" __global__ void softmax_f32(const float *x, float *y, int rows, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= rows) return;
  const float *r = x + (size_t)i * n;
  float m = r[0];
  for (int j = 1; j < n; j++) m = fmaxf(m, r[j]);
  float s = 0.0f;
  for (int j = 0; j < n; j++) s += __expf(r[j] - m);
  float inv = 1.0f / s;
  float *o = y + (size_t)i * n;
  for (int j = 0; j < n; j++) o[j] = __expf(r[j] - m) * inv;
}

// Doubles normalized in place by their row's norm.
extern "C" __global__ void normalize_f64(double *a, int rows, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= rows) return;
  double s = 0.0;
  for (int j = 0; j < n; j++) s += a[(size_t)i * n + j] * a[(size_t)i * n + j];
  double inv = 1.0 / sqrt(s);
  for (int j = 0; j < n; j++) a[(size_t)i * n + j] *= inv;
}

// Shorts in place (a row of 16-bit elements stored).
extern "C" __global__ void clamp_s16(short *a, int rows, int n, short lo, short hi) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < rows)
    for (int j = 0; j < n; j++) {
      short v = a[(size_t)i * n + j];
      a[(size_t)i * n + j] = v < lo ? lo : v > hi ? hi : v;
    }
}

// Walked down (the tiles go down the row): deriche's anti-causal pass, its
// row length a compile-time constant as in PolyBench (with a runtime one
// nvcc puts the n % 4 remainder before the unrolled loop, whose start the
// access analysis cannot place: refused, revsum_rt_f32 below).
#define RN 512
extern "C" __global__ void anticausal_f32(const float *in, float *y, int rows, float a3, float a4, float b1,
                                          float b2) {
  const int n = RN;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= rows) return;
  float yp1 = 0.0f, yp2 = 0.0f, xp1 = 0.0f, xp2 = 0.0f;
  for (int j = n - 1; j >= 0; j--) {
    y[i * n + j] = a3 * xp1 + a4 * xp2 + b1 * yp1 + b2 * yp2;
    xp2 = xp1;
    xp1 = in[i * n + j];
    yp2 = yp1;
    yp1 = y[i * n + j];
  }
}

// Walked down, read only: a row summed from its end (the order kept: exact).
extern "C" __global__ void revsum_f32(const float *a, float *s, int rows) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= rows) return;
  const float *r = a + (size_t)i * RN;
  float t = 0.0f;
  for (int j = RN - 1; j >= 0; j--) t = t * 0.5f + r[j];
  s[i] = t;
}

// Refused: the same with a runtime row length (see above).
extern "C" __global__ void revsum_rt_f32(const float *a, float *s, int rows, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= rows) return;
  const float *r = a + (size_t)i * n;
  float t = 0.0f;
  for (int j = n - 1; j >= 0; j--) t = t * 0.5f + r[j];
  s[i] = t;
}

// Reversed into another array: the store goes up, the load down (read
// from global memory as before, its allocation kept apart).
extern "C" __global__ void reverse_f32(const float *in, float *out, int rows, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < rows)
    for (int j = 0; j < n; j++) out[(size_t)i * n + j] = in[(size_t)i * n + (n - 1 - j)];
}

// Stores under a guard on the data, in place: the loop reads every element
// unconditionally, so the write-back may write the ones it did not store
// (unchanged: another thread writing one would race with this one's read).
extern "C" __global__ void relu_rows(float *a, int rows, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < rows)
    for (int j = 0; j < n; j++) {
      float v = a[(size_t)i * n + j];
      if (v < 0.0f) a[(size_t)i * n + j] = 0.0f;
    }
}

extern "C" __global__ void clampbr_rows(float *a, int rows, int n, float t) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < rows)
    for (int j = 0; j < n; j++) {
      float v = a[i * n + j];
      if (v > t) a[i * n + j] = t * 0.5f + v * 0.25f;
    }
}

// A scan: reads back the element it stored in the previous iteration (the
// unaligned clone: its pieces start one element past the row).
extern "C" __global__ void scan_i32(int *a, int rows, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < rows)
    for (int j = 1; j < n; j++) a[i * n + j] += a[i * n + j - 1];
}

// Refused: a store under a guard on indices whose load is guarded too (the
// write-back would write elements the loop never reads, which another
// thread could be writing).
extern "C" __global__ void skip3_f32(float *a, int rows, int n, float s) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < rows)
    for (int j = 0; j < n; j++)
      if (j % 3) a[i * n + j] *= s;
}

// Refused: floyd-warshall's row step reads a[i*n + k] of the row it stores.
extern "C" __global__ void fw_rows(int *p, int rows, int n, int k) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < rows && i != k)
    for (int j = 0; j < n; j++) p[i * n + j] = min(p[i * n + j], p[i * n + k] + p[k * n + j]);
}

// Refused: a shift within one row (loads and stores at different offsets).
extern "C" __global__ void shift_f32(float *a, int rows, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < rows)
    for (int j = 0; j + 1 < n; j++) a[(size_t)i * n + j] = a[(size_t)i * n + j + 1];
}

// Halves stored along a row (NCHW to NHWC, the channels in the thread,
// heldout5's nchw_to_nhwc_half): the staged clone; no unaligned clone (its
// write-back writes a row's first and 17th pieces by 32-bit word, and a
// half may share its word with the row below).
extern "C" __global__ void to_nhwc_half(const __half *in, __half *out, int C, int HW) {
  int p = blockIdx.x * blockDim.x + threadIdx.x;
  if (p < HW)
    for (int c = 0; c < C; ++c) out[(size_t)p * C + c] = in[(size_t)c * HW + p];
}
