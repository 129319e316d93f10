// gridstride_transpose: transposes written as grid-stride loops, the way
// Caffe's and PyTorch's CUDA_KERNEL_LOOP write elementwise kernels and
// layout conversions, launched as they launch them (a thread per element,
// GET_BLOCKS(n) = ceil(n / 512) blocks of 512): (1) a float matrix, W x H =
// 8192 x 6000 (188 MB each way), `x = i % W, y = i / W; out[x*H + y] =
// in[i]`, launched twice; (2) a flat NCHW -> NHWC permute, N = 16, C = 64,
// 112 x 112 (51 MB), launched twice; (3) two nested grid-stride loops over a
// 6000 x 4096 float matrix in 16 x 16 blocks, a thread per element,
// launched twice. Timed: all 6 launches. Checked exactly. (The transpose
// pass's grid-stride loops, docs/PASSES.md.)
#include "common.h"

#define KERNEL_LOOP(i, n) for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < (n); i += blockDim.x * gridDim.x)

__global__ void transposeLoop(const int n, const float *in, float *out, int W, int H) {
  KERNEL_LOOP(i, n) {
    int x = i % W, y = i / W;
    out[x * H + y] = in[i];
  }
}

__global__ void nchwToNhwcLoop(const int n, const float *in, float *out, int C, int HW) {
  KERNEL_LOOP(i, n) {
    int hw = i % HW, c = (i / HW) % C, b = i / (HW * C);
    out[(b * HW + hw) * C + c] = in[i];
  }
}

__global__ void transpose2dLoop(const float *in, float *out, int W, int H) {
  for (int y = blockIdx.y * blockDim.y + threadIdx.y; y < H; y += blockDim.y * gridDim.y)
    for (int x = blockIdx.x * blockDim.x + threadIdx.x; x < W; x += blockDim.x * gridDim.x)
      out[x * H + y] = in[y * W + x];
}

int main(int argc, char **argv) {
  const int W = argInt(argc, argv, 1, 8192), H = argInt(argc, argv, 2, 6000);
  const int N = argInt(argc, argv, 3, 16), C = argInt(argc, argv, 4, 64), HW = argInt(argc, argv, 5, 112 * 112);
  const int W2 = argInt(argc, argv, 6, 6000), H2 = argInt(argc, argv, 7, 4096);
  const size_t n = size_t(W) * H, np = size_t(N) * C * HW, n2 = size_t(W2) * H2;
  std::vector<float> a(n), p(np), m(n2);
  fillFloats(a, 4201);
  fillFloats(p, 4202);
  fillFloats(m, 4203);
  float *da = toDevice(a), *dp = toDevice(p), *dm = toDevice(m), *dat, *dpt, *dmt;
  CHECK(cudaMalloc(&dat, n * sizeof(float)));
  CHECK(cudaMalloc(&dpt, np * sizeof(float)));
  CHECK(cudaMalloc(&dmt, n2 * sizeof(float)));
  CHECK(cudaDeviceSynchronize());
  const unsigned threads = 512;  // Caffe's CAFFE_CUDA_NUM_THREADS
  const dim3 block2(16, 16), grid2((W2 + 15) / 16, (H2 + 15) / 16);
  GpuTimer t;
  t.start();
  for (int r = 0; r < 2; r++) {
    transposeLoop<<<blocksFor(long(n), threads), threads>>>(int(n), da, dat, W, H);
    CHECK_LAUNCH();
  }
  for (int r = 0; r < 2; r++) {
    nchwToNhwcLoop<<<blocksFor(long(np), threads), threads>>>(int(np), dp, dpt, C, HW);
    CHECK_LAUNCH();
  }
  for (int r = 0; r < 2; r++) {
    transpose2dLoop<<<grid2, block2>>>(dm, dmt, W2, H2);
    CHECK_LAUNCH();
  }
  float ms = t.stop();
  std::vector<float> at = fromDevice(dat, n), pt = fromDevice(dpt, np), mt = fromDevice(dmt, n2);
  size_t bad = 0, bad2 = 0, bad3 = 0;
  for (size_t y = 0; y < size_t(H); y++)
    for (size_t x = 0; x < size_t(W); x++) bad += !(at[x * H + y] == a[y * W + x]);
  for (size_t img = 0; img < size_t(N); img++)
    for (size_t c = 0; c < size_t(C); c++)
      for (size_t q = 0; q < size_t(HW); q++) bad2 += !(pt[(img * HW + q) * C + c] == p[(img * C + c) * HW + q]);
  for (size_t y = 0; y < size_t(H2); y++)
    for (size_t x = 0; x < size_t(W2); x++) bad3 += !(mt[x * H2 + y] == m[y * W2 + x]);
  if (bad) std::fprintf(stderr, "transposeLoop: %zu of %zu differ\n", bad, n);
  if (bad2) std::fprintf(stderr, "nchwToNhwcLoop: %zu of %zu differ\n", bad2, np);
  if (bad3) std::fprintf(stderr, "transpose2dLoop: %zu of %zu differ\n", bad3, n2);
  for (float *d : {da, dat, dp, dpt, dm, dmt}) CHECK(cudaFree(d));
  return finish(ms, bad == 0 && bad2 == 0 && bad3 == 0);
}
