// 1-D launches that index with `/` and `%` (the flat form, issue 30;
// src/transforms/TransposeFlat.cpp): one thread per element over a flat
// range, the position split by a width parameter. tests/lit/transpose/
// flat.test checks the clones, flat-emu.test runs them on the CPU, gpu-diff's
// "transpose flat" cases on the GPU (tests/gpu/cases/transpose_flat.cu).
// Compiled with: nvcc -arch=sm_90 -O3 -ptx flat.cu -o flat.ptx
#include <cuda_fp16.h>

// The naive transpose of a W x H matrix: in is H rows of W, out W rows of H.
extern "C" __global__ void flat_f32(const float *in, float *out, int W, int H) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < W * H) {
    int x = i % W, y = i / W;
    out[x * H + y] = in[i];
  }
}

// Element types: bytes, 16-bit (unsigned arithmetic: div.u32), doubles.
extern "C" __global__ void flat_u8(const unsigned char *in, unsigned char *out, int W, int H) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < W * H) {
    int x = i % W, y = i / W;
    out[x * H + y] = in[i];
  }
}

extern "C" __global__ void flat_u16(const unsigned short *in, unsigned short *out, unsigned W, unsigned H) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < W * H) {
    unsigned x = i % W, y = i / W;
    out[x * H + y] = in[i];
  }
}

extern "C" __global__ void flat_f64(const double *in, double *out, int W, int H) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < W * H) {
    int x = i % W, y = i / W;
    out[x * H + y] = in[i];
  }
}

// The bound as its own parameter, the split written before the test.
extern "C" __global__ void flat_total(const float *in, float *out, int W, int H, int total) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int y = i / W, x = i - y * W;
  if (i >= total) return;
  out[(size_t)x * H + y] = in[i];
}

// The gather form: the store coalesced, the load strided.
extern "C" __global__ void flat_gather(const float *in, float *out, int W, int H) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < W * H) {
    int x = i % W, y = i / W;
    out[i] = in[x * H + y];
  }
}

// Per-element work and a 90-degree rotation of bytes to floats.
extern "C" __global__ void flat_scale(const float *in, float *out, int W, int H, float s) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < W * H) {
    int x = i % W, y = i / W;
    out[x * H + y] = s * in[i] + 1.0f;
  }
}

extern "C" __global__ void flat_rot90_u8_f32(const unsigned char *in, float *out, int W, int H) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < W * H) {
    int x = i % W, y = i / W;
    out[x * H + (H - 1 - y)] = in[i] * (1.0f / 255.0f);
  }
}

// Two splits of the index (a flat NCHW -> NHWC permute: the plane, the
// channel, the image), written as a batched 2-D transpose.
extern "C" __global__ void flat_nchw_nhwc(const float *in, float *out, int C, int HW, int total) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < total) {
    int hw = i % HW;
    int c = (i / HW) % C;
    int n = i / (HW * C);
    out[(n * HW + hw) * C + c] = in[i];
  }
}

// The way back over the NHWC order, the image as (i / C) / HW; and bytes.
extern "C" __global__ void flat_nhwc_nchw(const float *in, float *out, int C, int HW, int total) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < total) {
    int c = i % C;
    int q = i / C;
    int hw = q % HW, n = q / HW;
    out[(n * C + c) * HW + hw] = in[i];
  }
}

extern "C" __global__ void flat_nchw_nhwc_u8(const unsigned char *in, unsigned char *out, int C, int HW, int total) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < total) {
    int hw = i % HW;
    int c = (i / HW) % C;
    int n = i / (HW * C);
    out[(n * HW + hw) * C + c] = in[i];
  }
}

// Lookalikes. The index split by a product of parameters alone: refused with
// a remark.
extern "C" __global__ void flat_product(const float *in, float *out, int W, int H) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < W * H) {
    int x = i % (W * 2), y = i / (W * 2);
    out[x * H + y] = in[i];
  }
}

// Coalesced already (a broadcast of a row): no clone, no remark.
extern "C" __global__ void flat_broadcast(const float *a, const float *b, float *out, int W, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = a[i] + b[i % W];
}

// In place (one pointer): refused.
extern "C" __global__ void flat_inplace(float *a, int W, int H) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < W * H) {
    int x = i % W, y = i / W;
    a[x * H + y] = a[i] * 2.0f;
  }
}

// The block size used in the index as well: not the flat form (its %ntid.x
// is read twice), left alone.
extern "C" __global__ void flat_ntid_twice(const float *in, float *out, int W, int H) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < W * H) {
    int x = i % W, y = i / W;
    out[x * H + y] = in[i] + blockDim.x;
  }
}

// The forms users write (added after the first GPU runs): the split before
// an early return, a column scale and a row bias read through the split
// indices, unsigned indices widened to size_t, halves, and a 3-D batch
// (`i % W`, `(i / W) % H`, `i / (W * H)` with a batch bound).
extern "C" __global__ void flat_early(const float *__restrict__ in, float *__restrict__ out, int W, int H) {
  int i = threadIdx.x + blockIdx.x * blockDim.x;
  if (i >= W * H) return;
  int y = i / W, x = i % W;
  out[x * H + y] = in[i];
}

extern "C" __global__ void flat_scalecol(const float *in, const float *scale, float *out, int W, int H) {
  int i = blockDim.x * blockIdx.x + threadIdx.x;
  if (i < W * H) {
    int y = i / W, x = i - y * W;
    out[x * H + y] = in[i] * scale[x];
  }
}

extern "C" __global__ void flat_rowbias(const float *in, const float *bias, float *out, int W, int H) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < W * H) {
    int x = i % W, y = i / W;
    out[x * H + y] = in[i] + bias[y];
  }
}

extern "C" __global__ void flat_sizet(const float *in, float *out, unsigned W, unsigned H) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < W * H) {
    size_t x = i % W, y = i / W;
    out[x * H + y] = in[i];
  }
}

extern "C" __global__ void flat_half(const __half *in, __half *out, int W, int H) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < W * H) out[(i % W) * H + i / W] = in[i];
}

extern "C" __global__ void flat_batch3(const float *in, float *out, int W, int H, int B) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int x = i % W, y = (i / W) % H, b = i / (W * H);
  if (b < B) out[(b * W + x) * H + y] = in[i];
}
