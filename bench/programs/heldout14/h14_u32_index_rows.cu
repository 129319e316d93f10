// h14_u32_index_rows: row walks whose index arithmetic is all 32-bit, a
// thread per row, as application code writes them. (1) linear_relu<IN>, a
// dense layer's forward pass (one output neuron a thread, the weights stored
// [out][in] row-major): `unsigned` o and c, the input width a template
// parameter (IN = 2048), `acc += W[o*IN + c]*x[c]; y[o] = max(acc +
// bias[o], 0)`, float, OUT = 16384 (W 134 MB), weights in [-1, 1), x in
// [0.25, 1.25), bias in [-2, 2) (about half the outputs clamped to 0),
// 128-thread blocks, `if (o < out)`; (2) frame_rms, the RMS level of each
// audio frame: `int` f and k, `v = sig[f*len + k]; s += v*v;`, `rms[f] =
// sqrt(s / len)`, double samples in +-[0.001, 1), 8192 frames x 2048 (134
// MB), 64-thread blocks, early `return`; (3) scenario_value, a fixed-point
// portfolio value per market scenario: `unsigned` s and a, `v +=
// P[s*assets + a]*q[a]` over int64 prices in cents (1..10^7) and int64
// positions (+-1..10000), 32768 scenarios x 512 assets (134 MB), a
// grid-stride loop over scenarios on 64 blocks of 256 threads (two
// scenarios a thread). Sizes: out frames len scen assets (argv; IN is
// compile-time). Each kernel launched once. Timed: the 3 launches. Checked:
// (1) rtol 1e-3 (floor 1: the sums are signed) against a double CPU sum;
// (2) rtol 1e-9 against the same double loop on the CPU; (3) exact.
#include "../common.h"

#define IN_FEATURES 2048

template <unsigned IN>
__global__ void linear_relu(const float *W, const float *x, const float *bias, float *y, unsigned out) {
  unsigned o = blockIdx.x * blockDim.x + threadIdx.x;
  if (o < out) {
    float acc = 0.0f;
    for (unsigned c = 0; c < IN; c++) acc += W[o * IN + c] * x[c];
    acc += bias[o];
    y[o] = acc > 0.0f ? acc : 0.0f;
  }
}

__global__ void frame_rms(const double *sig, double *rms, int frames, int len) {
  int f = blockIdx.x * blockDim.x + threadIdx.x;
  if (f >= frames) return;
  double s = 0.0;
  for (int k = 0; k < len; k++) {
    double v = sig[f * len + k];
    s += v * v;
  }
  rms[f] = sqrt(s / len);
}

__global__ void scenario_value(const long long *P, const long long *q, long long *value, unsigned scen,
                               unsigned assets) {
  for (unsigned s = blockIdx.x * blockDim.x + threadIdx.x; s < scen; s += blockDim.x * gridDim.x) {
    long long v = 0;
    for (unsigned a = 0; a < assets; a++) v += P[s * assets + a] * q[a];
    value[s] = v;
  }
}

int main(int argc, char **argv) {
  const int out = argInt(argc, argv, 1, 16384);
  const int frames = argInt(argc, argv, 2, 8192), len = argInt(argc, argv, 3, 2048);
  const int scen = argInt(argc, argv, 4, 32768), assets = argInt(argc, argv, 5, 512);
  const int IN = IN_FEATURES;
  const size_t nw = size_t(out) * IN, ns = size_t(frames) * len, np = size_t(scen) * assets;

  std::vector<float> W(nw), x(IN), bias(out);
  fillFloats(W, 14101, -1.0f, 1.0f);
  fillFloats(x, 14102);
  fillFloats(bias, 14103, -2.0f, 2.0f);
  for (size_t k = 0; k < nw; k++)
    if (W[k] == 0.0f) W[k] = 0.5f;
  for (int k = 0; k < out; k++)
    if (bias[k] == 0.0f) bias[k] = 0.125f;
  std::vector<double> sig(ns);
  for (size_t k = 0; k < ns; k++) {
    uint32_t h = hashAt(14104, k);
    double m = 0.001 + 0.999 * double(h >> 9) * (1.0 / 8388608.0);
    sig[k] = (h & 1) ? -m : m;
  }
  std::vector<long long> P(np), q(assets);
  for (size_t k = 0; k < np; k++) P[k] = 1 + (long long)(hashAt(14105, k) % 10000000u);
  for (int a = 0; a < assets; a++) {
    uint32_t h = hashAt(14106, a);
    long long v = 1 + (long long)(h % 10000u);
    q[a] = (h >> 20) & 1 ? -v : v;
  }

  float *d_W = toDevice(W), *d_x = toDevice(x), *d_bias = toDevice(bias), *d_y;
  double *d_sig = toDevice(sig), *d_rms;
  long long *d_P = toDevice(P), *d_q = toDevice(q), *d_val;
  CHECK(cudaMalloc(&d_y, out * sizeof(float)));
  CHECK(cudaMalloc(&d_rms, frames * sizeof(double)));
  CHECK(cudaMalloc(&d_val, scen * sizeof(long long)));
  CHECK(cudaDeviceSynchronize());

  const unsigned scenBlocks = blocksFor(scen, 2 * 256);  // two scenarios a thread
  GpuTimer t;
  t.start();
  linear_relu<IN_FEATURES><<<blocksFor(out, 128), 128>>>(d_W, d_x, d_bias, d_y, unsigned(out));
  CHECK_LAUNCH();
  frame_rms<<<blocksFor(frames, 64), 64>>>(d_sig, d_rms, frames, len);
  CHECK_LAUNCH();
  scenario_value<<<scenBlocks, 256>>>(d_P, d_q, d_val, unsigned(scen), unsigned(assets));
  CHECK_LAUNCH();
  float ms = t.stop();
  std::vector<float> gy = fromDevice(d_y, out);
  std::vector<double> grms = fromDevice(d_rms, frames);
  std::vector<long long> gval = fromDevice(d_val, scen);

  std::vector<float> wy(out);
  for (size_t o = 0; o < size_t(out); o++) {
    double acc = 0;
    for (size_t c = 0; c < size_t(IN); c++) acc += double(W[o * IN + c]) * x[c];
    acc += bias[o];
    wy[o] = float(acc > 0.0 ? acc : 0.0);
  }
  bool ok = checkFloats("linear_relu", gy.data(), wy.data(), out, 1e-3, 1.0);

  size_t bad = 0;
  for (size_t f = 0; f < size_t(frames); f++) {
    double s = 0;
    for (size_t k = 0; k < size_t(len); k++) s += sig[f * len + k] * sig[f * len + k];
    double want = std::sqrt(s / len);
    if (!closeEnough(grms[f], want, 1e-9, 1e-12)) {
      if (!bad) std::fprintf(stderr, "frame_rms: first bad at %zu: got %.17g want %.17g\n", f, grms[f], want);
      ++bad;
    }
  }
  if (bad) std::fprintf(stderr, "frame_rms: %zu of %d differ\n", bad, frames);
  ok = ok && bad == 0;

  std::vector<long long> wval(scen);
  for (size_t s = 0; s < size_t(scen); s++) {
    long long v = 0;
    for (size_t a = 0; a < size_t(assets); a++) v += P[s * assets + a] * q[a];
    wval[s] = v;
  }
  ok = checkExact("scenario_value", gval.data(), wval.data(), scen) && ok;

  CHECK(cudaFree(d_W));
  CHECK(cudaFree(d_x));
  CHECK(cudaFree(d_bias));
  CHECK(cudaFree(d_y));
  CHECK(cudaFree(d_sig));
  CHECK(cudaFree(d_rms));
  CHECK(cudaFree(d_P));
  CHECK(cudaFree(d_q));
  CHECK(cudaFree(d_val));
  return finish(ms, ok);
}
