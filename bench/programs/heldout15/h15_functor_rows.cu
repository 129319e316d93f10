// h15_functor_rows: row walks behind generic helpers, as library-style code
// writes them, every load through `__ldg` from `const T* __restrict__`.
// (1) row_mad, robust statistics of a feature matrix: a `__device__`
// template `row_reduce<Op>(A, i, n, init, op)` whose loop is `acc = op(acc,
// __ldg(&A[i*n + j]))`, called three times with lambdas written in the
// kernel (a sum; `|v - mu|` capturing the mean just computed; a max of
// `|v|`), float, `int` i and j, outputs mean, mean absolute deviation and
// peak, 16384 x 2048 values of either sign (+-0.25..1.25; 128 MB),
// 128-thread blocks, `if (i < rows)`; (2) gemv_ptr on the same matrix, a
// pointer walk `const float *p = A + i*n; ... s += *p++ * __ldg(&x[j])`
// under `#pragma unroll 8`, 512-thread blocks; (3) map_reduce_rows<T, Acc,
// Map, Red>, a generic kernel taking functor objects (`acc = red(acc,
// map(__ldg(&A[i*n + j])))`, `unsigned` i and j, `#pragma unroll 4`, early
// `return`), launched twice: double Square / Plus (row energy) on 8192 x
// 2048 (128 MB), 256-thread blocks, and int16 AbsI / MaxI (per-frame peak
// of 16-bit audio into `int`) on 16384 x 4096 (128 MB), 1024-thread blocks.
// Sizes: r1 n1 r2 n2 r3 n3 (argv). Timed: the 4 launches. Checked: (1)
// rtol 1e-3 against double (mean floor 1e-2), (2) rtol 1e-3 (floor 1, the
// dot crosses zero), (3) double 1e-9, int16 peaks exact.
#include "../common.h"

#include <algorithm>

template <class Op>
__device__ __forceinline__ float row_reduce(const float *__restrict__ A, int i, int n, float init, Op op) {
  float acc = init;
  for (int j = 0; j < n; j++) acc = op(acc, __ldg(&A[i * n + j]));
  return acc;
}

__global__ void row_mad(const float *__restrict__ A, float *__restrict__ mean, float *__restrict__ mad,
                        float *__restrict__ peak, int rows, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < rows) {
    float mu = row_reduce(A, i, n, 0.0f, [](float a, float v) { return a + v; }) / float(n);
    float d = row_reduce(A, i, n, 0.0f, [mu](float a, float v) { return a + fabsf(v - mu); }) / float(n);
    float p = row_reduce(A, i, n, 0.0f, [](float a, float v) { return fmaxf(a, fabsf(v)); });
    mean[i] = mu;
    mad[i] = d;
    peak[i] = p;
  }
}

__global__ void gemv_ptr(const float *__restrict__ A, const float *__restrict__ x, float *__restrict__ y, int rows,
                         int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < rows) {
    const float *p = A + i * n;
    float s = 0.0f;
#pragma unroll 8
    for (int j = 0; j < n; j++) s += *p++ * __ldg(&x[j]);
    y[i] = s;
  }
}

struct Square {
  __device__ double operator()(double v) const { return v * v; }
};
struct Plus {
  template <class T> __device__ T operator()(T a, T b) const { return a + b; }
};
struct AbsI {
  __device__ int operator()(short v) const { return v < 0 ? -int(v) : int(v); }
};
struct MaxI {
  __device__ int operator()(int a, int b) const { return a > b ? a : b; }
};

template <class T, class Acc, class Map, class Red>
__global__ void map_reduce_rows(const T *__restrict__ A, Acc *__restrict__ out, unsigned rows, unsigned n, Acc init,
                                Map map, Red red) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= rows) return;
  Acc acc = init;
#pragma unroll 4
  for (unsigned j = 0; j < n; j++) acc = red(acc, map(__ldg(&A[i * n + j])));
  out[i] = acc;
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
  const int r1 = argInt(argc, argv, 1, 16384);
  const int n1 = argInt(argc, argv, 2, 2048);
  const int r2 = argInt(argc, argv, 3, 8192);
  const int n2 = argInt(argc, argv, 4, 2048);
  const int r3 = argInt(argc, argv, 5, 16384);
  const int n3 = argInt(argc, argv, 6, 4096);

  // (1), (2): a feature matrix of either sign, a positive vector.
  const size_t e1 = size_t(r1) * n1;
  std::vector<float> A(e1), x(n1);
  fillFloats(A, 15201);
  for (size_t k = 0; k < e1; k++)
    if (hashAt(15202, k) & 1u) A[k] = -A[k];
  fillFloats(x, 15203);

  // (3a) doubles in [0.25, 1.25).
  const size_t e2 = size_t(r2) * n2;
  std::vector<double> D(e2);
  for (size_t k = 0; k < e2; k++) D[k] = 0.25 + (hashAt(15204, k) >> 8) * (1.0 / 16777216.0);

  // (3b) 16-bit audio, never zero, full scale -32768..32767 reachable.
  const size_t e3 = size_t(r3) * n3;
  std::vector<int16_t> S(e3);
  for (size_t k = 0; k < e3; k++) {
    uint32_t h = hashAt(15205, k);
    int amp = 1 + int((h >> 16) % 32767u);  // 1..32767
    S[k] = int16_t((h & 1u) ? -amp - int((h >> 1) & 1u) : amp);
  }

  float *d_A = toDevice(A), *d_x = toDevice(x), *d_mean, *d_mad, *d_peak, *d_y;
  CHECK(cudaMalloc(&d_mean, r1 * sizeof(float)));
  CHECK(cudaMalloc(&d_mad, r1 * sizeof(float)));
  CHECK(cudaMalloc(&d_peak, r1 * sizeof(float)));
  CHECK(cudaMalloc(&d_y, r1 * sizeof(float)));
  double *d_D = toDevice(D), *d_energy;
  CHECK(cudaMalloc(&d_energy, r2 * sizeof(double)));
  int16_t *d_S = toDevice(S);
  int *d_speak;
  CHECK(cudaMalloc(&d_speak, r3 * sizeof(int)));
  CHECK(cudaDeviceSynchronize());

  GpuTimer t;
  t.start();
  row_mad<<<blocksFor(r1, 128), 128>>>(d_A, d_mean, d_mad, d_peak, r1, n1);
  CHECK_LAUNCH();
  gemv_ptr<<<blocksFor(r1, 512), 512>>>(d_A, d_x, d_y, r1, n1);
  CHECK_LAUNCH();
  map_reduce_rows<<<blocksFor(r2, 256), 256>>>(d_D, d_energy, unsigned(r2), unsigned(n2), 0.0, Square(), Plus());
  CHECK_LAUNCH();
  map_reduce_rows<<<blocksFor(r3, 1024), 1024>>>(d_S, d_speak, unsigned(r3), unsigned(n3), 0, AbsI(), MaxI());
  CHECK_LAUNCH();
  float ms = t.stop();
  std::vector<float> gmean = fromDevice(d_mean, r1), gmad = fromDevice(d_mad, r1), gpeak = fromDevice(d_peak, r1);
  std::vector<float> gy = fromDevice(d_y, r1);
  std::vector<double> genergy = fromDevice(d_energy, r2);
  std::vector<int> gspeak = fromDevice(d_speak, r3);

  // (1), (2)
  std::vector<float> wmean(r1), wmad(r1), wpeak(r1), wy(r1);
  for (size_t i = 0; i < size_t(r1); i++) {
    const float *row = &A[i * n1];
    double s = 0, p = 0, dot = 0;
    for (int j = 0; j < n1; j++) {
      s += row[j];
      p = std::fmax(p, std::fabs(double(row[j])));
      dot += double(row[j]) * x[j];
    }
    double mu = s / n1;
    double d = 0;
    for (int j = 0; j < n1; j++) d += std::fabs(row[j] - mu);
    wmean[i] = float(mu);
    wmad[i] = float(d / n1);
    wpeak[i] = float(p);
    wy[i] = float(dot);
  }
  bool ok = checkFloats("row_mad mean", gmean.data(), wmean.data(), r1, 1e-3, 1e-2);
  ok = checkFloats("row_mad mad", gmad.data(), wmad.data(), r1, 1e-3) && ok;
  ok = checkFloats("row_mad peak", gpeak.data(), wpeak.data(), r1, 1e-3) && ok;
  ok = checkFloats("gemv_ptr", gy.data(), wy.data(), r1, 1e-3, 1.0) && ok;

  // (3a)
  std::vector<double> wenergy(r2);
  for (size_t i = 0; i < size_t(r2); i++) {
    double s = 0;
    for (int j = 0; j < n2; j++) s += D[i * n2 + j] * D[i * n2 + j];
    wenergy[i] = s;
  }
  ok = checkDoubles("map_reduce_rows<double>", genergy.data(), wenergy.data(), r2, 1e-9, 1.0) && ok;

  // (3b)
  std::vector<int> wspeak(r3);
  for (size_t i = 0; i < size_t(r3); i++) {
    int m = 0;
    for (int j = 0; j < n3; j++) m = std::max(m, std::abs(int(S[i * n3 + j])));
    wspeak[i] = m;
  }
  ok = checkExact("map_reduce_rows<int16>", gspeak.data(), wspeak.data(), r3) && ok;

  CHECK(cudaFree(d_A));
  CHECK(cudaFree(d_x));
  CHECK(cudaFree(d_mean));
  CHECK(cudaFree(d_mad));
  CHECK(cudaFree(d_peak));
  CHECK(cudaFree(d_y));
  CHECK(cudaFree(d_D));
  CHECK(cudaFree(d_energy));
  CHECK(cudaFree(d_S));
  CHECK(cudaFree(d_speak));
  return finish(ms, ok);
}
