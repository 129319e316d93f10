// h16_norm_rows: normalisation layers of an inference stack, a thread per
// row of a row-major matrix, each kernel walking its row two or three times.
// (1) rmsnorm_rows, the LLaMA-style RMSNorm: float, `int` i and j, the row
// length at run time, a sum-of-squares pass `ss += x[i*n + j]*x[i*n + j]`,
// then `y[i*n + j] = x[i*n + j] * rsqrtf(ss/n + eps) * w[j]` with a weight
// vector, 16384 x 2048 activations of either sign (+-0.25..1.25; x 128 MB,
// y 128 MB), 256-thread blocks, `if (i < rows)`; (2) softmax_temp_mask, an
// attention softmax with a temperature and a padding mask: float logits and
// a uint8 mask (1 keep, 0 masked: a padded tail per row plus scattered
// holes), the row length a `#define` (SM_N 1024), `unsigned` i and j,
// `v = mask ? logit * (1/T) : MASK_VALUE` (-10000) recomputed in a max pass,
// a sum-of-`expf` pass and a write pass, 32768 rows (logits 128 MB, mask
// 32 MB, prob 128 MB), T 0.7, 512-thread blocks, early `return`; (3)
// logsoftmax_xent<V>, the classifier loss: `__half` logits, the row length
// a template parameter (V = XE_V = 4096), `size_t` i in a grid-stride loop
// over rows (64 blocks of 128 threads, 2 rows a thread at the default
// size), a max / argmax pass, a sum-of-`expf` pass, then
// `loss[i] = m + logf(s) - x[labels[i]]` and `pred[i] = argmax`, 16384 rows
// (128 MB), logits +-0.25..4 as half bit patterns. Sizes: r1 n1 r2 r3
// (argv; SM_N and XE_V are compile-time). Timed: the 3 launches. Checked:
// (1) rtol 1e-3 against double; (2) rtol 1e-3 against double (masked
// entries exactly 0); (3) loss rtol 1e-3 against double (floor 1), pred
// exactly (the first maximum, compared in float on both sides).
#include "../common.h"
#include <cuda_fp16.h>

#define SM_N 1024
#define MASK_VALUE -10000.0f
#define XE_V 4096

__global__ void rmsnorm_rows(const float *x, const float *w, float *y, int rows, int n, float eps) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < rows) {
    float ss = 0.0f;
    for (int j = 0; j < n; j++) ss += x[i * n + j] * x[i * n + j];
    float r = rsqrtf(ss / n + eps);
    for (int j = 0; j < n; j++) y[i * n + j] = x[i * n + j] * r * w[j];
  }
}

__global__ void softmax_temp_mask(const float *logits, const uint8_t *mask, float *prob, unsigned rows,
                                  float temperature) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= rows) return;
  float invT = 1.0f / temperature;
  float m = -INFINITY;
  for (unsigned j = 0; j < SM_N; j++) {
    float v = mask[i * SM_N + j] ? logits[i * SM_N + j] * invT : MASK_VALUE;
    m = fmaxf(m, v);
  }
  float s = 0.0f;
  for (unsigned j = 0; j < SM_N; j++) {
    float v = mask[i * SM_N + j] ? logits[i * SM_N + j] * invT : MASK_VALUE;
    s += expf(v - m);
  }
  float inv = 1.0f / s;
  for (unsigned j = 0; j < SM_N; j++) {
    float v = mask[i * SM_N + j] ? logits[i * SM_N + j] * invT : MASK_VALUE;
    prob[i * SM_N + j] = expf(v - m) * inv;
  }
}

template <int V>
__global__ void logsoftmax_xent(const __half *logits, const int *labels, float *loss, int *pred, size_t rows) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < rows; i += (size_t)gridDim.x * blockDim.x) {
    float m = __half2float(logits[i * V]);
    int am = 0;
    for (int j = 1; j < V; j++) {
      float v = __half2float(logits[i * V + j]);
      if (v > m) {
        m = v;
        am = j;
      }
    }
    float s = 0.0f;
    for (int j = 0; j < V; j++) s += expf(__half2float(logits[i * V + j]) - m);
    loss[i] = m + logf(s) - __half2float(logits[i * V + labels[i]]);
    pred[i] = am;
  }
}

// +-[lo, hi): the sign from another hash bit, never zero.
static void fillSigned(std::vector<float> &v, uint64_t seed, float lo, float hi) {
  fillFloats(v, seed, lo, hi);
  for (size_t k = 0; k < v.size(); k++)
    if (hashAt(seed + 7, k) & 1u) v[k] = -v[k];
}

// A normal half from a hash: sign bit, exponent in [emin, emax], 10 mantissa bits.
static uint16_t halfBits(uint32_t h, int emin, int emax) {
  uint32_t e = uint32_t(emin + int(h % uint32_t(emax - emin + 1)) + 15);
  return uint16_t(((h >> 31) << 15) | (e << 10) | ((h >> 8) & 1023u));
}

static float halfBitsToFloat(uint16_t b) {
  float v = std::ldexp(float((b & 1023) | 1024), int((b >> 10) & 31) - 25);
  return (b >> 15) ? -v : v;
}

int main(int argc, char **argv) {
  const int r1 = argInt(argc, argv, 1, 16384);
  const int n1 = argInt(argc, argv, 2, 2048);
  const int r2 = argInt(argc, argv, 3, 32768);
  const int r3 = argInt(argc, argv, 4, 16384);
  const float eps = 1e-6f, temperature = 0.7f;

  // (1) activations and the RMSNorm weight.
  const size_t e1 = size_t(r1) * n1;
  std::vector<float> x1(e1), w1(n1);
  fillSigned(x1, 16101, 0.25f, 1.25f);
  fillFloats(w1, 16102, 0.5f, 1.5f);

  // (2) logits and the mask: a valid prefix of SM_N/4..SM_N, one hole in 16 inside it.
  const size_t e2 = size_t(r2) * SM_N;
  std::vector<float> lg2(e2);
  fillSigned(lg2, 16103, 0.25f, 4.25f);
  std::vector<uint8_t> mask2(e2);
  for (size_t i = 0; i < size_t(r2); i++) {
    size_t len = SM_N / 4 + hashAt(16104, i) % (SM_N - SM_N / 4 + 1);
    for (size_t j = 0; j < SM_N; j++) mask2[i * SM_N + j] = (j < len && (hashAt(16105, i * SM_N + j) & 15u)) ? 1 : 0;
  }

  // (3) half logits and labels.
  const size_t e3 = size_t(r3) * XE_V;
  std::vector<uint16_t> lb3(e3);
  std::vector<__half> lg3(e3);
  for (size_t k = 0; k < e3; k++) {
    lb3[k] = halfBits(hashAt(16106, k), -2, 1);
    __half_raw hr;
    hr.x = lb3[k];
    lg3[k] = __half(hr);
  }
  std::vector<int> labels(r3);
  for (int i = 0; i < r3; i++) labels[i] = int(hashAt(16107, i) % XE_V);

  float *d_x1 = toDevice(x1), *d_w1 = toDevice(w1), *d_y1;
  CHECK(cudaMalloc(&d_y1, e1 * sizeof(float)));
  float *d_lg2 = toDevice(lg2), *d_p2;
  uint8_t *d_mask2 = toDevice(mask2);
  CHECK(cudaMalloc(&d_p2, e2 * sizeof(float)));
  __half *d_lg3 = toDevice(lg3);
  int *d_labels = toDevice(labels), *d_pred;
  float *d_loss;
  CHECK(cudaMalloc(&d_loss, size_t(r3) * sizeof(float)));
  CHECK(cudaMalloc(&d_pred, size_t(r3) * sizeof(int)));
  CHECK(cudaDeviceSynchronize());

  GpuTimer t;
  t.start();
  rmsnorm_rows<<<blocksFor(r1, 256), 256>>>(d_x1, d_w1, d_y1, r1, n1, eps);
  CHECK_LAUNCH();
  softmax_temp_mask<<<blocksFor(r2, 512), 512>>>(d_lg2, d_mask2, d_p2, unsigned(r2), temperature);
  CHECK_LAUNCH();
  logsoftmax_xent<XE_V><<<64, 128>>>(d_lg3, d_labels, d_loss, d_pred, size_t(r3));
  CHECK_LAUNCH();
  float ms = t.stop();
  std::vector<float> gy1 = fromDevice(d_y1, e1);
  std::vector<float> gp2 = fromDevice(d_p2, e2);
  std::vector<float> gloss = fromDevice(d_loss, size_t(r3));
  std::vector<int> gpred = fromDevice(d_pred, size_t(r3));

  // (1)
  std::vector<float> wy1(e1);
  for (size_t i = 0; i < size_t(r1); i++) {
    const float *row = &x1[i * n1];
    double ss = 0;
    for (int j = 0; j < n1; j++) ss += double(row[j]) * row[j];
    double r = 1.0 / std::sqrt(ss / n1 + eps);
    for (int j = 0; j < n1; j++) wy1[i * n1 + j] = float(row[j] * r * w1[j]);
  }
  bool ok = checkFloats("rmsnorm_rows", gy1.data(), wy1.data(), e1, 1e-3);

  // (2)
  std::vector<float> wp2(e2);
  std::vector<double> v2(SM_N);
  for (size_t i = 0; i < size_t(r2); i++) {
    double m = -INFINITY;
    for (size_t j = 0; j < SM_N; j++) {
      v2[j] = mask2[i * SM_N + j] ? double(lg2[i * SM_N + j]) / temperature : double(MASK_VALUE);
      m = std::fmax(m, v2[j]);
    }
    double s = 0;
    for (size_t j = 0; j < SM_N; j++) s += std::exp(v2[j] - m);
    for (size_t j = 0; j < SM_N; j++) wp2[i * SM_N + j] = float(std::exp(v2[j] - m) / s);
  }
  ok = checkFloats("softmax_temp_mask", gp2.data(), wp2.data(), e2, 1e-3) && ok;

  // (3)
  std::vector<float> wloss(r3);
  std::vector<int> wpred(r3);
  std::vector<float> f3(XE_V);
  for (size_t i = 0; i < size_t(r3); i++) {
    for (size_t j = 0; j < XE_V; j++) f3[j] = halfBitsToFloat(lb3[i * XE_V + j]);
    float m = f3[0];
    int am = 0;
    for (int j = 1; j < XE_V; j++)
      if (f3[j] > m) m = f3[j], am = j;
    double s = 0;
    for (int j = 0; j < XE_V; j++) s += std::exp(double(f3[j]) - m);
    wloss[i] = float(m + std::log(s) - f3[labels[i]]);
    wpred[i] = am;
  }
  ok = checkFloats("logsoftmax_xent loss", gloss.data(), wloss.data(), size_t(r3), 1e-3, 1.0) && ok;
  ok = checkExact("logsoftmax_xent pred", gpred.data(), wpred.data(), size_t(r3)) && ok;

  CHECK(cudaFree(d_x1));
  CHECK(cudaFree(d_w1));
  CHECK(cudaFree(d_y1));
  CHECK(cudaFree(d_lg2));
  CHECK(cudaFree(d_mask2));
  CHECK(cudaFree(d_p2));
  CHECK(cudaFree(d_lg3));
  CHECK(cudaFree(d_labels));
  CHECK(cudaFree(d_loss));
  CHECK(cudaFree(d_pred));
  return finish(ms, ok);
}
