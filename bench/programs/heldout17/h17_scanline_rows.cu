// h17_scanline_rows: image and sensor scanlines, a thread per row. (1)
// rle_encode, the run-length encoding of a binary mask row in the COCO
// style (counts alternate, starting with the background, the first count
// possibly 0) into at most RLE_MAX (64, `#define`) uint16 counts a row,
// leaving the row at the 64th count (`break`) and writing the number of
// counts: uint8 mask (0 / 1), `int` i and j, the row length at run time
// (1921, odd), 32768 rows (60 MB; one row in 8 noisy, with runs of 1..6, so
// that it fills its 64 counts), 320-thread blocks, `if (i < rows)`; (2)
// integral_rows, the row pass of the integral images of a 12-bit sensor
// frame and of its square (the local mean and variance of adaptive
// thresholding): uint16 pixels in, `unsigned` and `unsigned long long`
// running sums written to two output rows, the length the `#define` IW
// (2047, odd), a `size_t` grid-stride loop over rows (768-thread blocks,
// half the blocks a thread per row would need), 8192 rows (32 MB in, 64 +
// 128 MB out); (3) resample_flow, bilinear down-sampling (by 1.5) of an
// optical-flow field of float2 (u, v) vectors, each output row reading two
// input rows, the vectors scaled by the size ratio: `long long` y and x,
// all sizes at run time, 2048 x 4097 in (64 MB), 1365 x 2731 out, 64-thread
// blocks, early `return`. Sizes: r1 n1 r2 h3 w3 (argv; the output is 2/3
// of the input each way; RLE_MAX and IW are compile-time). Timed: the 3
// launches. Checked: (1) and (2) exactly; (3) against float in the same
// order on the host, rtol 2e-3 (floor 1: the sample positions are floats,
// and a contracted `(x + 0.5f)*sw - 0.5f` moves a weight by an ulp of ~2e-4).
#include "../common.h"
#include <algorithm>

#define RLE_MAX 64
#define IW 2047

__global__ void rle_encode(const uint8_t *mask, uint16_t *counts, int *ncounts, int rows, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < rows) {
    int k = 0, len = 0;
    uint8_t cur = 0;
    for (int j = 0; j < n; j++) {
      uint8_t v = mask[i * n + j];
      if (v != cur) {
        counts[i * RLE_MAX + k] = uint16_t(len);
        k++;
        if (k == RLE_MAX) break;
        cur = v;
        len = 1;
      } else {
        len++;
      }
    }
    if (k < RLE_MAX) counts[i * RLE_MAX + k++] = uint16_t(len);
    ncounts[i] = k;
  }
}

__global__ void integral_rows(const uint16_t *img, unsigned *sum, unsigned long long *sumsq, size_t rows) {
  for (size_t r = blockIdx.x * (size_t)blockDim.x + threadIdx.x; r < rows; r += (size_t)blockDim.x * gridDim.x) {
    unsigned s = 0;
    unsigned long long s2 = 0;
    for (size_t j = 0; j < IW; j++) {
      unsigned v = img[r * IW + j];
      s += v;
      s2 += (unsigned long long)(v * v);
      sum[r * IW + j] = s;
      sumsq[r * IW + j] = s2;
    }
  }
}

__global__ void resample_flow(const float2 *in, float2 *out, long long H, long long W, long long H2, long long W2) {
  long long y = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (y >= H2) return;
  const float sh = float(H) / float(H2), sw = float(W) / float(W2);
  float sy = (y + 0.5f) * sh - 0.5f;
  if (sy < 0.0f) sy = 0.0f;
  long long y0 = (long long)sy;
  long long y1 = y0 + 1 < H ? y0 + 1 : H - 1;
  float wy = sy - float(y0);
  const float2 *r0 = in + y0 * W, *r1 = in + y1 * W;
  for (long long x = 0; x < W2; ++x) {
    float sx = (x + 0.5f) * sw - 0.5f;
    if (sx < 0.0f) sx = 0.0f;
    long long x0 = (long long)sx;
    long long x1 = x0 + 1 < W ? x0 + 1 : W - 1;
    float wx = sx - float(x0);
    float2 a = r0[x0], b = r0[x1], c = r1[x0], d = r1[x1];
    float2 o;
    o.x = ((1.0f - wy) * ((1.0f - wx) * a.x + wx * b.x) + wy * ((1.0f - wx) * c.x + wx * d.x)) / sw;
    o.y = ((1.0f - wy) * ((1.0f - wx) * a.y + wx * b.y) + wy * ((1.0f - wx) * c.y + wx * d.y)) / sh;
    out[y * W2 + x] = o;
  }
}

int main(int argc, char **argv) {
  const int r1 = argInt(argc, argv, 1, 32768);
  const int n1 = argInt(argc, argv, 2, 1921);
  const int r2 = argInt(argc, argv, 3, 8192);
  const int h3 = argInt(argc, argv, 4, 2048);
  const int w3 = argInt(argc, argv, 5, 4097);
  const int h3o = h3 * 2 / 3, w3o = w3 * 2 / 3;

  // (1) runs of 8..300 (noisy rows: 1..6), the first run's value random.
  const size_t e1 = size_t(r1) * n1;
  std::vector<uint8_t> mask(e1);
  for (size_t i = 0; i < size_t(r1); i++) {
    bool noisy = hashAt(17601, i) % 8u == 0;
    uint8_t v = uint8_t(hashAt(17602, i) & 1u);
    for (size_t j = 0, run = 0; j < size_t(n1); run++, v ^= 1u) {
      uint32_t h = hashAt(17603, i * 4096 + run);
      size_t len = noisy ? 1 + h % 6u : 8 + h % 293u;
      for (size_t k = 0; k < len && j < size_t(n1); k++) mask[i * n1 + j++] = v;
    }
  }

  // (2) 12-bit pixels: a per-row level plus noise.
  const size_t e2 = size_t(r2) * IW;
  std::vector<uint16_t> img(e2);
  for (size_t r = 0; r < size_t(r2); r++) {
    uint32_t base = hashAt(17604, r) % 3072u;
    for (size_t j = 0; j < IW; j++) img[r * IW + j] = uint16_t(base + hashAt(17605, r * IW + j) % 1024u);
  }

  // (3) flow vectors: a smooth field (linear in row and column) plus noise
  // +-0.5, components in about +-3.5.
  const size_t e3 = size_t(h3) * w3;
  std::vector<float2> flow(e3);
  for (size_t y = 0; y < size_t(h3); y++)
    for (size_t x = 0; x < size_t(w3); x++) {
      size_t q = y * w3 + x;
      flow[q].x = 4.0f * float(x) / float(w3) - 2.0f + (float(hashAt(17606, q) >> 8) * (1.0f / 16777216.0f) - 0.5f);
      flow[q].y = 3.0f - 6.0f * float(y) / float(h3) + (float(hashAt(17607, q) >> 8) * (1.0f / 16777216.0f) - 0.5f);
    }

  uint8_t *d_mask = toDevice(mask);
  uint16_t *d_counts;
  int *d_ncounts;
  CHECK(cudaMalloc(&d_counts, size_t(r1) * RLE_MAX * sizeof(uint16_t)));
  CHECK(cudaMemset(d_counts, 0, size_t(r1) * RLE_MAX * sizeof(uint16_t)));
  CHECK(cudaMalloc(&d_ncounts, size_t(r1) * sizeof(int)));
  uint16_t *d_img = toDevice(img);
  unsigned *d_sum;
  unsigned long long *d_sumsq;
  CHECK(cudaMalloc(&d_sum, e2 * sizeof(unsigned)));
  CHECK(cudaMalloc(&d_sumsq, e2 * sizeof(unsigned long long)));
  float2 *d_flow = toDevice(flow), *d_out;
  CHECK(cudaMalloc(&d_out, size_t(h3o) * w3o * sizeof(float2)));
  CHECK(cudaDeviceSynchronize());

  GpuTimer t;
  t.start();
  rle_encode<<<blocksFor(r1, 320), 320>>>(d_mask, d_counts, d_ncounts, r1, n1);
  CHECK_LAUNCH();
  integral_rows<<<blocksFor(r2, 768 * 2), 768>>>(d_img, d_sum, d_sumsq, size_t(r2));
  CHECK_LAUNCH();
  resample_flow<<<blocksFor(h3o, 64), 64>>>(d_flow, d_out, h3, w3, h3o, w3o);
  CHECK_LAUNCH();
  float ms = t.stop();
  std::vector<uint16_t> gcounts = fromDevice(d_counts, size_t(r1) * RLE_MAX);
  std::vector<int> gncounts = fromDevice(d_ncounts, size_t(r1));
  std::vector<unsigned> gsum = fromDevice(d_sum, e2);
  std::vector<unsigned long long> gsumsq = fromDevice(d_sumsq, e2);
  std::vector<float2> gout = fromDevice(d_out, size_t(h3o) * w3o);

  // (1): the run boundaries first, then the counts (a leading 0 when the
  // row starts with a 1), cut at RLE_MAX.
  std::vector<uint16_t> wcounts(size_t(r1) * RLE_MAX, 0);
  std::vector<int> wncounts(r1);
  std::vector<int> ends;
  for (size_t i = 0; i < size_t(r1); i++) {
    const uint8_t *m = &mask[i * n1];
    ends.clear();
    if (m[0] != 0) ends.push_back(0);
    for (int j = 1; j <= n1; j++)
      if (j == n1 || m[j] != m[j - 1]) ends.push_back(j);
    int k = 0, prev = 0;
    for (int e : ends) {
      if (k == RLE_MAX) break;
      wcounts[i * RLE_MAX + k++] = uint16_t(e - prev);
      prev = e;
    }
    wncounts[i] = k;
  }
  bool ok = checkExact("rle_encode counts", gcounts.data(), wcounts.data(), size_t(r1) * RLE_MAX);
  ok = checkExact("rle_encode ncounts", gncounts.data(), wncounts.data(), size_t(r1)) && ok;

  // (2)
  std::vector<unsigned> wsum(e2);
  std::vector<unsigned long long> wsumsq(e2);
  for (size_t r = 0; r < size_t(r2); r++) {
    const uint16_t *p = &img[r * IW];
    wsum[r * IW] = p[0];
    wsumsq[r * IW] = (unsigned long long)p[0] * p[0];
    for (size_t j = 1; j < IW; j++) {
      wsum[r * IW + j] = wsum[r * IW + j - 1] + p[j];
      wsumsq[r * IW + j] = wsumsq[r * IW + j - 1] + (unsigned long long)p[j] * p[j];
    }
  }
  ok = checkExact("integral_rows sum", gsum.data(), wsum.data(), e2) && ok;
  ok = checkExact("integral_rows sumsq", gsumsq.data(), wsumsq.data(), e2) && ok;

  // (3)
  const size_t e3o = size_t(h3o) * w3o;
  std::vector<float> gxy(2 * e3o), wxy(2 * e3o);
  const float sh = float(h3) / float(h3o), sw = float(w3) / float(w3o);
  for (long long y = 0; y < h3o; y++) {
    float sy = std::max((y + 0.5f) * sh - 0.5f, 0.0f);
    long long y0 = (long long)sy, y1 = std::min(y0 + 1, (long long)h3 - 1);
    float wy = sy - float(y0);
    for (long long x = 0; x < w3o; x++) {
      float sx = std::max((x + 0.5f) * sw - 0.5f, 0.0f);
      long long x0 = (long long)sx, x1 = std::min(x0 + 1, (long long)w3 - 1);
      float wx = sx - float(x0);
      const float2 a = flow[y0 * w3 + x0], b = flow[y0 * w3 + x1], c = flow[y1 * w3 + x0], d = flow[y1 * w3 + x1];
      size_t q = size_t(y) * w3o + x;
      wxy[2 * q] = ((1.0f - wy) * ((1.0f - wx) * a.x + wx * b.x) + wy * ((1.0f - wx) * c.x + wx * d.x)) / sw;
      wxy[2 * q + 1] = ((1.0f - wy) * ((1.0f - wx) * a.y + wx * b.y) + wy * ((1.0f - wx) * c.y + wx * d.y)) / sh;
      gxy[2 * q] = gout[q].x;
      gxy[2 * q + 1] = gout[q].y;
    }
  }
  ok = checkFloats("resample_flow", gxy.data(), wxy.data(), 2 * e3o, 2e-3, 1.0) && ok;

  CHECK(cudaFree(d_mask));
  CHECK(cudaFree(d_counts));
  CHECK(cudaFree(d_ncounts));
  CHECK(cudaFree(d_img));
  CHECK(cudaFree(d_sum));
  CHECK(cudaFree(d_sumsq));
  CHECK(cudaFree(d_flow));
  CHECK(cudaFree(d_out));
  return finish(ms, ok);
}
