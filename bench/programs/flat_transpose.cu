// flat_transpose: transposes written over a flat range of threads, the
// position split by the width (`x = i % W, y = i / W; out[x*H + y] =
// in[i]`), 1-D blocks of 256: (1) a float matrix, W x H = 8192 x 6000
// (188 MB each way), launched twice; (2) an 8-bit image, 8191 x 8193 (64 MB,
// neither side a multiple of 32), launched twice; (3) a flat NCHW -> NHWC
// permute (`hw = i % HW, c = (i / HW) % C, n = i / (HW * C)`), N = 16,
// C = 64, 112 x 112 (51 MB), launched twice. Timed: all 6 launches.
// Checked exactly. (The transpose pass's flat form, docs/PASSES.md.)
#include "common.h"

__global__ void transposeFlat(const float *in, float *out, int W, int H) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < W * H) {
    int x = i % W, y = i / W;
    out[x * H + y] = in[i];
  }
}

__global__ void transposeFlatBytes(const unsigned char *in, unsigned char *out, int W, int H) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < W * H) {
    int x = i % W, y = i / W;
    out[x * H + y] = in[i];
  }
}

__global__ void nchwToNhwcFlat(const float *in, float *out, int C, int HW, int total) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < total) {
    int hw = i % HW;
    int c = (i / HW) % C;
    int n = i / (HW * C);
    out[(n * HW + hw) * C + c] = in[i];
  }
}

int main(int argc, char **argv) {
  const int W = argInt(argc, argv, 1, 8192), H = argInt(argc, argv, 2, 6000);
  const int Wb = argInt(argc, argv, 3, 8191), Hb = argInt(argc, argv, 4, 8193);
  const int N = argInt(argc, argv, 5, 16), C = argInt(argc, argv, 6, 64), HW = argInt(argc, argv, 7, 112 * 112);
  const size_t n = size_t(W) * H, nb = size_t(Wb) * Hb, np = size_t(N) * C * HW;
  std::vector<float> p(np);
  fillFloats(p, 4103);
  float *dp = toDevice(p), *dpt;
  CHECK(cudaMalloc(&dpt, np * sizeof(float)));
  std::vector<float> a(n);
  fillFloats(a, 4101);
  std::vector<unsigned char> b(nb);
  for (size_t i = 0; i < nb; i++) b[i] = static_cast<unsigned char>(hashAt(4102, i) | 1);
  float *da = toDevice(a), *dat;
  unsigned char *db = toDevice(b), *dbt;
  CHECK(cudaMalloc(&dat, n * sizeof(float)));
  CHECK(cudaMalloc(&dbt, nb));
  CHECK(cudaDeviceSynchronize());
  const unsigned threads = 256;
  GpuTimer t;
  t.start();
  for (int r = 0; r < 2; r++) {
    transposeFlat<<<blocksFor(long(n), threads), threads>>>(da, dat, W, H);
    CHECK_LAUNCH();
  }
  for (int r = 0; r < 2; r++) {
    transposeFlatBytes<<<blocksFor(long(nb), threads), threads>>>(db, dbt, Wb, Hb);
    CHECK_LAUNCH();
  }
  for (int r = 0; r < 2; r++) {
    nchwToNhwcFlat<<<blocksFor(long(np), threads), threads>>>(dp, dpt, C, HW, int(np));
    CHECK_LAUNCH();
  }
  float ms = t.stop();
  std::vector<float> pt = fromDevice(dpt, np);
  size_t bad3 = 0;
  for (size_t img = 0; img < size_t(N); img++)
    for (size_t c = 0; c < size_t(C); c++)
      for (size_t q = 0; q < size_t(HW); q++) bad3 += !(pt[(img * HW + q) * C + c] == p[(img * C + c) * HW + q]);
  if (bad3) std::fprintf(stderr, "nchwToNhwcFlat: %zu of %zu differ\n", bad3, np);
  std::vector<float> at = fromDevice(dat, n);
  std::vector<unsigned char> bt = fromDevice(dbt, nb);
  size_t bad = 0, bad2 = 0;
  for (size_t y = 0; y < size_t(H); y++)
    for (size_t x = 0; x < size_t(W); x++) bad += !(at[x * H + y] == a[y * W + x]);
  for (size_t y = 0; y < size_t(Hb); y++)
    for (size_t x = 0; x < size_t(Wb); x++) bad2 += !(bt[x * Hb + y] == b[y * Wb + x]);
  if (bad) std::fprintf(stderr, "transposeFlat: %zu of %zu differ\n", bad, n);
  if (bad2) std::fprintf(stderr, "transposeFlatBytes: %zu of %zu differ\n", bad2, nb);
  CHECK(cudaFree(da));
  CHECK(cudaFree(dat));
  CHECK(cudaFree(db));
  CHECK(cudaFree(dbt));
  CHECK(cudaFree(dp));
  CHECK(cudaFree(dpt));
  return finish(ms, bad == 0 && bad2 == 0 && bad3 == 0);
}
