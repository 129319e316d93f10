// const_sizes: flat transposes and a permute whose sizes are compile-time
// constants (`#define`, template arguments), as fixed-size image and model
// code writes them; nvcc divides by them with shifts, masks and magic
// multiplications, never a div: (1) a float matrix, 8192 x 8192 (`#define
// N 8192`, int index; 268 MB each way); (2) an 8-bit image through a
// template, 8191 x 8193 (neither a multiple of 32, nor a power of two); (3)
// NCHW -> NHWC, N = 16, C = 64, 112 x 112, w, h, c and n split apart by
// constants; 1-D blocks of 256, each launched twice. Timed: all 6 launches.
// Checked exactly. (The transpose pass's compile-time radices,
// docs/PASSES.md.)
#include "common.h"

#define N 8192
__global__ void transposeConst(const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N * N) {
    int x = i % N, y = i / N;
    out[x * N + y] = in[i];
  }
}

template <int W, int H>
__global__ void transposeImage(const unsigned char *in, unsigned char *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < W * H) {
    int x = i % W, y = i / W;
    out[x * H + y] = in[i];
  }
}

constexpr int kN = 16, kC = 64, kH = 112, kW = 112;
__global__ void nchwToNhwcConst(const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < kN * kC * kH * kW) {
    int w = i % kW, h = (i / kW) % kH, c = (i / (kW * kH)) % kC, n = i / (kW * kH * kC);
    out[((n * kH + h) * kW + w) * kC + c] = in[i];
  }
}

int main() {
  constexpr int Wb = 8191, Hb = 8193;
  const size_t n = size_t(N) * N, nb = size_t(Wb) * Hb, np = size_t(kN) * kC * kH * kW;
  std::vector<float> a(n), p(np);
  fillFloats(a, 4201);
  fillFloats(p, 4203);
  std::vector<unsigned char> b(nb);
  for (size_t i = 0; i < nb; i++) b[i] = static_cast<unsigned char>(hashAt(4202, i) | 1);
  float *da = toDevice(a), *dp = toDevice(p), *dat, *dpt;
  unsigned char *db = toDevice(b), *dbt;
  CHECK(cudaMalloc(&dat, n * sizeof(float)));
  CHECK(cudaMalloc(&dpt, np * sizeof(float)));
  CHECK(cudaMalloc(&dbt, nb));
  CHECK(cudaDeviceSynchronize());
  const unsigned threads = 256;
  GpuTimer t;
  t.start();
  for (int r = 0; r < 2; r++) {
    transposeConst<<<blocksFor(long(n), threads), threads>>>(da, dat);
    CHECK_LAUNCH();
  }
  for (int r = 0; r < 2; r++) {
    transposeImage<Wb, Hb><<<blocksFor(long(nb), threads), threads>>>(db, dbt);
    CHECK_LAUNCH();
  }
  for (int r = 0; r < 2; r++) {
    nchwToNhwcConst<<<blocksFor(long(np), threads), threads>>>(dp, dpt);
    CHECK_LAUNCH();
  }
  float ms = t.stop();
  std::vector<float> at = fromDevice(dat, n), pt = fromDevice(dpt, np);
  std::vector<unsigned char> bt = fromDevice(dbt, nb);
  size_t bad = 0, bad2 = 0, bad3 = 0;
  for (size_t y = 0; y < size_t(N); y++)
    for (size_t x = 0; x < size_t(N); x++) bad += !(at[x * N + y] == a[y * N + x]);
  for (size_t y = 0; y < size_t(Hb); y++)
    for (size_t x = 0; x < size_t(Wb); x++) bad2 += !(bt[x * Hb + y] == b[y * Wb + x]);
  for (size_t img = 0; img < size_t(kN); img++)
    for (size_t c = 0; c < size_t(kC); c++)
      for (size_t q = 0; q < size_t(kH * kW); q++)
        bad3 += !(pt[(img * kH * kW + q) * kC + c] == p[(img * kC + c) * kH * kW + q]);
  if (bad) std::fprintf(stderr, "transposeConst: %zu of %zu differ\n", bad, n);
  if (bad2) std::fprintf(stderr, "transposeImage: %zu of %zu differ\n", bad2, nb);
  if (bad3) std::fprintf(stderr, "nchwToNhwcConst: %zu of %zu differ\n", bad3, np);
  CHECK(cudaFree(da));
  CHECK(cudaFree(dat));
  CHECK(cudaFree(db));
  CHECK(cudaFree(dbt));
  CHECK(cudaFree(dp));
  CHECK(cudaFree(dpt));
  return finish(ms, bad == 0 && bad2 == 0 && bad3 == 0);
}
