// h16_transformer_rows: attention and a LayerNorm backward written a thread
// per query / per row. (1) attn_scores_rows, the score matrix of a
// prefill: float, `int` indices, head count, keys per head L, head size D
// and queries per head all at run time; thread i is one query of head
// h = i/qph and walks its head's K rows,
// `dot += Q[i*D + d] * K[(h*L + j)*D + d]`, writing
// `S[i*L + j] = dot*scale`, 512 heads x 512 keys x 64 (K 64 MB), 32 queries
// a head (Q 4 MB, S 32 MB), positive inputs 0.25..1.25, 256-thread blocks,
// `if (i < nq)`; (2) attn_decode<D>, decode-step attention against an fp16
// KV cache with an online softmax: the head size a template parameter (D =
// 64), `unsigned` i, j and L, `size_t` cache offsets `(h*L + j)*D`, q read
// with `__ldg` through `const float *__restrict__`, `#pragma unroll` over
// d, the running max / sum and `acc[D]` rescaled by `expf(m - mn)` at each
// key, then `out[i*D + d] = acc[d]/s`; 256 KV heads x 2048 keys x 64 (K
// 64 MB, V 64 MB), 32 queries a KV head (grouped-query: 8192 threads), K
// halves +-0.25..2, V halves 0.25..2, 64-thread blocks, early `return`;
// (3) layernorm_bwd_rows, the input gradient of a LayerNorm in double,
// reading the dy and x rows at once with the forward's per-row mean and
// rstd: the row length a `#define` (LNB_N 1024), `size_t` i in a
// grid-stride loop over rows (8 blocks of 512, 2 rows a thread at the
// default size), a pass summing `g = dy*gamma[j]` and `g*xhat`, then
// `dx = rstd*(g - mean(g) - xhat*mean(g*xhat))`, 8192 rows (dy, x and dx
// 64 MB each). Sizes: heads L D qph kvheads L2 qpk rows3 (argv; the decode
// head size and LNB_N are compile-time). Timed: the 3 launches. Checked:
// (1) and (2) rtol 1e-3 against double (a plain two-pass softmax for (2));
// (3) 1e-9 against double (floor 1).
#include "../common.h"
#include <cuda_fp16.h>

#define DEC_D 64
#define LNB_N 1024

__global__ void attn_scores_rows(const float *Q, const float *K, float *S, int nq, int qph, int L, int D,
                                 float scale) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < nq) {
    int h = i / qph;
    for (int j = 0; j < L; j++) {
      float dot = 0.0f;
      for (int d = 0; d < D; d++) dot += Q[i * D + d] * K[(h * L + j) * D + d];
      S[i * L + j] = dot * scale;
    }
  }
}

template <int D>
__global__ void attn_decode(const float *__restrict__ q, const __half *__restrict__ Kc, const __half *__restrict__ Vc,
                            float *__restrict__ out, unsigned nq, unsigned qpk, unsigned L, float scale) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= nq) return;
  unsigned h = i / qpk;
  float acc[D];
#pragma unroll
  for (int d = 0; d < D; d++) acc[d] = 0.0f;
  float m = -INFINITY, s = 0.0f;
  for (unsigned j = 0; j < L; j++) {
    const __half *k = Kc + ((size_t)h * L + j) * D;
    const __half *v = Vc + ((size_t)h * L + j) * D;
    float dot = 0.0f;
#pragma unroll
    for (int d = 0; d < D; d++) dot += __ldg(&q[i * D + d]) * __half2float(k[d]);
    dot *= scale;
    float mn = fmaxf(m, dot);
    float c = expf(m - mn), p = expf(dot - mn);
    s = s * c + p;
#pragma unroll
    for (int d = 0; d < D; d++) acc[d] = acc[d] * c + p * __half2float(v[d]);
    m = mn;
  }
  float inv = 1.0f / s;
#pragma unroll
  for (int d = 0; d < D; d++) out[i * D + d] = acc[d] * inv;
}

__global__ void layernorm_bwd_rows(const double *dy, const double *x, const double *gamma, const double *mean,
                                   const double *rstd, double *dx, size_t rows) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < rows; i += (size_t)blockDim.x * gridDim.x) {
    double mu = mean[i], rs = rstd[i];
    double sg = 0.0, sgx = 0.0;
    for (int j = 0; j < LNB_N; j++) {
      double g = dy[i * LNB_N + j] * gamma[j];
      double xh = (x[i * LNB_N + j] - mu) * rs;
      sg += g;
      sgx += g * xh;
    }
    sg /= LNB_N;
    sgx /= LNB_N;
    for (int j = 0; j < LNB_N; j++) {
      double g = dy[i * LNB_N + j] * gamma[j];
      double xh = (x[i * LNB_N + j] - mu) * rs;
      dx[i * LNB_N + j] = rs * (g - sg - xh * sgx);
    }
  }
}

// +-[lo, hi): the sign from another hash bit, never zero.
static void fillSigned(std::vector<float> &v, uint64_t seed, float lo, float hi) {
  fillFloats(v, seed, lo, hi);
  for (size_t k = 0; k < v.size(); k++)
    if (hashAt(seed + 7, k) & 1u) v[k] = -v[k];
}

// A normal half from a hash: sign bit (or none), exponent in [emin, emax], 10 mantissa bits.
static uint16_t halfBits(uint32_t h, int emin, int emax, bool sign) {
  uint32_t e = uint32_t(emin + int(h % uint32_t(emax - emin + 1)) + 15);
  return uint16_t(((sign ? h >> 31 : 0u) << 15) | (e << 10) | ((h >> 8) & 1023u));
}

static float halfBitsToFloat(uint16_t b) {
  float v = std::ldexp(float((b & 1023) | 1024), int((b >> 10) & 31) - 25);
  return (b >> 15) ? -v : v;
}

static bool checkDoubles(const char *what, const double *got, const double *want, size_t n, double rtol,
                         double floor) {
  size_t bad = 0, first = 0;
  for (size_t i = 0; i < n; ++i)
    if (!closeEnough(got[i], want[i], rtol, floor)) {
      if (!bad) first = i;
      ++bad;
    }
  if (bad)
    std::fprintf(stderr, "%s: %zu of %zu differ; first at %zu: got %.17g want %.17g\n", what, bad, n, first,
                 got[first], want[first]);
  return bad == 0;
}

int main(int argc, char **argv) {
  const int heads = argInt(argc, argv, 1, 512);
  const int L = argInt(argc, argv, 2, 512);
  const int D = argInt(argc, argv, 3, 64);
  const int qph = argInt(argc, argv, 4, 32);
  const int kvh = argInt(argc, argv, 5, 256);
  const int L2 = argInt(argc, argv, 6, 2048);
  const int qpk = argInt(argc, argv, 7, 32);
  const int r3 = argInt(argc, argv, 8, 8192);

  // (1)
  const int nq = heads * qph;
  const size_t eK = size_t(heads) * L * D, eQ = size_t(nq) * D, eS = size_t(nq) * L;
  std::vector<float> Q1(eQ), K1(eK);
  fillFloats(Q1, 16401);
  fillFloats(K1, 16402);
  const float scale1 = 1.0f / std::sqrt(float(D));

  // (2) the KV cache as half bit patterns.
  const int nq2 = kvh * qpk;
  const size_t eC = size_t(kvh) * L2 * DEC_D;
  std::vector<uint16_t> kb(eC), vb(eC);
  std::vector<__half> kc(eC), vc(eC);
  for (size_t k = 0; k < eC; k++) {
    kb[k] = halfBits(hashAt(16403, k), -2, 0, true);
    vb[k] = halfBits(hashAt(16404, k), -2, 0, false);
    __half_raw hr;
    hr.x = kb[k];
    kc[k] = __half(hr);
    hr.x = vb[k];
    vc[k] = __half(hr);
  }
  std::vector<float> q2(size_t(nq2) * DEC_D);
  fillSigned(q2, 16405, 0.25f, 1.25f);
  const float scale2 = 0.125f;

  // (3) the forward's inputs and statistics, and the upstream gradient.
  const size_t e3 = size_t(r3) * LNB_N;
  std::vector<double> x3(e3), dy3(e3), gamma3(LNB_N), mean3(r3), rstd3(r3);
  for (size_t k = 0; k < e3; k++) {
    x3[k] = 0.25 + (hashAt(16406, k) >> 8) * (1.0 / 16777216.0);
    dy3[k] = ((hashAt(16407, k) & 1u) ? -1.0 : 1.0) * (0.25 + (hashAt(16408, k) >> 8) * (1.0 / 16777216.0));
  }
  for (size_t j = 0; j < LNB_N; j++) gamma3[j] = 0.5 + (hashAt(16409, j) >> 8) * (1.0 / 16777216.0);
  for (size_t i = 0; i < size_t(r3); i++) {
    double mu = 0, var = 0;
    for (size_t j = 0; j < LNB_N; j++) mu += x3[i * LNB_N + j];
    mu /= LNB_N;
    for (size_t j = 0; j < LNB_N; j++) var += (x3[i * LNB_N + j] - mu) * (x3[i * LNB_N + j] - mu);
    var /= LNB_N;
    mean3[i] = mu;
    rstd3[i] = 1.0 / std::sqrt(var + 1e-5);
  }

  float *d_Q1 = toDevice(Q1), *d_K1 = toDevice(K1), *d_S1;
  CHECK(cudaMalloc(&d_S1, eS * sizeof(float)));
  __half *d_kc = toDevice(kc), *d_vc = toDevice(vc);
  float *d_q2 = toDevice(q2), *d_o2;
  CHECK(cudaMalloc(&d_o2, size_t(nq2) * DEC_D * sizeof(float)));
  double *d_x3 = toDevice(x3), *d_dy3 = toDevice(dy3), *d_g3 = toDevice(gamma3), *d_m3 = toDevice(mean3),
         *d_r3 = toDevice(rstd3), *d_dx3;
  CHECK(cudaMalloc(&d_dx3, e3 * sizeof(double)));
  CHECK(cudaDeviceSynchronize());

  GpuTimer t;
  t.start();
  attn_scores_rows<<<blocksFor(nq, 256), 256>>>(d_Q1, d_K1, d_S1, nq, qph, L, D, scale1);
  CHECK_LAUNCH();
  attn_decode<DEC_D><<<blocksFor(nq2, 64), 64>>>(d_q2, d_kc, d_vc, d_o2, unsigned(nq2), unsigned(qpk), unsigned(L2),
                                                 scale2);
  CHECK_LAUNCH();
  layernorm_bwd_rows<<<8, 512>>>(d_dy3, d_x3, d_g3, d_m3, d_r3, d_dx3, size_t(r3));
  CHECK_LAUNCH();
  float ms = t.stop();
  std::vector<float> gS1 = fromDevice(d_S1, eS);
  std::vector<float> go2 = fromDevice(d_o2, size_t(nq2) * DEC_D);
  std::vector<double> gdx3 = fromDevice(d_dx3, e3);

  // (1)
  std::vector<float> wS1(eS);
  for (size_t i = 0; i < size_t(nq); i++) {
    const float *qi = &Q1[i * D];
    const float *Kh = &K1[(i / qph) * size_t(L) * D];
    for (size_t j = 0; j < size_t(L); j++) {
      double dot = 0;
      for (int d = 0; d < D; d++) dot += double(qi[d]) * Kh[j * D + d];
      wS1[i * L + j] = float(dot * scale1);
    }
  }
  bool ok = checkFloats("attn_scores_rows", gS1.data(), wS1.data(), eS, 1e-3);

  // (2): a two-pass softmax over all keys, then the weighted V sum.
  std::vector<float> lut(65536);
  for (uint32_t b = 0; b < 65536; b++) lut[b] = ((b >> 10) & 31) == 31 ? 0.0f : halfBitsToFloat(uint16_t(b));
  std::vector<float> wo2(size_t(nq2) * DEC_D);
  std::vector<double> sc(L2), o(DEC_D);
  for (size_t i = 0; i < size_t(nq2); i++) {
    const size_t base = (i / qpk) * size_t(L2) * DEC_D;
    double m = -INFINITY;
    for (size_t j = 0; j < size_t(L2); j++) {
      double dot = 0;
      for (size_t d = 0; d < DEC_D; d++) dot += double(q2[i * DEC_D + d]) * lut[kb[base + j * DEC_D + d]];
      sc[j] = dot * scale2;
      m = std::fmax(m, sc[j]);
    }
    double s = 0;
    for (size_t d = 0; d < DEC_D; d++) o[d] = 0;
    for (size_t j = 0; j < size_t(L2); j++) {
      double p = std::exp(sc[j] - m);
      s += p;
      for (size_t d = 0; d < DEC_D; d++) o[d] += p * lut[vb[base + j * DEC_D + d]];
    }
    for (size_t d = 0; d < DEC_D; d++) wo2[i * DEC_D + d] = float(o[d] / s);
  }
  ok = checkFloats("attn_decode", go2.data(), wo2.data(), size_t(nq2) * DEC_D, 1e-3) && ok;

  // (3)
  std::vector<double> wdx3(e3);
  for (size_t i = 0; i < size_t(r3); i++) {
    double sg = 0, sgx = 0;
    for (size_t j = 0; j < LNB_N; j++) {
      double g = dy3[i * LNB_N + j] * gamma3[j];
      sg += g;
      sgx += g * (x3[i * LNB_N + j] - mean3[i]) * rstd3[i];
    }
    sg /= LNB_N;
    sgx /= LNB_N;
    for (size_t j = 0; j < LNB_N; j++) {
      double xh = (x3[i * LNB_N + j] - mean3[i]) * rstd3[i];
      wdx3[i * LNB_N + j] = rstd3[i] * (dy3[i * LNB_N + j] * gamma3[j] - sg - xh * sgx);
    }
  }
  ok = checkDoubles("layernorm_bwd_rows", gdx3.data(), wdx3.data(), e3, 1e-9, 1.0) && ok;

  CHECK(cudaFree(d_Q1));
  CHECK(cudaFree(d_K1));
  CHECK(cudaFree(d_S1));
  CHECK(cudaFree(d_kc));
  CHECK(cudaFree(d_vc));
  CHECK(cudaFree(d_q2));
  CHECK(cudaFree(d_o2));
  CHECK(cudaFree(d_x3));
  CHECK(cudaFree(d_dy3));
  CHECK(cudaFree(d_g3));
  CHECK(cudaFree(d_m3));
  CHECK(cudaFree(d_r3));
  CHECK(cudaFree(d_dx3));
  return finish(ms, ok);
}
