// Image kernels of the paper's Table II (van den Braak et al., SAMOS 2010),
// written from their descriptions (the paper gives no source): Sobel edge
// detection, image rotation 1 (each input pixel read once) and 2 (each
// output pixel written once), and a naive 8x8 DCT that recomputes its
// cosines. 8-bit grey images, row pitch = width (tests/gpu/gpu_diff.cpp).

// 3x3 Sobel; the one-pixel border is not written. The group pass's lit
// test (merged.test) checks the PTX nvcc makes of the same source.
#include "../../lit/group/Inputs/stencil.cu"

// Rotation about the centre by the angle whose cosine and sine are (c, s),
// nearest pixel. 1: each input pixel is read once and written where it
// lands (some output pixels twice or never: with c, s = 0, 1 the mapping is
// one to one, so the result does not depend on the order of the writes).
extern "C" __global__ void rotate1(const unsigned char *in, unsigned char *out, int w, int h, float c, float s) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h) return;
  float xc = x - 0.5f * w, yc = y - 0.5f * h;
  int xo = __float2int_rn(c * xc - s * yc + 0.5f * w), yo = __float2int_rn(s * xc + c * yc + 0.5f * h);
  unsigned char v = in[y * w + x];
  if (xo >= 0 && xo < w && yo >= 0 && yo < h) out[yo * w + xo] = v;
}

// 2: each output pixel is written once, from the input pixel it comes from
// (0 outside the input).
extern "C" __global__ void rotate2(const unsigned char *in, unsigned char *out, int w, int h, float c, float s) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h) return;
  float xc = x - 0.5f * w, yc = y - 0.5f * h;
  int xi = __float2int_rn(c * xc + s * yc + 0.5f * w), yi = __float2int_rn(-s * xc + c * yc + 0.5f * h);
  bool inside = xi >= 0 && xi < w && yi >= 0 && yi < h;
  unsigned char v = in[min(max(yi, 0), h - 1) * w + min(max(xi, 0), w - 1)];
  out[y * w + x] = inside ? v : 0;
}

// Naive 8x8 DCT-II: one thread per coefficient, cosines recomputed, the
// 8x8 block read 64 times (loops: the group pass refuses it).
extern "C" __global__ void dct8x8(const unsigned char *in, float *out, int w) {
  int u = threadIdx.x, v = threadIdx.y, bx = blockIdx.x * 8, by = blockIdx.y * 8;
  float sum = 0.f;
  for (int y = 0; y < 8; ++y)
    for (int x = 0; x < 8; ++x)
      sum += (in[(by + y) * w + bx + x] - 128.f) * cosf((2 * x + 1) * u * 3.14159265f / 16) *
             cosf((2 * y + 1) * v * 3.14159265f / 16);
  float cu = u ? 1.f : 0.70710678f, cv = v ? 1.f : 0.70710678f;
  out[(by + v) * w + bx + u] = 0.25f * cu * cv * sum;
}
