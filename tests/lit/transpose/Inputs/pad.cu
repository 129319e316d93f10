// Zero-padding transposes (issue 30): the store's guard is wider than the
// load's, so the load does not run before the store on every path
// (`out[x*Hp + y] = x < W && y < H ? in[y*W + x] : 0`). The tiled clones
// read the tile only where a logical thread reaches the load, and phase 1
// ran it down the same path (docs/PASSES.md, transpose, "Zero padding").
// tests/lit/transpose/pad.test checks the clones and remarks,
// pad-emu.test runs them on the CPU, gpu-diff's "transpose pad" cases on
// the GPU (tests/gpu/cases/transpose_pad.cu includes this file).
// Compiled with: nvcc -arch=sm_90 -O3 -ptx pad.cu -o pad.ptx
#include <cuda_fp16.h>

// An H x W matrix into a Wp x Hp one (Wp >= W, Hp >= H), zeros past the edges.
extern "C" __global__ void pad_f32(const float *in, float *out, int W, int H, int Wp, int Hp) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < Wp && y < Hp) out[x * Hp + y] = (x < W && y < H) ? in[y * W + x] : 0.0f;
}

// The same written as an early return and an if.
extern "C" __global__ void pad_if_f32(const float *in, float *out, int W, int H, int Wp, int Hp) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= Wp || y >= Hp) return;
  float v = 0.0f;
  if (x < W && y < H) v = in[y * W + x];
  out[x * Hp + y] = v;
}

// Bytes, 16-bit halves and doubles, the pad a parameter value.
extern "C" __global__ void pad_u8(const unsigned char *in, unsigned char *out, int W, int H, int Wp, int Hp,
                                  unsigned char fill) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < Wp && y < Hp) out[x * Hp + y] = (x < W && y < H) ? in[y * W + x] : fill;
}

extern "C" __global__ void pad_f16(const __half *in, __half *out, int W, int H, int Wp, int Hp) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < Wp && y < Hp) out[x * Hp + y] = (x < W && y < H) ? in[y * W + x] : __float2half(0.0f);
}

extern "C" __global__ void pad_f64(const double *in, double *out, int W, int H, int Wp, int Hp) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < Wp && y < Hp) out[x * Hp + y] = (x < W && y < H) ? in[y * W + x] : 0.0;
}

// Per-element work on the loaded side only: u8 to float with a scale.
extern "C" __global__ void pad_u8_f32(const unsigned char *in, float *out, int W, int H, int Wp, int Hp, float s) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < Wp && y < Hp) out[x * Hp + y] = (x < W && y < H) ? s * in[y * W + x] : -1.0f;
}

// The store tests the value (a branch on the loaded value that cannot lead
// back to the load): zeros skipped, the padding too.
extern "C" __global__ void pad_nz_f32(const float *in, float *out, int W, int H, int Wp, int Hp) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= Wp || y >= Hp) return;
  float v = 0.0f;
  if (x < W && y < H) v = in[y * W + x];
  if (v != 0.0f) out[x * Hp + y] = v;
}

// The 1-D (flat) form: one thread per output element, the padded output
// written in order, the input read where it exists.
extern "C" __global__ void pad_flat_f32(const float *in, float *out, int W, int H, int Wp, int Hp) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= Wp * Hp) return;
  int y = i % Hp, x = i / Hp;
  out[i] = (x < W && y < H) ? in[y * W + x] : 0.0f;
}

// Lookalikes that stay refused: the load runs only where a mask read from
// memory says so (a branch on memory before the load: phase 2 could take
// another path than phase 1), and a crop whose load runs past the store's
// guard (the tile read where no store needs it is fine, but the mask case
// is not).
extern "C" __global__ void pad_mask_f32(const float *in, const float *mask, float *out, int W, int H) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= W || y >= H) return;
  float v = 1.0f;
  if (mask[y * W + x] > 0.5f) v = in[y * W + x];
  out[x * H + y] = v;
}
