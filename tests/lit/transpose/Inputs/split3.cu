// Flat permutes that split the index three times (issue 30; the three-split
// form of src/transforms/TransposeFlat.cpp): NCHW <-> NHWC written with H
// and W apart, the way layout-conversion code writes it (i % W, (i / W) % H,
// (i / (W*H)) % C, i / (W*H*C), or a chain of quotients t /= W ...).
// tests/lit/transpose/split3.test checks the clones, split3-emu.test runs
// them on the CPU, gpu-diff's "transpose split3" cases on the GPU
// (tests/gpu/cases/transpose_split3.cu).
// Compiled with: nvcc -arch=sm_90 -O3 -ptx split3.cu -o split3.ptx

// NCHW -> NHWC, read in order (w, h, c, n): the load along w, the store
// along c (the digit over two radices: the tile's second axis on digit 2).
extern "C" __global__ void s3_nchw_nhwc(const float *in, float *out, int N, int C, int H, int W) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= N * C * H * W) return;
  int w = i % W;
  int h = (i / W) % H;
  int c = (i / (W * H)) % C;
  int n = i / (W * H * C);
  out[((n * H + h) * W + w) * C + c] = in[i];
}

// NHWC written in order (c, w, h, n) from NCHW: the store along c, the load
// along w (digit 1).
extern "C" __global__ void s3_nhwc_gather(const float *in, float *out, int N, int C, int H, int W) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= N * C * H * W) return;
  int c = i % C;
  int w = (i / C) % W;
  int h = (i / (C * W)) % H;
  int n = i / (C * W * H);
  out[i] = in[((n * C + c) * H + h) * W + w];
}

// NHWC -> NCHW, read in order (c, w, h, n): the load along c, the store
// along w (digit 1).
extern "C" __global__ void s3_nhwc_nchw(const float *in, float *out, int N, int C, int H, int W) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= N * C * H * W) return;
  int c = i % C;
  int w = (i / C) % W;
  int h = (i / (C * W)) % H;
  int n = i / (C * W * H);
  out[((n * C + c) * H + h) * W + w] = in[i];
}

// A chain of quotients (t /= W; t /= H), nvcc's remainders as mul and sub.
extern "C" __global__ void s3_chain(const float *in, float *out, int N, int C, int H, int W) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= N * C * H * W) return;
  int t = i;
  int w = t % W;
  t /= W;
  int h = t % H;
  t /= H;
  int c = t % C;
  int n = t / C;
  out[((n * H + h) * W + w) * C + c] = in[i];
}

// Bytes, a bound of its own, unsigned arithmetic (div.u32).
extern "C" __global__ void s3_u8(const unsigned char *in, unsigned char *out, unsigned C, unsigned H, unsigned W,
                                 unsigned total) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < total) {
    unsigned w = i % W, h = (i / W) % H, c = (i / (W * H)) % C, n = i / (W * H * C);
    out[((n * H + h) * W + w) * C + c] = in[i];
  }
}

// Square planes, one parameter for H and W (the radices S, S, C), with a
// per-element scale.
extern "C" __global__ void s3_square(const float *in, float *out, int C, int S, int total, float scale) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < total) {
    int w = i % S, h = (i / S) % S, c = (i / (S * S)) % C, n = i / (S * S * C);
    out[((n * S + h) * S + w) * C + c] = in[i] * scale;
  }
}

// A radix that is a product of parameters (the plane H*W computed in the
// kernel, not split): NCHW -> NHWC and back, two radices, H*W and C.
extern "C" __global__ void s3_hw(const float *in, float *out, int C, int H, int W, int total) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < total) {
    int hw = i % (H * W), c = (i / (H * W)) % C, n = i / (H * W * C);
    out[(n * H * W + hw) * C + c] = in[i];
  }
}

extern "C" __global__ void s3_hw_back(const float *in, float *out, int C, int H, int W, int total) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < total) {
    int c = i % C, hw = (i / C) % (H * W), n = i / (C * H * W);
    out[(n * C + c) * (H * W) + hw] = in[i];
  }
}

// NCDHW -> NDHWC over the volume D*H*W (a product of three).
extern "C" __global__ void s3_dhw(const float *in, float *out, int C, int D, int H, int W, int total) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < total) {
    int s = i % (D * H * W), c = (i / (D * H * W)) % C, n = i / (D * H * W * C);
    out[(n * D * H * W + s) * C + c] = in[i];
  }
}

// Two splits gathered (NHWC written in order from NCHW, HW one parameter):
// the batched gather's floor of 2^22 threads applies as with three.
extern "C" __global__ void s2_nhwc_gather(const float *in, float *out, int C, int HW, int total) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < total) {
    int c = i % C, hw = (i / C) % HW, n = i / (C * HW);
    out[i] = in[(n * C + c) * HW + hw];
  }
}

// Two orders at once (i % W and i / H: no order of radices makes both
// prefixes): not the digits form; refused by the two-split code.
extern "C" __global__ void s3_mixed(const float *in, float *out, int H, int W, int total) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < total) out[(i % W) * H + i / H] = in[i];
}

// Four splits (NCDHW -> NDHWC): refused with a remark.
extern "C" __global__ void s3_four(const float *in, float *out, int C, int D, int H, int W, int total) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < total) {
    int w = i % W, h = (i / W) % H, d = (i / (W * H)) % D, c = (i / (W * H * D)) % C, n = i / (W * H * D * C);
    out[(((n * D + d) * H + h) * W + w) * C + c] = in[i];
  }
}

// Coalesced as it is (a per-channel bias, NCHW in and out): no clone, no
// remark.
extern "C" __global__ void s3_bias(const float *in, const float *bias, float *out, int C, int H, int W, int total) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < total) {
    int c = (i / (W * H)) % C;
    out[i] = in[i] + bias[c];
  }
}
