// h15_row_writes: rows written, not only read, a thread per row. (1)
// l2_normalize_rows, in-place unit-norm scaling of embedding rows: float,
// `size_t` i, a pointer walk `const float *p = A + i*n, *e = p + n; while
// (p < e) { ss += *p * *p; ++p; }`, then `A[i*n + j] *= inv` with `inv =
// 1/sqrtf(ss)`, 16384 x 2048 values of either sign (+-0.25..1.25; 128 MB),
// 96-thread blocks, `if (i < rows)`; (2) row_prefix_u8, the row pass of an
// integral image: uint8 pixels (1..255) in, `unsigned` running sums out,
// `unsigned` i and j, `#pragma unroll 8`, `run += A[i*n + j]; S[i*n + j] =
// run;`, 16384 x 4096 (in 64 MB, out 256 MB), 256-thread blocks; (3)
// gain_clip_stereo<N>, per-block gain and clipping of 16-bit stereo audio
// in place (short2 frames, the row length a template parameter, N = 2048):
// `int` i and j, the walk counting down `for (int j = N - 1; j >= 0; --j)`,
// `l = s.x*g/256` (a Q8 gain 0.5..2.5 per row), clamped to
// -32768..32767 with a count of clipped samples per row (if / else-if),
// 16384 rows (128 MB, samples +-1..32767), 1024-thread blocks, early
// `return`. Sizes: r1 n1 r2 n2 r3 (argv; N is compile-time). Timed: the 3
// launches. Checked: (1) rtol 1e-3 against double; (2) and (3) exact
// (the rows written and the clip counts).
#include "../common.h"

#define CLIP_N 2048

__global__ void l2_normalize_rows(float *A, size_t rows, size_t n) {
  size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  if (i < rows) {
    const float *p = A + i * n, *e = p + n;
    float ss = 0.0f;
    while (p < e) {
      ss += *p * *p;
      ++p;
    }
    float inv = 1.0f / sqrtf(ss);
    for (size_t j = 0; j < n; j++) A[i * n + j] *= inv;
  }
}

__global__ void row_prefix_u8(const uint8_t *A, unsigned *S, unsigned rows, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < rows) {
    unsigned run = 0;
#pragma unroll 8
    for (unsigned j = 0; j < n; j++) {
      run += A[i * n + j];
      S[i * n + j] = run;
    }
  }
}

template <int N>
__global__ void gain_clip_stereo(short2 *X, const int *gain_q8, int *clipped, int rows) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= rows) return;
  const int g = gain_q8[i];
  int c = 0;
  for (int j = N - 1; j >= 0; --j) {
    short2 s = X[i * N + j];
    int l = s.x * g / 256, r = s.y * g / 256;
    if (l > 32767) {
      l = 32767;
      ++c;
    } else if (l < -32768) {
      l = -32768;
      ++c;
    }
    if (r > 32767) {
      r = 32767;
      ++c;
    } else if (r < -32768) {
      r = -32768;
      ++c;
    }
    X[i * N + j] = make_short2(short(l), short(r));
  }
  clipped[i] = c;
}

static short sample(uint64_t seed, size_t k) {
  uint32_t h = hashAt(seed, k);
  int v = 1 + int((h >> 8) % 32767u);  // 1..32767
  return short((h & 1u) ? -v : v);
}

int main(int argc, char **argv) {
  const int r1 = argInt(argc, argv, 1, 16384);
  const int n1 = argInt(argc, argv, 2, 2048);
  const int r2 = argInt(argc, argv, 3, 16384);
  const int n2 = argInt(argc, argv, 4, 4096);
  const int r3 = argInt(argc, argv, 5, 16384);

  // (1)
  const size_t e1 = size_t(r1) * n1;
  std::vector<float> A1(e1);
  fillFloats(A1, 15501);
  for (size_t k = 0; k < e1; k++)
    if (hashAt(15502, k) & 1u) A1[k] = -A1[k];

  // (2)
  const size_t e2 = size_t(r2) * n2;
  std::vector<uint8_t> A2(e2);
  for (size_t k = 0; k < e2; k++) A2[k] = uint8_t(1 + hashAt(15503, k) % 255u);

  // (3)
  const size_t e3 = size_t(r3) * CLIP_N;
  std::vector<short2> X(e3);
  for (size_t k = 0; k < e3; k++) X[k] = make_short2(sample(15504, k), sample(15505, k));
  std::vector<int> gain(r3);
  for (size_t i = 0; i < size_t(r3); i++) gain[i] = 128 + int(hashAt(15506, i) % 513u);  // 0.5x .. 2.5x

  float *d_A1 = toDevice(A1);
  uint8_t *d_A2 = toDevice(A2);
  unsigned *d_S2;
  CHECK(cudaMalloc(&d_S2, e2 * sizeof(unsigned)));
  short2 *d_X = toDevice(X);
  int *d_gain = toDevice(gain), *d_clip;
  CHECK(cudaMalloc(&d_clip, r3 * sizeof(int)));
  CHECK(cudaDeviceSynchronize());

  GpuTimer t;
  t.start();
  l2_normalize_rows<<<blocksFor(r1, 96), 96>>>(d_A1, size_t(r1), size_t(n1));
  CHECK_LAUNCH();
  row_prefix_u8<<<blocksFor(r2, 256), 256>>>(d_A2, d_S2, unsigned(r2), unsigned(n2));
  CHECK_LAUNCH();
  gain_clip_stereo<CLIP_N><<<blocksFor(r3, 1024), 1024>>>(d_X, d_gain, d_clip, r3);
  CHECK_LAUNCH();
  float ms = t.stop();
  std::vector<float> gA1 = fromDevice(d_A1, e1);
  std::vector<unsigned> gS2 = fromDevice(d_S2, e2);
  std::vector<short2> gX = fromDevice(d_X, e3);
  std::vector<int> gclip = fromDevice(d_clip, r3);

  // (1)
  std::vector<float> wA1(e1);
  for (size_t i = 0; i < size_t(r1); i++) {
    double ss = 0;
    for (size_t j = 0; j < size_t(n1); j++) ss += double(A1[i * n1 + j]) * A1[i * n1 + j];
    double inv = 1.0 / std::sqrt(ss);
    for (size_t j = 0; j < size_t(n1); j++) wA1[i * n1 + j] = float(A1[i * n1 + j] * inv);
  }
  bool ok = checkFloats("l2_normalize_rows", gA1.data(), wA1.data(), e1, 1e-3);

  // (2)
  std::vector<unsigned> wS2(e2);
  for (size_t i = 0; i < size_t(r2); i++) {
    unsigned run = 0;
    for (size_t j = 0; j < size_t(n2); j++) wS2[i * n2 + j] = run += A2[i * n2 + j];
  }
  ok = checkExact("row_prefix_u8", gS2.data(), wS2.data(), e2) && ok;

  // (3) the samples compared as int16 pairs.
  std::vector<int16_t> gx(2 * e3), wx(2 * e3);
  std::vector<int> wclip(r3);
  for (size_t i = 0; i < size_t(r3); i++) {
    int c = 0;
    for (size_t j = 0; j < CLIP_N; j++) {
      size_t k = i * CLIP_N + j;
      int v[2] = {X[k].x * gain[i] / 256, X[k].y * gain[i] / 256};
      for (int ch = 0; ch < 2; ch++) {
        if (v[ch] > 32767) v[ch] = 32767, c++;
        else if (v[ch] < -32768) v[ch] = -32768, c++;
        wx[2 * k + ch] = int16_t(v[ch]);
      }
      gx[2 * k] = gX[k].x, gx[2 * k + 1] = gX[k].y;
    }
    wclip[i] = c;
  }
  ok = checkExact("gain_clip_stereo samples", gx.data(), wx.data(), gx.size()) && ok;
  ok = checkExact("gain_clip_stereo clipped", gclip.data(), wclip.data(), r3) && ok;

  CHECK(cudaFree(d_A1));
  CHECK(cudaFree(d_A2));
  CHECK(cudaFree(d_S2));
  CHECK(cudaFree(d_X));
  CHECK(cudaFree(d_gain));
  CHECK(cudaFree(d_clip));
  return finish(ms, ok);
}
