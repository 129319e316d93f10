// h15_multipass_rows: multi-pass normalisations, a thread per row, each
// kernel walking its row three times (a reduction, a second reduction that
// uses the first, then a write pass). (1) softmax_rows, the attention /
// classifier softmax: float, `int` i and j, the row length at run time,
// `m = fmaxf(m, in[i*n + j])`, then `s += expf(in[i*n + j] - m)`, then
// `out[i*n + j] = expf(in[i*n + j] - m) * (1/s)`, 16384 x 1024 logits of
// either sign (+-0.25..4.25; in 64 MB, out 64 MB), 256-thread blocks,
// `if (i < rows)`; (2) layernorm_rows<D>, a transformer LayerNorm in double:
// the row length a template parameter (D = LN_D = 1024), `size_t` i,
// mean pass, variance pass `(x - mean)^2`, then `y = (x - mean)*rstd*
// gamma[j] + beta[j]`, 8192 rows (x 64 MB, y 64 MB), eps 1e-5, 128-thread
// blocks, early `return`; (3) zscore_rows, per-series standardisation of
// sensor readings in place: float, the row length a `#define` (ZS_N 2048),
// `long long` i in a grid-stride loop over rows (32 blocks of 256 threads,
// 2 rows a thread at the default size), mean pass, sample-variance pass,
// then `A[i*ZS_N + j] = (A[i*ZS_N + j] - mean) * inv` written back,
// 16384 rows (128 MB), readings 5..25 plus +-0.25..4.25 noise. Sizes: r1
// n1 r2 r3 (argv; LN_D and ZS_N are compile-time). Timed: the 3 launches.
// Checked: (1) rtol 1e-3 against double; (2) 1e-9 against double (floor
// 1, outputs can cross zero); (3) rtol 1e-3 against double (floor 1).
#include "../common.h"

#define LN_D 1024
#define ZS_N 2048

__global__ void softmax_rows(const float *in, float *out, int rows, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < rows) {
    float m = -INFINITY;
    for (int j = 0; j < n; j++) m = fmaxf(m, in[i * n + j]);
    float s = 0.0f;
    for (int j = 0; j < n; j++) s += expf(in[i * n + j] - m);
    float inv = 1.0f / s;
    for (int j = 0; j < n; j++) out[i * n + j] = expf(in[i * n + j] - m) * inv;
  }
}

template <int D>
__global__ void layernorm_rows(const double *x, const double *gamma, const double *beta, double *y, size_t rows,
                               double eps) {
  size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  if (i >= rows) return;
  double mean = 0.0;
  for (int j = 0; j < D; j++) mean += x[i * D + j];
  mean /= D;
  double var = 0.0;
  for (int j = 0; j < D; j++) {
    double d = x[i * D + j] - mean;
    var += d * d;
  }
  var /= D;
  double rstd = 1.0 / sqrt(var + eps);
  for (int j = 0; j < D; j++) y[i * D + j] = (x[i * D + j] - mean) * rstd * gamma[j] + beta[j];
}

__global__ void zscore_rows(float *A, long long rows) {
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < rows;
       i += (long long)blockDim.x * gridDim.x) {
    float mean = 0.0f;
    for (int j = 0; j < ZS_N; j++) mean += A[i * ZS_N + j];
    mean /= ZS_N;
    float ss = 0.0f;
    for (int j = 0; j < ZS_N; j++) {
      float d = A[i * ZS_N + j] - mean;
      ss += d * d;
    }
    float inv = 1.0f / sqrtf(ss / (ZS_N - 1));
    for (int j = 0; j < ZS_N; j++) A[i * ZS_N + j] = (A[i * ZS_N + j] - mean) * inv;
  }
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

// +-[lo, hi): the sign from another hash bit, never zero.
static void fillSigned(std::vector<float> &v, uint64_t seed, float lo, float hi) {
  fillFloats(v, seed, lo, hi);
  for (size_t k = 0; k < v.size(); k++)
    if (hashAt(seed + 7, k) & 1u) v[k] = -v[k];
}

int main(int argc, char **argv) {
  const int r1 = argInt(argc, argv, 1, 16384);
  const int n1 = argInt(argc, argv, 2, 1024);
  const int r2 = argInt(argc, argv, 3, 8192);
  const int r3 = argInt(argc, argv, 4, 16384);
  const double eps = 1e-5;

  // (1) logits.
  const size_t e1 = size_t(r1) * n1;
  std::vector<float> logits(e1);
  fillSigned(logits, 15101, 0.25f, 4.25f);

  // (2) activations: a per-row offset and scale, so the rows differ.
  const size_t e2 = size_t(r2) * LN_D;
  std::vector<double> x2(e2), gamma(LN_D), beta(LN_D);
  for (size_t i = 0; i < size_t(r2); i++) {
    double off = -2.0 + 4.0 * (hashAt(15102, i) >> 8) * (1.0 / 16777216.0);
    double sc = 0.5 + 2.0 * (hashAt(15103, i) >> 8) * (1.0 / 16777216.0);
    for (size_t j = 0; j < LN_D; j++)
      x2[i * LN_D + j] = off + sc * (0.25 + (hashAt(15104, i * LN_D + j) >> 8) * (1.0 / 16777216.0));
  }
  for (size_t j = 0; j < LN_D; j++) {
    gamma[j] = 0.5 + (hashAt(15105, j) >> 8) * (1.0 / 16777216.0);
    beta[j] = ((hashAt(15106, j) & 1u) ? -1.0 : 1.0) * (0.01 + 0.2 * (hashAt(15107, j) >> 8) * (1.0 / 16777216.0));
  }

  // (3) sensor readings: a per-row level plus signed noise.
  const size_t e3 = size_t(r3) * ZS_N;
  std::vector<float> z3(e3);
  fillSigned(z3, 15108, 0.25f, 4.25f);
  for (size_t i = 0; i < size_t(r3); i++) {
    float level = 5.0f + 20.0f * float(hashAt(15109, i) >> 8) * (1.0f / 16777216.0f);
    for (size_t j = 0; j < ZS_N; j++) z3[i * ZS_N + j] += level;
  }

  float *d_logits = toDevice(logits), *d_prob;
  CHECK(cudaMalloc(&d_prob, e1 * sizeof(float)));
  double *d_x2 = toDevice(x2), *d_gamma = toDevice(gamma), *d_beta = toDevice(beta), *d_y2;
  CHECK(cudaMalloc(&d_y2, e2 * sizeof(double)));
  float *d_z3 = toDevice(z3);
  CHECK(cudaDeviceSynchronize());

  GpuTimer t;
  t.start();
  softmax_rows<<<blocksFor(r1, 256), 256>>>(d_logits, d_prob, r1, n1);
  CHECK_LAUNCH();
  layernorm_rows<LN_D><<<blocksFor(r2, 128), 128>>>(d_x2, d_gamma, d_beta, d_y2, size_t(r2), eps);
  CHECK_LAUNCH();
  zscore_rows<<<32, 256>>>(d_z3, (long long)r3);
  CHECK_LAUNCH();
  float ms = t.stop();
  std::vector<float> gprob = fromDevice(d_prob, e1);
  std::vector<double> gy2 = fromDevice(d_y2, e2);
  std::vector<float> gz3 = fromDevice(d_z3, e3);

  // (1)
  std::vector<float> wprob(e1);
  for (size_t i = 0; i < size_t(r1); i++) {
    const float *row = &logits[i * n1];
    double m = row[0];
    for (int j = 1; j < n1; j++) m = std::fmax(m, double(row[j]));
    double s = 0;
    for (int j = 0; j < n1; j++) s += std::exp(double(row[j]) - m);
    for (int j = 0; j < n1; j++) wprob[i * n1 + j] = float(std::exp(double(row[j]) - m) / s);
  }
  bool ok = checkFloats("softmax_rows", gprob.data(), wprob.data(), e1, 1e-3);

  // (2)
  std::vector<double> wy2(e2);
  for (size_t i = 0; i < size_t(r2); i++) {
    const double *row = &x2[i * LN_D];
    double mean = 0;
    for (int j = 0; j < LN_D; j++) mean += row[j];
    mean /= LN_D;
    double var = 0;
    for (int j = 0; j < LN_D; j++) var += (row[j] - mean) * (row[j] - mean);
    var /= LN_D;
    double rstd = 1.0 / std::sqrt(var + eps);
    for (int j = 0; j < LN_D; j++) wy2[i * LN_D + j] = (row[j] - mean) * rstd * gamma[j] + beta[j];
  }
  ok = checkDoubles("layernorm_rows", gy2.data(), wy2.data(), e2, 1e-9, 1.0) && ok;

  // (3)
  std::vector<float> wz3(e3);
  for (size_t i = 0; i < size_t(r3); i++) {
    const float *row = &z3[i * ZS_N];
    double mean = 0;
    for (int j = 0; j < ZS_N; j++) mean += row[j];
    mean /= ZS_N;
    double ss = 0;
    for (int j = 0; j < ZS_N; j++) ss += (row[j] - mean) * (row[j] - mean);
    double inv = 1.0 / std::sqrt(ss / (ZS_N - 1));
    for (int j = 0; j < ZS_N; j++) wz3[i * ZS_N + j] = float((row[j] - mean) * inv);
  }
  ok = checkFloats("zscore_rows", gz3.data(), wz3.data(), e3, 1e-3, 1.0) && ok;

  CHECK(cudaFree(d_logits));
  CHECK(cudaFree(d_prob));
  CHECK(cudaFree(d_x2));
  CHECK(cudaFree(d_gamma));
  CHECK(cudaFree(d_beta));
  CHECK(cudaFree(d_y2));
  CHECK(cudaFree(d_z3));
  return finish(ms, ok);
}
