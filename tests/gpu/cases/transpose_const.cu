// Kernels of the transpose pass's flat form with compile-time sizes (nvcc's
// divisions by constants folded, TransposeConstDiv.cpp; tests/gpu/CasesTranspose.cpp,
// "transpose const"): the lit inputs (tests/lit/transpose/Inputs/constdiv.cu)
// and the same shapes at full size, as `#define` and template code writes
// them.
#include "../../lit/transpose/Inputs/constdiv.cu"

// H x W floats (rows of W), one element per thread.
KERNEL(gc_int_8192, int, 8192, 8192)
KERNEL(gc_uint_8192, unsigned, 8192, 8192)
KERNEL(gc_sizet_8192, size_t, 8192, 8192)
KERNEL(gc_int_odd, int, 8193, 8191)
KERNEL(gc_uint_odd, unsigned, 8193, 8191)
KERNEL(gc_sizet_odd, size_t, 8193, 8191)  // narrowed to 32 bits under the bound, then multiplied
KERNEL(gc_int_3000, int, 3000, 1000)
KERNEL(gc_int_1080, int, 1080, 1920)
KERNEL(gc_int_256, int, 256, 256)

// A template, as library code writes the sizes; bytes; a rotation.
template <typename T, int H, int W>
__global__ void gcTranspose(const T *__restrict__ in, T *__restrict__ out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < H * W) out[(i % W) * H + i / W] = in[i];
}
extern "C" __global__ void gc_u8_8192(const unsigned char *__restrict__ in, unsigned char *__restrict__ out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < 8192 * 8192) out[(i % 8192) * 8192 + i / 8192] = in[i];
}
extern "C" __global__ void gc_f64_4096(const double *__restrict__ in, double *__restrict__ out) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < 4096u * 4096u) out[(i % 4096u) * 4096u + i / 4096u] = in[i];
}
extern "C" __global__ void gc_rot90_1920(const unsigned *__restrict__ in, unsigned *__restrict__ out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < 1080 * 1920) {
    int r = i / 1920, c = i % 1920;
    out[c * 1080 + (1079 - r)] = in[i];
  }
}
extern "C" __global__ void gc_tmpl_f32(const float *__restrict__ in, float *__restrict__ out) {
  // the template's body, instantiated for 4096 x 6000
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < 4096 * 6000) out[(i % 6000) * 4096 + i / 6000] = in[i];
}

// A grid-stride loop over a compile-time range.
extern "C" __global__ void gc_gridstride(const float *__restrict__ in, float *__restrict__ out) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < 4096 * 6000; i += blockDim.x * gridDim.x) {
    int r = i / 6000, c = i % 6000;
    out[c * 4096 + r] = in[i];
  }
}

extern "C" __global__ void gc_gridstride64(const float *__restrict__ in, float *__restrict__ out) {
  for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < 4096 * 6000; i += (int64_t)blockDim.x * gridDim.x) {
    int64_t r = i / 6000, c = i % 6000;
    out[c * 4096 + r] = in[i];
  }
}

// NCHW -> NHWC, N = 16, C = 64 and 256, 56 x 56 planes (the plane one
// constant, two splits), and with H and W apart (three radices); back.
#define NCHW(name, N, C, HW)                                                                    \
  extern "C" __global__ void name(const float *__restrict__ in, float *__restrict__ out) {      \
    int i = blockIdx.x * blockDim.x + threadIdx.x;                                              \
    if (i < (N) * (C) * (HW)) {                                                                 \
      int p = i % (HW), c = (i / (HW)) % (C), n = i / ((HW) * (C));                             \
      out[(n * (HW) + p) * (C) + c] = in[i];                                                    \
    }                                                                                           \
  }
NCHW(gc_nchw_c64, 16, 64, 56 * 56)
NCHW(gc_nchw_c256, 16, 256, 56 * 56)
NCHW(gc_nchw_c3, 16, 3, 224 * 224)
extern "C" __global__ void gc_nchw_sizet(const float *__restrict__ in, float *__restrict__ out) {
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;  // narrowed; the channel's digit in 64 bits
  if (i < (size_t)16 * 64 * 3136) {
    size_t p = i % 3136, c = (i / 3136) % 64, n = i / (3136 * 64);
    out[(n * 3136 + p) * 64 + c] = in[i];
  }
}
extern "C" __global__ void gc_nchw3_c64(const float *__restrict__ in, float *__restrict__ out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < 16 * 64 * 56 * 56) {
    int w = i % 56, h = (i / 56) % 56, c = (i / (56 * 56)) % 64, n = i / (56 * 56 * 64);
    out[((n * 56 + h) * 56 + w) * 64 + c] = in[i];
  }
}
extern "C" __global__ void gc_nhwc_c64(const float *__restrict__ in, float *__restrict__ out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < 16 * 64 * 56 * 56) {
    int c = i % 64, p = (i / 64) % (56 * 56), n = i / (64 * 56 * 56);
    out[(n * 64 + c) * (56 * 56) + p] = in[i];
  }
}
