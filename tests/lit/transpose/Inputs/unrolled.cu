// Transposes written as the CUDA samples and NVIDIA's blog write the naive
// one: TILE_DIM x TILE_DIM tiles, TILE_DIM x BLOCK_ROWS threads, each
// thread looping over its rows y, y + BLOCK_ROWS, ...; nvcc unrolls the
// loop into TILE_DIM / BLOCK_ROWS load-store pairs (issue 30; docs/PASSES.md,
// transpose, "Several stores"). Used by tests/lit/transpose/unrolled.test,
// unrolled-emu.test, the gpu-diff family "transpose unrolled"
// (tests/gpu/cases/transpose_unrolled.cu) and the benchmark
// (bench/transpose/transpose.cu, its "unrolled" table).
// nvcc -arch=sm_90 -O3 -ptx unrolled.cu -o unrolled.ptx
#include <cuda_fp16.h>

#define TILE_DIM 32
#define BLOCK_ROWS 8

// The CUDA samples' transposeNaive: sizes multiples of 32, no guard.
extern "C" __global__ void un_samples_f32(float *odata, const float *idata, int width, int height) {
  int xIndex = blockIdx.x * TILE_DIM + threadIdx.x;
  int yIndex = blockIdx.y * TILE_DIM + threadIdx.y;
  int index_in = xIndex + width * yIndex;
  int index_out = yIndex + height * xIndex;
  for (int i = 0; i < TILE_DIM; i += BLOCK_ROWS) odata[index_out + i] = idata[index_in + i * width];
}

// The blog's transposeNaive: a square matrix, its width from gridDim.x.
extern "C" __global__ void un_blog_f32(float *odata, const float *idata) {
  int x = blockIdx.x * TILE_DIM + threadIdx.x;
  int y = blockIdx.y * TILE_DIM + threadIdx.y;
  int width = gridDim.x * TILE_DIM;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS) odata[x * width + (y + j)] = idata[(y + j) * width + x];
}

// Element types: the same loop, in and out first as the hand kernel orders them.
#define NAIVE_LOOP(name, T)                                                                 \
  extern "C" __global__ void name(const T *in, T *out, int W, int H) {                      \
    int x = blockIdx.x * TILE_DIM + threadIdx.x;                                            \
    int y = blockIdx.y * TILE_DIM + threadIdx.y;                                            \
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS) out[x * H + (y + j)] = in[(y + j) * W + x]; \
  }
NAIVE_LOOP(un_loop_f64, double)
NAIVE_LOOP(un_loop_u16, unsigned short)
NAIVE_LOOP(un_loop_u8, unsigned char)
NAIVE_LOOP(un_loop_f32, float)

// Bounds tests inside the loop (any size): a guarded pair per row.
extern "C" __global__ void un_guard_f32(const float *in, float *out, int W, int H) {
  int x = blockIdx.x * TILE_DIM + threadIdx.x;
  int y = blockIdx.y * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
    if (x < W && y + j < H) out[x * H + (y + j)] = in[(y + j) * W + x];
}

// The column test once, outside the loop; 64-bit elements.
extern "C" __global__ void un_guard_x_f64(const double *in, double *out, int W, int H) {
  int x = blockIdx.x * TILE_DIM + threadIdx.x;
  int y = blockIdx.y * TILE_DIM + threadIdx.y;
  if (x >= W) return;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
    if (y + j < H) out[(size_t)x * H + (y + j)] = in[(size_t)(y + j) * W + x];
}

// Per-element work: a scale, and float to half.
extern "C" __global__ void un_scale_f32(const float *in, float *out, int W, int H, float s) {
  int x = blockIdx.x * TILE_DIM + threadIdx.x;
  int y = blockIdx.y * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
    if (x < W && y + j < H) out[x * H + (y + j)] = in[(y + j) * W + x] * s;
}
extern "C" __global__ void un_f32_to_f16(const float *in, __half *out, int W, int H) {
  int x = blockIdx.x * TILE_DIM + threadIdx.x;
  int y = blockIdx.y * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
    if (x < W && y + j < H) out[x * H + (y + j)] = __float2half_rn(in[(y + j) * W + x]);
}

// The reverse (gather) form: coalesced stores, strided loads.
extern "C" __global__ void un_gather_f32(const float *in, float *out, int W, int H) {
  int x = blockIdx.x * TILE_DIM + threadIdx.x;
  int y = blockIdx.y * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
    if (x < H && y + j < W) out[(y + j) * H + x] = in[x * W + (y + j)];
}

// Two matrices per pair: (A + B)^T.
extern "C" __global__ void un_sum_t(const float *a, const float *b, float *out, int W, int H) {
  int x = blockIdx.x * TILE_DIM + threadIdx.x;
  int y = blockIdx.y * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
    if (x < W && y + j < H) out[x * H + (y + j)] = a[(y + j) * W + x] + b[(y + j) * W + x];
}

// 16 x 16 tiles in 16 x 4 blocks: no clone shape (the original runs).
extern "C" __global__ void un_tile16_f32(const float *in, float *out, int W, int H) {
  int x = blockIdx.x * 16 + threadIdx.x;
  int y = blockIdx.y * 16 + threadIdx.y;
  for (int j = 0; j < 16; j += 4)
    if (x < W && y + j < H) out[x * H + (y + j)] = in[(y + j) * W + x];
}

// ---- lookalikes, refused
// Pairs alternating between two output arrays.
extern "C" __global__ void un_two_outputs(const float *in, float *o0, float *o1, int W, int H) {
  int x = blockIdx.x * TILE_DIM + threadIdx.x;
  int y = blockIdx.y * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS) ((j & 8) ? o1 : o0)[x * H + (y + j)] = in[(y + j) * W + x];
}
// In place: it reads the array it writes.
extern "C" __global__ void un_inplace(float *a, int N) {
  int x = blockIdx.x * TILE_DIM + threadIdx.x;
  int y = blockIdx.y * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
    if (x < N && y + j < N) a[x * N + (y + j)] = a[(y + j) * N + x] + 1.0f;
}
// Each pair also stores along the rows (one coalesced store, one strided).
extern "C" __global__ void un_mixed(const float *in, float *out, int W, int H) {
  int x = blockIdx.x * TILE_DIM + threadIdx.x;
  int y = blockIdx.y * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS) {
    float v = in[(y + j) * W + x];
    out[x * H + (y + j)] = v;
    out[W * H + (y + j) * W + x] = v;
  }
}
// Neighbours: each pair reads two elements of a row (8 loads for 4 stores).
extern "C" __global__ void un_neighbours(const float *in, float *out, int W, int H) {
  int x = blockIdx.x * TILE_DIM + threadIdx.x;
  int y = blockIdx.y * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
    if (x + 1 < W && y + j < H) out[x * H + (y + j)] = in[(y + j) * W + x] + in[(y + j) * W + x + 1];
}
