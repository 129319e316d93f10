// Flat permutes that split the outer index first (the twenty-first
// session; docs/PASSES.md, transpose, "Flat permutes: three splits"):
// `n = i / (C*HW)`, then the remainder (written by hand, `i - n*C*HW`, or
// `i % (C*HW)`) divided again, `c = rem / HW`, `p = rem % HW`. Refused
// before ("the divisor ... is not a kernel parameter ... (a product of
// parameters, H*W, is not handled)"). From the fifth offline probe.
// tests/lit/transpose/flatrem.test checks the clones, flatrem-emu.test
// runs them on the CPU, gpu-diff's "transpose flatrem" cases on the GPU
// (tests/gpu/cases/transpose_flatrem.cu includes this file).
// Compiled with: nvcc -arch=sm_90 -O3 -ptx flatrem.cu -o flatrem.ptx

// NCHW -> NHWC, bytes, the remainder written by hand.
extern "C" __global__ void outer_nchw_nhwc_u8(const unsigned char *in, unsigned char *out, int C, int HW, int total) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= total) return;
  int n = i / (C * HW);
  int rem = i - n * C * HW;
  int c = rem / HW;
  int p = rem % HW;
  out[(n * HW + p) * C + c] = in[i];
}

// NCHW -> NHWC, floats, the remainder by `%`.
extern "C" __global__ void outer_nchw_nhwc_f32(const float *in, float *out, int C, int HW, int total) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < total) {
    int n = i / (C * HW);
    int rem = i % (C * HW);
    int c = rem / HW;
    int p = rem - c * HW;
    out[(n * HW + p) * C + c] = in[i];
  }
}

// NHWC -> NCHW (the flat index over the NHWC input), the remainder by hand.
extern "C" __global__ void outer_nhwc_nchw_f32(const float *in, float *out, int C, int HW, int total) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= total) return;
  int n = i / (HW * C);
  int rem = i - n * (HW * C);
  int p = rem / C;
  int c = rem - p * C;
  out[(n * C + c) * HW + p] = in[i];
}

// Refused: a remainder divided by what does not divide it into digits
// ((i % HW) / C: C is not a factor of HW's prefix). A gather, each output
// written once (a scatter of this form races: threads share elements).
extern "C" __global__ void outer_notdigits_f32(const float *in, float *out, int C, int HW, int total) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= total) return;
  int a = (i % HW) / C;
  int b = i / HW;
  out[i] = in[b * HW + a];
}
