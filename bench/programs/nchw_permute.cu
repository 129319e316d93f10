// nchw_permute: layout conversions written the way tensor code writes them,
// one thread per element over a flat range, the index split into w, h, c
// and n apart (`w = i % W; h = (i / W) % H; c = (i / (W*H)) % C; n = i /
// (W*H*C)`): (1) NCHW -> NHWC of a float batch, N = 16, C = 64, 112 x 112
// (51 MB each way), then (2) NHWC -> NCHW back with a per-channel scale
// (`c = i % C; w = (i / C) % W; ...`), then (3) NCHW -> NHWC of an 8-bit
// batch, N = 16, C = 256, 56 x 56 (13 MB); 1-D blocks of 256, each
// launched twice. Timed: all 6 launches. Checked exactly. (The transpose
// pass's flat form with three splits, docs/PASSES.md.)
#include "common.h"

__global__ void nchwToNhwc(const float *in, float *out, int N, int C, int H, int W) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= N * C * H * W) return;
  int w = i % W;
  int h = (i / W) % H;
  int c = (i / (W * H)) % C;
  int n = i / (W * H * C);
  out[((n * H + h) * W + w) * C + c] = in[i];
}

__global__ void nhwcToNchwScale(const float *in, const float *scale, float *out, int N, int C, int H, int W) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= N * C * H * W) return;
  int c = i % C;
  int w = (i / C) % W;
  int h = (i / (C * W)) % H;
  int n = i / (C * W * H);
  out[((n * C + c) * H + h) * W + w] = in[i] * scale[c];
}

__global__ void nchwToNhwcBytes(const unsigned char *in, unsigned char *out, int N, int C, int H, int W) {
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

int main(int argc, char **argv) {
  const int N = argInt(argc, argv, 1, 16), C = argInt(argc, argv, 2, 64), H = argInt(argc, argv, 3, 112),
            W = argInt(argc, argv, 4, 112);
  const int Cb = argInt(argc, argv, 5, 256), Hb = argInt(argc, argv, 6, 56), Wb = argInt(argc, argv, 7, 56);
  const size_t n = size_t(N) * C * H * W, nb = size_t(N) * Cb * Hb * Wb;
  std::vector<float> a(n), s(C);
  fillFloats(a, 5101);
  fillFloats(s, 5102);
  std::vector<unsigned char> b(nb);
  for (size_t i = 0; i < nb; i++) b[i] = static_cast<unsigned char>(hashAt(5103, i) | 1);
  float *da = toDevice(a), *ds = toDevice(s), *dt, *dback;
  unsigned char *db = toDevice(b), *dbt;
  CHECK(cudaMalloc(&dt, n * sizeof(float)));
  CHECK(cudaMalloc(&dback, n * sizeof(float)));
  CHECK(cudaMalloc(&dbt, nb));
  CHECK(cudaDeviceSynchronize());
  const unsigned threads = 256;
  GpuTimer t;
  t.start();
  for (int r = 0; r < 2; r++) {
    nchwToNhwc<<<blocksFor(long(n), threads), threads>>>(da, dt, N, C, H, W);
    CHECK_LAUNCH();
  }
  for (int r = 0; r < 2; r++) {
    nhwcToNchwScale<<<blocksFor(long(n), threads), threads>>>(dt, ds, dback, N, C, H, W);
    CHECK_LAUNCH();
  }
  for (int r = 0; r < 2; r++) {
    nchwToNhwcBytes<<<blocksFor(long(nb), threads), threads>>>(db, dbt, N, Cb, Hb, Wb);
    CHECK_LAUNCH();
  }
  float ms = t.stop();
  std::vector<float> nhwc = fromDevice(dt, n), back = fromDevice(dback, n);
  std::vector<unsigned char> bt = fromDevice(dbt, nb);
  size_t bad = 0, bad2 = 0, bad3 = 0;
  const size_t HW = size_t(H) * W, HWb = size_t(Hb) * Wb;
  for (size_t img = 0; img < size_t(N); img++)
    for (size_t c = 0; c < size_t(C); c++)
      for (size_t q = 0; q < HW; q++) {
        const float v = a[(img * C + c) * HW + q];
        bad += !(nhwc[(img * HW + q) * C + c] == v);
        bad2 += !(back[(img * C + c) * HW + q] == v * s[c]);
      }
  for (size_t img = 0; img < size_t(N); img++)
    for (size_t c = 0; c < size_t(Cb); c++)
      for (size_t q = 0; q < HWb; q++) bad3 += !(bt[(img * HWb + q) * Cb + c] == b[(img * Cb + c) * HWb + q]);
  if (bad) std::fprintf(stderr, "nchwToNhwc: %zu of %zu differ\n", bad, n);
  if (bad2) std::fprintf(stderr, "nhwcToNchwScale: %zu of %zu differ\n", bad2, n);
  if (bad3) std::fprintf(stderr, "nchwToNhwcBytes: %zu of %zu differ\n", bad3, nb);
  CHECK(cudaFree(da));
  CHECK(cudaFree(ds));
  CHECK(cudaFree(dt));
  CHECK(cudaFree(dback));
  CHECK(cudaFree(db));
  CHECK(cudaFree(dbt));
  return finish(ms, bad == 0 && bad2 == 0 && bad3 == 0);
}
