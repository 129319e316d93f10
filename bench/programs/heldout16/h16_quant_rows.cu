// h16_quant_rows: int8 / fp16 weights and the row dots of a quantised MLP,
// a thread per row. (1) quantize_rows, per-row symmetric int8
// quantisation: float in, `size_t` i and j, the row length at run time, an
// absmax pass `amax = fmaxf(amax, fabsf(X[i*n + j]))`, then
// `Q[i*n + j] = (int8_t)__float2int_rn(X[i*n + j] * (127/amax))` and
// `scale[i] = amax/127`, 16384 x 4096 weights of either sign with a
// per-row magnitude (X 256 MB, Q 64 MB), 512-thread blocks, `if (i < rows)`;
// (2) dequant_gemv_gelu, a W8A32 GEMV with a bias+GELU epilogue, reading
// the Q and scale just written: `int` i and j, all loads `__ldg` through
// `const T *__restrict__`, `acc += (float)Q[i*n + j] * x[j]` under
// `#pragma unroll 16`, then `z = acc*scale[i] + bias[i]` and
// `y[i] = 0.5f*z*(1 + erff(z/sqrt(2)))`, 96-thread blocks, `if (i < rows)`;
// (3) swiglu_rows<N>, the gate/up projection of a SwiGLU MLP reading two
// `__half` weight rows at once: the row length a template parameter (N =
// SG_N = 2048), `int64_t` i and j, `__ldg` on the halves,
// `#pragma unroll 4`, `g += Wg[i*N + j]*x[j]; u += Wu[i*N + j]*x[j]`, then
// `h[i] = g/(1 + expf(-g)) * u`, 16384 rows (Wg 64 MB, Wu 64 MB), halves
// +-2^-7..2^-3, 192-thread blocks, early `return`. Sizes: r1 n1 r3 (argv;
// SG_N is compile-time). Timed: the 3 launches. Checked: (1) Q and scale
// exactly (the same float operations on the host); (2) rtol 1e-3 against
// double (floor 1); (3) rtol 1e-3 against double (floor 1).
#include "../common.h"
#include <cuda_fp16.h>

#define SG_N 2048

__global__ void quantize_rows(const float *X, int8_t *Q, float *scale, size_t rows, size_t n) {
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (i < rows) {
    float amax = 0.0f;
    for (size_t j = 0; j < n; j++) amax = fmaxf(amax, fabsf(X[i * n + j]));
    float inv = 127.0f / amax;
    for (size_t j = 0; j < n; j++) Q[i * n + j] = (int8_t)__float2int_rn(X[i * n + j] * inv);
    scale[i] = amax / 127.0f;
  }
}

__global__ void dequant_gemv_gelu(const int8_t *__restrict__ Q, const float *__restrict__ scale,
                                  const float *__restrict__ x, const float *__restrict__ bias, float *__restrict__ y,
                                  int rows, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < rows) {
    float acc = 0.0f;
#pragma unroll 16
    for (int j = 0; j < n; j++) acc += (float)__ldg(&Q[i * n + j]) * __ldg(&x[j]);
    float z = acc * __ldg(&scale[i]) + __ldg(&bias[i]);
    y[i] = 0.5f * z * (1.0f + erff(z * 0.70710678f));
  }
}

template <int N>
__global__ void swiglu_rows(const __half *__restrict__ Wg, const __half *__restrict__ Wu, const float *__restrict__ x,
                            float *__restrict__ h, int64_t rows) {
  int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
  if (i >= rows) return;
  float g = 0.0f, u = 0.0f;
#pragma unroll 4
  for (int64_t j = 0; j < N; j++) {
    float xj = __ldg(&x[j]);
    g += __half2float(__ldg(&Wg[i * N + j])) * xj;
    u += __half2float(__ldg(&Wu[i * N + j])) * xj;
  }
  h[i] = g / (1.0f + expf(-g)) * u;
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
  const int n1 = argInt(argc, argv, 2, 4096);
  const int r3 = argInt(argc, argv, 3, 16384);

  // (1)+(2) weights with a per-row magnitude 0.5..4, activations small, biases signed.
  const size_t e1 = size_t(r1) * n1;
  std::vector<float> X(e1), x(n1), bias(r1);
  fillSigned(X, 16301, 0.25f, 1.25f);
  for (size_t i = 0; i < size_t(r1); i++) {
    float mag = 0.5f + 3.5f * float(hashAt(16302, i) >> 8) * (1.0f / 16777216.0f);
    for (size_t j = 0; j < size_t(n1); j++) X[i * n1 + j] *= mag;
  }
  fillSigned(x, 16303, 0.005f, 0.03f);
  fillSigned(bias, 16304, 0.05f, 0.5f);

  // (3) half gate / up weights, float activations.
  const size_t e3 = size_t(r3) * SG_N;
  std::vector<uint16_t> bg(e3), bu(e3);
  std::vector<__half> wg(e3), wu(e3);
  for (size_t k = 0; k < e3; k++) {
    bg[k] = halfBits(hashAt(16305, k), -7, -4);
    bu[k] = halfBits(hashAt(16306, k), -7, -4);
    __half_raw hr;
    hr.x = bg[k];
    wg[k] = __half(hr);
    hr.x = bu[k];
    wu[k] = __half(hr);
  }
  std::vector<float> x3(SG_N);
  fillSigned(x3, 16307, 0.25f, 1.25f);

  float *d_X = toDevice(X), *d_x = toDevice(x), *d_bias = toDevice(bias), *d_scale, *d_y;
  int8_t *d_Q;
  CHECK(cudaMalloc(&d_Q, e1 * sizeof(int8_t)));
  CHECK(cudaMalloc(&d_scale, size_t(r1) * sizeof(float)));
  CHECK(cudaMalloc(&d_y, size_t(r1) * sizeof(float)));
  __half *d_wg = toDevice(wg), *d_wu = toDevice(wu);
  float *d_x3 = toDevice(x3), *d_h3;
  CHECK(cudaMalloc(&d_h3, size_t(r3) * sizeof(float)));
  CHECK(cudaDeviceSynchronize());

  GpuTimer t;
  t.start();
  quantize_rows<<<blocksFor(r1, 512), 512>>>(d_X, d_Q, d_scale, size_t(r1), size_t(n1));
  CHECK_LAUNCH();
  dequant_gemv_gelu<<<blocksFor(r1, 96), 96>>>(d_Q, d_scale, d_x, d_bias, d_y, r1, n1);
  CHECK_LAUNCH();
  swiglu_rows<SG_N><<<blocksFor(r3, 192), 192>>>(d_wg, d_wu, d_x3, d_h3, int64_t(r3));
  CHECK_LAUNCH();
  float ms = t.stop();
  std::vector<int8_t> gQ = fromDevice(d_Q, e1);
  std::vector<float> gscale = fromDevice(d_scale, size_t(r1));
  std::vector<float> gy = fromDevice(d_y, size_t(r1));
  std::vector<float> gh3 = fromDevice(d_h3, size_t(r3));

  // (1): the same float operations as the device (a division, a product, round-to-nearest-even).
  std::vector<int8_t> wQ(e1);
  std::vector<float> wscale(r1);
  for (size_t i = 0; i < size_t(r1); i++) {
    const float *row = &X[i * n1];
    float amax = 0.0f;
    for (int j = 0; j < n1; j++) amax = std::fmax(amax, std::fabs(row[j]));
    float inv = 127.0f / amax;
    for (int j = 0; j < n1; j++) {
      float p = row[j] * inv;
      wQ[i * n1 + j] = int8_t(int(std::nearbyint(p)));
    }
    wscale[i] = amax / 127.0f;
  }
  bool ok = checkExact("quantize_rows Q", gQ.data(), wQ.data(), e1);
  ok = checkExact("quantize_rows scale", gscale.data(), wscale.data(), size_t(r1)) && ok;

  // (2) on the reference's own Q and scale.
  std::vector<float> wy(r1);
  for (size_t i = 0; i < size_t(r1); i++) {
    double acc = 0;
    for (int j = 0; j < n1; j++) acc += double(wQ[i * n1 + j]) * x[j];
    double z = acc * wscale[i] + bias[i];
    wy[i] = float(0.5 * z * (1.0 + std::erf(z / std::sqrt(2.0))));
  }
  ok = checkFloats("dequant_gemv_gelu", gy.data(), wy.data(), size_t(r1), 1e-3, 1.0) && ok;

  // (3)
  std::vector<float> wh3(r3);
  for (size_t i = 0; i < size_t(r3); i++) {
    double g = 0, u = 0;
    for (size_t j = 0; j < SG_N; j++) {
      g += double(halfBitsToFloat(bg[i * SG_N + j])) * x3[j];
      u += double(halfBitsToFloat(bu[i * SG_N + j])) * x3[j];
    }
    wh3[i] = float(g / (1.0 + std::exp(-g)) * u);
  }
  ok = checkFloats("swiglu_rows", gh3.data(), wh3.data(), size_t(r3), 1e-3, 1.0) && ok;

  CHECK(cudaFree(d_X));
  CHECK(cudaFree(d_x));
  CHECK(cudaFree(d_bias));
  CHECK(cudaFree(d_Q));
  CHECK(cudaFree(d_scale));
  CHECK(cudaFree(d_y));
  CHECK(cudaFree(d_wg));
  CHECK(cudaFree(d_wu));
  CHECK(cudaFree(d_x3));
  CHECK(cudaFree(d_h3));
  return finish(ms, ok);
}
