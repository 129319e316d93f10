// Kernels written as grid-stride loops (issue 30; src/transforms/
// TransposeGridStride.cpp): `for (i = blockIdx.x * blockDim.x + threadIdx.x;
// i < n; i += blockDim.x * gridDim.x)`, the way Caffe's and PyTorch's
// CUDA_KERNEL_LOOP and much library code write elementwise kernels, and two
// nested loops over a matrix. tests/lit/transpose/gridstride.test checks the
// clones, gridstride-emu.test runs them on the CPU, gpu-diff's "transpose
// gridstride" cases on the GPU (tests/gpu/cases/transpose_gridstride.cu).
// Compiled with: nvcc -arch=sm_90 -O3 -ptx gridstride.cu -o gridstride.ptx
#define KERNEL_LOOP(i, n) for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < (n); i += blockDim.x * gridDim.x)

// The flat transpose of a W x H matrix (in: H rows of W), n = W * H given.
extern "C" __global__ void gs_f32(const float *in, float *out, int W, int H, int n) {
  KERNEL_LOOP(i, n) {
    int x = i % W, y = i / W;
    out[x * H + y] = in[i];
  }
}

// The bound computed in the kernel (a product of two parameters).
extern "C" __global__ void gs_wh(const float *in, float *out, int W, int H) {
  KERNEL_LOOP(i, W * H) {
    int x = i % W, y = i / W;
    out[x * H + y] = in[i];
  }
}

// Bytes, 16-bit with unsigned arithmetic, doubles.
extern "C" __global__ void gs_u8(const unsigned char *in, unsigned char *out, int W, int H, int n) {
  KERNEL_LOOP(i, n) {
    int x = i % W, y = i / W;
    out[x * H + y] = in[i];
  }
}

extern "C" __global__ void gs_u16(const unsigned short *in, unsigned short *out, unsigned W, unsigned H, unsigned n) {
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    unsigned x = i % W, y = i / W;
    out[x * H + y] = in[i];
  }
}

extern "C" __global__ void gs_f64(const double *in, double *out, int W, int H, int n) {
  KERNEL_LOOP(i, n) {
    int x = i % W, y = i / W;
    out[x * H + y] = in[i];
  }
}

// Caffe's argument order (the count first) and work per element.
extern "C" __global__ void gs_scale(const int n, const float *in, float *out, int W, int H, float s) {
  KERNEL_LOOP(i, n) {
    int x = i % W, y = i / W;
    out[x * H + y] = in[i] * s;
  }
}

// A flat NCHW -> NHWC permute (two splits of the index).
extern "C" __global__ void gs_nchw_nhwc(const float *in, float *out, int C, int HW, int n) {
  KERNEL_LOOP(i, n) {
    int hw = i % HW, c = (i / HW) % C, b = i / (HW * C);
    out[(b * HW + hw) * C + c] = in[i];
  }
}

// Two nested grid-stride loops over the matrix, 2-D blocks.
extern "C" __global__ void gs_2d(const float *in, float *out, int W, int H) {
  for (int y = blockIdx.y * blockDim.y + threadIdx.y; y < H; y += blockDim.y * gridDim.y)
    for (int x = blockIdx.x * blockDim.x + threadIdx.x; x < W; x += blockDim.x * gridDim.x)
      out[x * H + y] = in[y * W + x];
}

extern "C" __global__ void gs_2d_u8(const unsigned char *in, unsigned char *out, int W, int H) {
  for (int y = blockIdx.y * blockDim.y + threadIdx.y; y < H; y += blockDim.y * gridDim.y)
    for (int x = blockIdx.x * blockDim.x + threadIdx.x; x < W; x += blockDim.x * gridDim.x)
      out[x * H + y] = in[y * W + x];
}

// ---- lookalikes the pass refuses
// A sum carried from one iteration to the next.
extern "C" __global__ void gs_sum(const float *in, float *out, int W, int n) {
  float s = 0.f;
  KERNEL_LOOP(i, n) s += in[(i % W) * W + i / W];
  out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

// A step of two grids.
extern "C" __global__ void gs_step2(const float *in, float *out, int W, int H, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += 2 * blockDim.x * gridDim.x) {
    int x = i % W, y = i / W;
    out[x * H + y] = in[i];
  }
}

// A bound of W * H + 1 (no launch condition can name it).
extern "C" __global__ void gs_bound(const float *in, float *out, int W, int H) {
  KERNEL_LOOP(i, W * H + 1) {
    int x = i % W, y = i / W;
    out[x * H + y] = in[i];
  }
}

// A plain copy in a grid-stride loop: coalesced, no transpose remark.
extern "C" __global__ void gs_copy(const float *in, float *out, int n) {
  KERNEL_LOOP(i, n) out[i] = in[i];
}

// A bound of n - 1 (computed, not an argument: no launch condition names it).
extern "C" __global__ void gs_nm1(const float *in, float *out, int W, int H, int n) {
  KERNEL_LOOP(i, n - 1) {
    int x = i % W, y = i / W;
    out[x * H + y] = in[i];
  }
}
