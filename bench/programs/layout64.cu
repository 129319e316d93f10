// layout64: layout conversions written the way tensor libraries write them
// now, with 64-bit indices (`int64_t i = blockIdx.x * (int64_t)blockDim.x +
// threadIdx.x`, int64_t sizes, size_t for matrices), which nvcc divides
// through its 32-bit fast path: (1) NCHW -> NHWC of a float batch, N = 16,
// C = 64, 112 x 112 (51 MB each way), the index split into w, h, c and n;
// (2) back, NHWC -> NCHW with the plane one size (`hw = (i / C) % HW`) and
// a per-channel scale; (3) a size_t transpose of an 8192 x 4096 float
// matrix; 1-D blocks of 256, each launched twice. Timed: all 6 launches.
// Checked exactly. (The transpose pass's flat form with a 64-bit index,
// docs/PASSES.md.)
#include <cstdint>

#include "common.h"

__global__ void nchwToNhwc64(const float *in, float *out, int64_t N, int64_t C, int64_t H, int64_t W) {
  const int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
  if (i >= N * C * H * W) return;
  const int64_t w = i % W, h = (i / W) % H, c = (i / (W * H)) % C, n = i / (W * H * C);
  out[((n * H + h) * W + w) * C + c] = in[i];
}

__global__ void nhwcToNchwScale64(const float *in, const float *scale, float *out, int64_t C, int64_t HW,
                                  int64_t total) {
  const int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
  if (i >= total) return;
  const int64_t c = i % C, hw = (i / C) % HW, n = i / (C * HW);
  out[(n * C + c) * HW + hw] = in[i] * scale[c];
}

__global__ void transposeSizeT(const float *in, float *out, size_t rows, size_t cols) {
  const size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (i >= rows * cols) return;
  const size_t r = i / cols, c = i % cols;
  out[c * rows + r] = in[i];
}

int main(int argc, char **argv) {
  const int N = argInt(argc, argv, 1, 16), C = argInt(argc, argv, 2, 64), H = argInt(argc, argv, 3, 112),
            W = argInt(argc, argv, 4, 112);
  const int R = argInt(argc, argv, 5, 8192), K = argInt(argc, argv, 6, 4096);
  const size_t n = size_t(N) * C * H * W, nm = size_t(R) * K;
  std::vector<float> a(n), s(C), m(nm);
  fillFloats(a, 6101);
  fillFloats(s, 6102);
  fillFloats(m, 6103);
  float *da = toDevice(a), *ds = toDevice(s), *dm = toDevice(m), *dt, *dback, *dmt;
  CHECK(cudaMalloc(&dt, n * sizeof(float)));
  CHECK(cudaMalloc(&dback, n * sizeof(float)));
  CHECK(cudaMalloc(&dmt, nm * sizeof(float)));
  CHECK(cudaDeviceSynchronize());
  const unsigned threads = 256;
  GpuTimer t;
  t.start();
  for (int r = 0; r < 2; r++) {
    nchwToNhwc64<<<blocksFor(long(n), threads), threads>>>(da, dt, N, C, H, W);
    CHECK_LAUNCH();
  }
  for (int r = 0; r < 2; r++) {
    nhwcToNchwScale64<<<blocksFor(long(n), threads), threads>>>(dt, ds, dback, C, int64_t(H) * W, int64_t(n));
    CHECK_LAUNCH();
  }
  for (int r = 0; r < 2; r++) {
    transposeSizeT<<<blocksFor(long(nm), threads), threads>>>(dm, dmt, size_t(R), size_t(K));
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
  if (bad) std::fprintf(stderr, "nchwToNhwc64: %zu of %zu differ\n", bad, n);
  if (bad2) std::fprintf(stderr, "nhwcToNchwScale64: %zu of %zu differ\n", bad2, n);
  if (bad3) std::fprintf(stderr, "transposeSizeT: %zu of %zu differ\n", bad3, nm);
  CHECK(cudaFree(da));
  CHECK(cudaFree(ds));
  CHECK(cudaFree(dm));
  CHECK(cudaFree(dt));
  CHECK(cudaFree(dback));
  CHECK(cudaFree(dmt));
  return finish(ms, bad == 0 && bad2 == 0 && bad3 == 0);
}
