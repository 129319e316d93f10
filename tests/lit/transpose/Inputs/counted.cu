// Grid-stride loops with a 64-bit counter (issue 30; TransposeGridStrideCounted.cpp):
// PyTorch's CUDA_KERNEL_LOOP (an int64_t counter, an int index) and loops over
// an int64_t or size_t index, which nvcc compiles with a computed trip count
// (a 64-bit division) and a loop unrolled four times. tests/lit/transpose/counted.test
// checks the clones, counted-emu.test runs them on the CPU, gpu-diff's
// "transpose counted" cases on the GPU (tests/gpu/cases/transpose_counted.cu).
// Compiled with: nvcc -arch=sm_90 -O3 -ptx counted.cu -o counted.ptx
#include <cstddef>
#include <cstdint>

#define CUDA_KERNEL_LOOP_TYPE(i, n, index_type)                                                        \
  int64_t _i_n_d_e_x = blockIdx.x * blockDim.x + threadIdx.x;                                          \
  for (index_type i = _i_n_d_e_x; _i_n_d_e_x < (n); _i_n_d_e_x += blockDim.x * gridDim.x, i = _i_n_d_e_x)
#define CUDA_KERNEL_LOOP(i, n) CUDA_KERNEL_LOOP_TYPE(i, n, int)

// PyTorch's macro, int index: the naive transpose.
extern "C" __global__ void ct_transpose(const float *in, float *out, int H, int W) {
  CUDA_KERNEL_LOOP(i, H * W) {
    int r = i / W, c = i % W;
    out[c * H + r] = in[i];
  }
}

// NCHW -> NHWC through the macro (three splits).
extern "C" __global__ void ct_nchw_nhwc(const float *in, float *out, int N, int C, int H, int W) {
  CUDA_KERNEL_LOOP(i, N * C * H * W) {
    int w = i % W, h = (i / W) % H, c = (i / (W * H)) % C, n = i / (W * H * C);
    out[((n * H + h) * W + w) * C + c] = in[i];
  }
}

// The macro with an int64_t index and int64_t sizes.
extern "C" __global__ void ct_transpose64(const float *in, float *out, int64_t H, int64_t W) {
  CUDA_KERNEL_LOOP_TYPE(i, H * W, int64_t) {
    int64_t r = i / W, c = i % W;
    out[c * H + r] = in[i];
  }
}

// A size_t loop written out, bytes, the bound a parameter of its own.
extern "C" __global__ void ct_loop_u8(const unsigned char *in, unsigned char *out, size_t H, size_t W, size_t n) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)blockDim.x * gridDim.x) {
    size_t r = i / W, c = i % W;
    out[c * H + r] = in[i];
  }
}

// Lookalikes: a sum carried across iterations (not one element a thread),
// and a stride of two grids (each thread's second element skipped).
extern "C" __global__ void ct_sum(const float *in, float *out, int H, int W) {
  float s = 0;
  CUDA_KERNEL_LOOP(i, H * W) {
    s += in[i];
    out[(i % W) * H + i / W] = s;
  }
}
extern "C" __global__ void ct_step2(const float *in, float *out, int64_t H, int64_t W) {
  for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < H * W; i += 2 * (int64_t)blockDim.x * gridDim.x) {
    int64_t r = i / W, c = i % W;
    out[c * H + r] = in[i];
  }
}
