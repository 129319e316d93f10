// The transpose pass's coverage sweep (issue 30): transposes, rotations,
// permutes and transposes fused with per-element work written the way users
// write them, and lookalikes that must be refused. Compiled with
//   nvcc -arch=sm_90 -O3 -ptx sweep.cu -o sweep.ptx
// (nvcc 13.0). tests/lit/transpose/sweep.test tabulates what the pass does
// with each (a clone, or the remark), docs/PASSES.md the table.
#include <cstdint>
#include <cuda_fp16.h>

// ---- index arithmetic
// size_t indices computed from int sizes.
extern "C" __global__ void sw_size_t(const float *in, float *out, int W, int H) {
  size_t x = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  size_t y = (size_t)blockIdx.y * blockDim.y + threadIdx.y;
  if (x < (size_t)W && y < (size_t)H) out[x * H + y] = in[y * W + x];
}
// long long everything.
extern "C" __global__ void sw_longlong(const float *in, float *out, long long W, long long H) {
  long long x = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  long long y = blockIdx.y * (long long)blockDim.y + threadIdx.y;
  if (x < W && y < H) out[x * H + y] = in[y * W + x];
}
// unsigned everything.
extern "C" __global__ void sw_unsigned(const float *in, float *out, unsigned W, unsigned H) {
  unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < W && y < H) out[x * H + y] = in[y * W + x];
}
// Compile-time sizes (a template instantiated for 1000 x 600).
template <int W, int H> __device__ void transposeFixed(const float *in, float *out) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < W && y < H) out[x * H + y] = in[y * W + x];
}
extern "C" __global__ void sw_const_1000x600(const float *in, float *out) { transposeFixed<1000, 600>(in, out); }
// __restrict__ and __ldg.
extern "C" __global__ void sw_ldg(const float *__restrict__ in, float *__restrict__ out, int W, int H) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < W && y < H) out[x * H + y] = __ldg(&in[y * W + x]);
}
// Row strides (pitches, in elements) different from the widths.
extern "C" __global__ void sw_pitch(const float *in, float *out, int W, int H, int ldIn, int ldOut) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < W && y < H) out[x * ldOut + y] = in[y * ldIn + x];
}
// A pitch in bytes (cudaMallocPitch).
extern "C" __global__ void sw_pitch_bytes(const float *in, size_t inPitch, float *out, size_t outPitch, int W,
                                          int H) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < W && y < H) {
    const float *row = (const float *)((const char *)in + y * inPitch);
    float *col = (float *)((char *)out + x * outPitch);
    col[y] = row[x];
  }
}
// A batch of matrices, the batch index in blockIdx.z.
extern "C" __global__ void sw_batch_z(const float *in, float *out, int W, int H) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  in += (size_t)blockIdx.z * W * H;
  out += (size_t)blockIdx.z * W * H;
  if (x < W && y < H) out[x * H + y] = in[y * W + x];
}
// The bounds test as an early return.
extern "C" __global__ void sw_early_return(const float *in, float *out, int W, int H) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= W || y >= H) return;
  out[x * H + y] = in[y * W + x];
}
// A bound on one side only (H a multiple of the block).
extern "C" __global__ void sw_guard_x_only(const float *in, float *out, int W, int H) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < W) out[x * H + y] = in[y * W + x];
}
// No bounds test at all (sizes multiples of the block).
extern "C" __global__ void sw_unguarded(const float *in, float *out, int W, int H) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  out[x * H + y] = in[y * W + x];
}
// Sizes in a struct passed by value.
struct Dims {
  int W, H;
};
extern "C" __global__ void sw_struct_dims(const float *in, float *out, Dims d) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < d.W && y < d.H) out[x * d.H + y] = in[y * d.W + x];
}
// Constant block extents in the index (launched with 16 x 16 blocks).
extern "C" __global__ void sw_const_block16(const float *in, float *out, int W, int H) {
  int x = blockIdx.x * 16 + threadIdx.x;
  int y = blockIdx.y * 16 + threadIdx.y;
  if (x < W && y < H) out[x * H + y] = in[y * W + x];
}
// A 2-D grid-stride loop over the matrix.
extern "C" __global__ void sw_grid_stride(const float *in, float *out, int W, int H) {
  for (int y = blockIdx.y * blockDim.y + threadIdx.y; y < H; y += blockDim.y * gridDim.y)
    for (int x = blockIdx.x * blockDim.x + threadIdx.x; x < W; x += blockDim.x * gridDim.x)
      out[x * H + y] = in[y * W + x];
}
// The rows in threadIdx.y, the output written row by row (the gather form).
extern "C" __global__ void sw_gather_rowcol(const float *in, float *out, int rows, int cols) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row < rows && col < cols) out[row * cols + col] = in[col * rows + row];
}
// A sub-matrix of a larger one (offsets and leading dimensions).
extern "C" __global__ void sw_submatrix(const float *in, float *out, int W, int H, int ldIn, int ldOut, int i0,
                                        int j0) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < W && y < H) out[x * ldOut + y] = in[(y + i0) * ldIn + x + j0];
}
// A 1-D launch, the position from a division by the width.
extern "C" __global__ void sw_linear_1d(const float *in, float *out, int W, int H) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < W * H) {
    int x = i % W, y = i / W;
    out[x * H + y] = in[i];
  }
}

// ---- element types
extern "C" __global__ void sw_f64(const double *in, double *out, int W, int H) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < W && y < H) out[x * H + y] = in[y * W + x];
}
extern "C" __global__ void sw_half(const __half *in, __half *out, int W, int H) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < W && y < H) out[x * H + y] = in[y * W + x];
}
extern "C" __global__ void sw_uchar4(const uchar4 *in, uchar4 *out, int W, int H) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < W && y < H) out[x * H + y] = in[y * W + x];
}
extern "C" __global__ void sw_float2(const float2 *in, float2 *out, int W, int H) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < W && y < H) out[x * H + y] = in[y * W + x];
}
extern "C" __global__ void sw_i64(const int64_t *in, int64_t *out, int W, int H) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < W && y < H) out[x * H + y] = in[y * W + x];
}
// RGB pixels (3 bytes, three loads).
extern "C" __global__ void sw_uchar3(const uchar3 *in, uchar3 *out, int W, int H) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < W && y < H) out[x * H + y] = in[y * W + x];
}

// ---- per-element work
// The conjugate transpose of a complex matrix (float2, double2).
extern "C" __global__ void sw_conj_c64(const float2 *in, float2 *out, int W, int H) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < W && y < H) {
    float2 v = in[y * W + x];
    out[x * H + y] = make_float2(v.x, -v.y);
  }
}
extern "C" __global__ void sw_conj_c128(const double2 *in, double2 *out, int W, int H) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < W && y < H) {
    double2 v = in[y * W + x];
    out[x * H + y] = make_double2(v.x, -v.y);
  }
}
// Negate and scale (alpha * -A^T), in double.
extern "C" __global__ void sw_neg_scale_f64(const double *in, double *out, int W, int H, double alpha) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < W && y < H) out[x * H + y] = -alpha * in[y * W + x];
}
// out = alpha * A^T + beta * B (geam), __restrict__.
extern "C" __global__ void sw_geam(const float *__restrict__ A, const float *__restrict__ B, float *__restrict__ C,
                                   int W, int H, float alpha, float beta) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < W && y < H) C[x * H + y] = alpha * A[y * W + x] + beta * B[x * H + y];
}
// (A + B)^T: two arrays read at one position, a tile each.
extern "C" __global__ void sw_sum_t(const float *A, const float *B, float *out, int W, int H) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < W && y < H) out[x * H + y] = A[y * W + x] + B[y * W + x];
}
// Planar real and imaginary parts into a transposed interleaved complex matrix.
extern "C" __global__ void sw_planar_c64(const float *re, const float *im, float2 *out, int W, int H) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < W && y < H) out[x * H + y] = make_float2(re[y * W + x], im[y * W + x]);
}
// Three float4 arrays: three tiles of 16-byte elements would need 50688
// bytes of shared memory, over the 48 KB a block may declare: refused.
extern "C" __global__ void sw_sum3_f4(const float4 *A, const float4 *B, const float4 *C, float4 *out, int W, int H) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < W && y < H) {
    float4 a = A[y * W + x], b = B[y * W + x], c = C[y * W + x];
    out[x * H + y] = make_float4(a.x + b.x + c.x, a.y + b.y + c.y, a.z + b.z + c.z, a.w + b.w + c.w);
  }
}
// Bytes to normalized floats ((v - mean) * scale).
extern "C" __global__ void sw_u8_norm(const unsigned char *in, float *out, int W, int H, float mean, float scale) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < W && y < H) out[x * H + y] = (in[y * W + x] - mean) * scale;
}
// float to half and half to float.
extern "C" __global__ void sw_f32_to_f16(const float *in, __half *out, int W, int H) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < W && y < H) out[x * H + y] = __float2half(in[y * W + x]);
}
extern "C" __global__ void sw_f16_to_f32(const __half *in, float *out, int W, int H) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < W && y < H) out[x * H + y] = __half2float(in[y * W + x]);
}
// A ReLU and an exp on the way.
extern "C" __global__ void sw_relu_exp(const float *in, float *out, int W, int H) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < W && y < H) out[x * H + y] = expf(fmaxf(in[y * W + x], 0.0f));
}
// Half arithmetic (cuda_fp16.h's inline asm in { } scopes): a scale.
extern "C" __global__ void sw_half_scale(const __half *in, __half *out, int W, int H, float s) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < W && y < H) out[x * H + y] = __hmul(in[y * W + x], __float2half(s));
}
// Inline asm with a register of its own in a { } scope: refused (the clones
// would need the scope's registers renamed).
extern "C" __global__ void sw_asm_scope(const float *in, float *out, int W, int H) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < W && y < H) {
    float v = in[y * W + x], r;
    asm("{ .reg .f32 t; mul.f32 t, %1, 0f40000000; add.f32 %0, t, %1; }" : "=f"(r) : "f"(v));
    out[x * H + y] = r;
  }
}
// A value-dependent result (a threshold).
extern "C" __global__ void sw_threshold(const float *in, unsigned char *out, int W, int H, float t) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < W && y < H) out[x * H + y] = in[y * W + x] > t ? 255 : 0;
}

// ---- rotations and permutes
// 90 degrees clockwise and 270 (counter-clockwise), W x H into H x W.
extern "C" __global__ void sw_rot90(const float *in, float *out, int W, int H) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < W && y < H) out[x * H + (H - 1 - y)] = in[y * W + x];
}
extern "C" __global__ void sw_rot270(const float *in, float *out, int W, int H) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < W && y < H) out[(W - 1 - x) * H + y] = in[y * W + x];
}
// NCHW -> NHWC, C a runtime parameter, n in blockIdx.z, int arithmetic.
extern "C" __global__ void sw_nchw_nhwc(const float *in, float *out, int C, int H, int W) {
  int hw = blockIdx.x * blockDim.x + threadIdx.x;
  int c = blockIdx.y * blockDim.y + threadIdx.y;
  int n = blockIdx.z;
  if (hw < H * W && c < C) out[(n * H * W + hw) * C + c] = in[(n * C + c) * H * W + hw];
}
// NHWC -> NCHW of half-precision activations.
extern "C" __global__ void sw_nhwc_nchw_half(const __half *in, __half *out, int C, int HW) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  int hw = blockIdx.y * blockDim.y + threadIdx.y;
  int n = blockIdx.z;
  if (c < C && hw < HW) out[((size_t)n * C + c) * HW + hw] = in[((size_t)n * HW + hw) * C + c];
}

// ---- lookalikes that must be refused
// In place, a square matrix swapped across the diagonal (two stores).
extern "C" __global__ void sw_inplace_swap(float *a, int N) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < N && y < x) {
    float t = a[y * N + x];
    a[y * N + x] = a[x * N + y];
    a[x * N + y] = t;
  }
}
// In place, out-of-place shape (reads what it writes).
extern "C" __global__ void sw_inplace(float *a, int N) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < N && y < N) a[x * N + y] = a[y * N + x];
}
// A stencil: a transposed output of neighbours' sum.
extern "C" __global__ void sw_stencil(const float *in, float *out, int W, int H) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x > 0 && x + 1 < W && y < H) out[x * H + y] = in[y * W + x - 1] + in[y * W + x] + in[y * W + x + 1];
}
// An atomic store.
extern "C" __global__ void sw_atomic_max(const int *in, int *out, int W, int H) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < W && y < H) atomicMax(&out[x * H + y], in[y * W + x]);
}
// One matrix read at two positions: the symmetric part (A + A^T) / 2. Not
// a lookalike after all: the second read is coalesced along the store's
// index, so the transpose pass alone tiles A and reads A^T directly
// (bit-identical); -O2 keeps coalesce's swap.
extern "C" __global__ void sw_symmetric(const float *in, float *out, int N) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < N && y < N) out[x * N + y] = 0.5f * (in[y * N + x] + in[x * N + y]);
}
// Two elements of one row of the output read by each thread (the element
// and its mirror): two loads would need the tile.
extern "C" __global__ void sw_read_twice(const float *in, float *out, int W, int H) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < W && y < H) out[x * H + y] = in[y * W + x] - in[(H - 1 - y) * W + x];
}
// A store only where the value is non-zero (a branch on the loaded value,
// after the load: handled).
extern "C" __global__ void sw_store_nonzero(const float *in, float *out, int W, int H) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < W && y < H) {
    float v = in[y * W + x];
    if (v != 0.0f) out[x * H + y] = v;
  }
}
// The pointers in a struct passed by value (one parameter: no launch
// condition can say the arrays are disjoint).
struct Args {
  const float *in;
  float *out;
  int W, H;
};
extern "C" __global__ void sw_struct_ptrs(Args a) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < a.W && y < a.H) a.out[x * a.H + y] = a.in[y * a.W + x];
}
