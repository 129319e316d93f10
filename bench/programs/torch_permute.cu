// torch_permute: layout kernels written the way PyTorch's CUDA code writes
// them, through its CUDA_KERNEL_LOOP macro (an int64_t counter stepping by
// blockDim.x * gridDim.x, the index an int or an int64_t) and launched with
// GET_BLOCKS(n) = ceil(n / 256) blocks of 256: (1) NCHW -> NHWC (channels
// last) of a float batch, N = 16, C = 64, 112 x 112 (51 MB each way), the
// index split into w, h, c and n; (2) back to NCHW with a per-channel scale;
// (3) an int64_t-indexed transpose of an 8192 x 4096 float matrix. Each
// launched twice; timed: all 6 launches; checked exactly. nvcc compiles the
// macro's loop with a computed trip count and a loop unrolled four times
// (the transpose pass's traced grid-stride loops, docs/PASSES.md).
#include <cstdint>

#include "common.h"

#define CUDA_KERNEL_LOOP_TYPE(i, n, index_type)                                                        \
  int64_t _i_n_d_e_x = blockIdx.x * blockDim.x + threadIdx.x;                                          \
  for (index_type i = _i_n_d_e_x; _i_n_d_e_x < (n); _i_n_d_e_x += blockDim.x * gridDim.x, i = _i_n_d_e_x)
#define CUDA_KERNEL_LOOP(i, n) CUDA_KERNEL_LOOP_TYPE(i, n, int)

__global__ void channelsLast(const float *in, float *out, int N, int C, int H, int W) {
  CUDA_KERNEL_LOOP(i, N * C * H * W) {
    const int w = i % W, h = (i / W) % H, c = (i / (W * H)) % C, n = i / (W * H * C);
    out[((n * H + h) * W + w) * C + c] = in[i];
  }
}

__global__ void channelsFirstScale(const float *in, const float *scale, float *out, int N, int C, int H, int W) {
  CUDA_KERNEL_LOOP(i, N * C * H * W) {
    const int c = i % C, w = (i / C) % W, h = (i / (C * W)) % H, n = i / (C * W * H);
    out[((n * C + c) * H + h) * W + w] = in[i] * scale[c];
  }
}

__global__ void transpose64(const float *in, float *out, int64_t rows, int64_t cols) {
  CUDA_KERNEL_LOOP_TYPE(i, rows * cols, int64_t) {
    const int64_t r = i / cols, c = i % cols;
    out[c * rows + r] = in[i];
  }
}

inline unsigned getBlocks(int64_t n) { return unsigned((n + 255) / 256); }

int main(int argc, char **argv) {
  const int N = argInt(argc, argv, 1, 16), C = argInt(argc, argv, 2, 64), H = argInt(argc, argv, 3, 112),
            W = argInt(argc, argv, 4, 112);
  const int R = argInt(argc, argv, 5, 8192), K = argInt(argc, argv, 6, 4096);
  const size_t n = size_t(N) * C * H * W, nm = size_t(R) * K;
  std::vector<float> a(n), s(C), m(nm);
  fillFloats(a, 7101);
  fillFloats(s, 7102);
  fillFloats(m, 7103);
  float *da = toDevice(a), *ds = toDevice(s), *dm = toDevice(m), *dt, *dback, *dmt;
  CHECK(cudaMalloc(&dt, n * sizeof(float)));
  CHECK(cudaMalloc(&dback, n * sizeof(float)));
  CHECK(cudaMalloc(&dmt, nm * sizeof(float)));
  CHECK(cudaDeviceSynchronize());
  GpuTimer t;
  t.start();
  for (int r = 0; r < 2; r++) {
    channelsLast<<<getBlocks(int64_t(n)), 256>>>(da, dt, N, C, H, W);
    CHECK_LAUNCH();
  }
  for (int r = 0; r < 2; r++) {
    channelsFirstScale<<<getBlocks(int64_t(n)), 256>>>(dt, ds, dback, N, C, H, W);
    CHECK_LAUNCH();
  }
  for (int r = 0; r < 2; r++) {
    transpose64<<<getBlocks(int64_t(nm)), 256>>>(dm, dmt, R, K);
    CHECK_LAUNCH();
  }
  float ms = t.stop();
  std::vector<float> nhwc = fromDevice(dt, n), back = fromDevice(dback, n), mt = fromDevice(dmt, nm);
  size_t bad = 0, bad2 = 0, bad3 = 0;
  const size_t HW = size_t(H) * W;
  for (size_t img = 0; img < size_t(N); img++)
    for (size_t c = 0; c < size_t(C); c++)
      for (size_t q = 0; q < HW; q++) {
        const float v = a[(img * C + c) * HW + q];
        bad += !(nhwc[(img * HW + q) * C + c] == v);
        bad2 += !(back[(img * C + c) * HW + q] == v * s[c]);
      }
  for (size_t r = 0; r < size_t(R); r++)
    for (size_t c = 0; c < size_t(K); c++) bad3 += !(mt[c * R + r] == m[r * K + c]);
  if (bad) std::fprintf(stderr, "channelsLast: %zu of %zu differ\n", bad, n);
  if (bad2) std::fprintf(stderr, "channelsFirstScale: %zu of %zu differ\n", bad2, n);
  if (bad3) std::fprintf(stderr, "transpose64: %zu of %zu differ\n", bad3, nm);
  CHECK(cudaFree(da));
  CHECK(cudaFree(ds));
  CHECK(cudaFree(dm));
  CHECK(cudaFree(dt));
  CHECK(cudaFree(dback));
  CHECK(cudaFree(dmt));
  return finish(ms, bad == 0 && bad2 == 0 && bad3 == 0);
}
