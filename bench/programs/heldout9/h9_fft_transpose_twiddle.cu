// h9_fft_transpose_twiddle: the data movement of a four-step FFT (SHOC fft's
// large sizes, cuFFT users' hand-written versions) on complex float
// (float2) data, R x C = 3000 x 2900 (70 MB a buffer): (1) a naive
// transpose `out[x*R + y] = in[y*C + x]`, a thread per input element, 16
// x 16 blocks, `int`, bounds-tested; (2) the twiddle multiply in place on
// the transposed C x R matrix, written column-major: a thread per (a, b)
// with a (the row) from threadIdx.x, `d[a*R + b] *= tw[(a*b) & 4095]` as a
// complex product (reads and writes its own element; 32 x 8 blocks, `int`);
// (3) the transpose back, a thread per output element, 32 x 4 blocks,
// `size_t`: `out[y*C + x] = in[x*R + y]`. Three rounds (each starts from
// the previous one's result). Sizes: R C ROUNDS (argv). Timed: all 9
// launches. Checked: both buffers after the last round; the transposes
// exactly, the twiddled values rtol 1e-5 (floor 1; the device contracts the
// complex product, the host does not): the host's own result feeds its next
// round.
#include "../common.h"

__global__ void transpose_c(const float2 *in, float2 *out, int R, int C) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < C && y < R) out[x * R + y] = in[y * C + x];
}

__global__ void twiddle_colmajor(float2 *d, const float2 *tw, int rowsT, int colsT) {
  int a = blockIdx.x * blockDim.x + threadIdx.x;
  int b = blockIdx.y * blockDim.y + threadIdx.y;
  if (a < rowsT && b < colsT) {
    float2 v = d[a * colsT + b];
    float2 w = tw[(a * b) & 4095];
    d[a * colsT + b] = make_float2(v.x * w.x - v.y * w.y, v.x * w.y + v.y * w.x);
  }
}

__global__ void transpose_back(const float2 *in, float2 *out, size_t R, size_t C) {
  size_t x = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  size_t y = blockIdx.y * (size_t)blockDim.y + threadIdx.y;
  if (x < C && y < R) out[y * C + x] = in[x * R + y];
}

int main(int argc, char **argv) {
  const int R = argInt(argc, argv, 1, 3000), C = argInt(argc, argv, 2, 2900), rounds = argInt(argc, argv, 3, 3);
  const size_t n = size_t(R) * C;
  std::vector<float> raw(2 * n);
  fillFloats(raw, 10201, 0.25f, 1.25f);
  std::vector<float2> X(n), tw(4096);
  for (size_t i = 0; i < n; i++) X[i] = make_float2(raw[2 * i], raw[2 * i + 1]);
  for (int k = 0; k < 4096; k++) {
    double ang = -2.0 * 3.14159265358979323846 * k / 4096.0;
    tw[k] = make_float2(float(std::cos(ang)), float(std::sin(ang)));
  }
  float2 *d_X = toDevice(X), *d_tw = toDevice(tw), *d_T;
  CHECK(cudaMalloc(&d_T, n * sizeof(float2)));
  CHECK(cudaDeviceSynchronize());

  dim3 b1(16, 16), g1((C + 15) / 16, (R + 15) / 16);
  dim3 b2(32, 8), g2((C + 31) / 32, (R + 7) / 8);
  dim3 b3(32, 4), g3((C + 31) / 32, (R + 3) / 4);
  GpuTimer t;
  t.start();
  for (int r = 0; r < rounds; r++) {
    transpose_c<<<g1, b1>>>(d_X, d_T, R, C);
    CHECK_LAUNCH();
    twiddle_colmajor<<<g2, b2>>>(d_T, d_tw, C, R);
    CHECK_LAUNCH();
    transpose_back<<<g3, b3>>>(d_T, d_X, size_t(R), size_t(C));
    CHECK_LAUNCH();
  }
  float ms = t.stop();
  std::vector<float2> gX = fromDevice(d_X, n), gT = fromDevice(d_T, n);

  // The host's own chain; the twiddled values within a tolerance.
  std::vector<float2> T(n);
  for (int r = 0; r < rounds; r++) {
    for (size_t y = 0; y < size_t(R); y++)
      for (size_t x = 0; x < size_t(C); x++) T[x * R + y] = X[y * C + x];
    for (size_t a = 0; a < size_t(C); a++)
      for (size_t b = 0; b < size_t(R); b++) {
        float2 v = T[a * R + b], w = tw[(a * b) & 4095];
        T[a * R + b] = make_float2(v.x * w.x - v.y * w.y, v.x * w.y + v.y * w.x);
      }
    for (size_t y = 0; y < size_t(R); y++)
      for (size_t x = 0; x < size_t(C); x++) X[y * C + x] = T[x * R + y];
  }
  bool ok = checkFloats("four-step X", reinterpret_cast<const float *>(gX.data()),
                        reinterpret_cast<const float *>(X.data()), 2 * n, 1e-5, 1.0);
  ok = checkFloats("four-step T", reinterpret_cast<const float *>(gT.data()), reinterpret_cast<const float *>(T.data()),
                   2 * n, 1e-5, 1.0) &&
       ok;
  // The last transpose moves bits: X must be T transposed exactly.
  size_t bad = 0;
  for (size_t y = 0; y < size_t(R); y++)
    for (size_t x = 0; x < size_t(C); x++) {
      float2 p = gX[y * C + x], q = gT[x * R + y];
      if (p.x != q.x || p.y != q.y) bad++;
    }
  if (bad) std::fprintf(stderr, "transpose back: %zu of %zu differ\n", bad, n);
  ok = ok && bad == 0;
  CHECK(cudaFree(d_X));
  CHECK(cudaFree(d_tw));
  CHECK(cudaFree(d_T));
  return finish(ms, ok);
}
