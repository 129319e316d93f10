// Row walks whose rows advance by different steps (issue 29; docs/PASSES.md,
// rowwalk, "Rows of different widths"): a thread walks rows of different
// element sizes at one index, so nvcc's unrolled loop steps 4 bytes along a
// row of bytes and 16 along a row of 32-bit words. Until the twenty-third
// session the staged clone refused them ("rows advancing by different
// steps"); now each row's tile holds the same iterations, IPT times the
// row's step. Integral images' row pass (bytes summed into 32-bit words),
// mixed-precision dot products (`__half` times float), conversions (bytes
// to floats, floats to halves), a mask multiplied in, a running sum of
// floats kept in doubles. Lookalikes that stay refused: mixed steps in a
// triangular loop and with cp.async. tests/lit/rowwalk/mixedsteps.test
// checks the clones, mixedsteps-emu.test runs them on the CPU, gpu-diff's
// "rowwalk mixedsteps" cases on the GPU (tests/gpu/cases/rowwalkmixed.cu
// includes this file).
// Compiled with: nvcc -arch=sm_90 -O3 -ptx mixedsteps.cu -o mixedsteps.ptx
#include <cuda_fp16.h>
#include <stdint.h>

// Integral image, row pass: bytes into 32-bit words, int index.
extern "C" __global__ void integral_u8(const uint8_t *in, unsigned *out, int w, int h) {
  int y = blockIdx.x * blockDim.x + threadIdx.x;
  if (y >= h) return;
  unsigned s = 0;
  for (int x = 0; x < w; x++) {
    s += in[y * w + x];
    out[y * w + x] = s;
  }
}

// The same through size_t indices, shorts into 32-bit words.
extern "C" __global__ void cumsum_u16(const unsigned short *in, unsigned *out, size_t n, size_t rows) {
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (i >= rows) return;
  unsigned s = 0;
  for (size_t j = 0; j < n; j++) {
    s += in[i * n + j];
    out[i * n + j] = s;
  }
}

// Mixed precision: a row of halves times a row of floats.
extern "C" __global__ void dot_h_f32(const __half *a, const float *b, float *y, int n, int m) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= m) return;
  float s = 0;
  for (int j = 0; j < n; j++) s += __half2float(a[(size_t)i * n + j]) * b[(size_t)i * n + j];
  y[i] = s;
}

// A mask of bytes multiplied into a row of floats (no branch).
extern "C" __global__ void masked_u8_f32(const float *a, const uint8_t *mask, float *y, int n, int m) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= m) return;
  float s = 0;
  for (int j = 0; j < n; j++) s += mask[(size_t)i * n + j] * a[(size_t)i * n + j];
  y[i] = s;
}

// A running sum of floats kept in doubles, written per element.
extern "C" __global__ void cumsum_f32_f64(const float *in, double *out, int n, int m) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= m) return;
  double s = 0;
  for (int j = 0; j < n; j++) {
    s += in[(size_t)i * n + j];
    out[(size_t)i * n + j] = s;
  }
}

// Floats scaled into halves, with a running maximum (a reduction keeps it
// from the lanes clone).
extern "C" __global__ void to_half_max(const float *in, __half *out, float *mx, int n, int m, float sc) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= m) return;
  float best = -1e30f;
  for (int j = 0; j < n; j++) {
    float v = in[(size_t)i * n + j] * sc;
    best = fmaxf(best, v);
    out[(size_t)i * n + j] = __float2half_rn(v);
  }
  mx[i] = best;
}

// Bytes to floats with an exponential moving average (a recurrence).
extern "C" __global__ void ema_u8_f32(const uint8_t *in, float *out, int n, int m, float alpha) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= m) return;
  float e = 0.f;
  for (int j = 0; j < n; j++) {
    e = alpha * in[i * n + j] + (1.f - alpha) * e;
    out[i * n + j] = e;
  }
}

// Refused: a triangular loop (its trip count differs between lanes).
extern "C" __global__ void tri_h_f32(const __half *a, const float *b, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float s = 0;
  for (int j = 0; j <= i; j++) s += __half2float(a[(size_t)i * n + j]) * b[(size_t)i * n + j];
  y[i] = s;
}
