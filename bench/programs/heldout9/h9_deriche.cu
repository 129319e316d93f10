// h9_deriche: PolyBench deriche (recursive Gaussian-like edge filter),
// float, `#define W 4000`, `#define H 4200` (compile-time; imgIn, imgOut,
// y1, y2 are 67 MB each), `int` indices, coefficients computed on the host
// as PolyBench does (alpha = 0.25) and passed as arguments. (1) a thread
// per row i, blocks of 64: PolyBench's three row loops for that row: the
// causal pass `y1[i*H + j] = a1*imgIn[i*H + j] + a2*xm1 + b1*ym1 + b2*ym2`
// left to right, the anti-causal pass into y2 right to left, then
// `imgOut[i*H + j] = c1*(y1[i*H + j] + y2[i*H + j])` (reads back what the
// same thread stored: row walks forwards, backwards, forwards); (2) a
// thread per column j, blocks of 128: the column passes over imgOut (top
// down into y1, bottom up into y2), then `imgOut[i*H + j] = c2*(y1 + y2)`
// in place. Timed: the 2 launches, run twice (REPEAT = 2; the second
// pair filters the first's output). Checked: imgOut, rtol 1e-4 (floor 1e-2
// of the image's largest value: the device contracts the recurrences).
#include "../common.h"

#define W 4000
#define H 4200

__global__ void deriche_rows(const float *imgIn, float *imgOut, float *y1, float *y2, float a1, float a2, float a3,
                             float a4, float b1, float b2, float c1) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < W) {
    float ym1 = 0.0f, ym2 = 0.0f, xm1 = 0.0f;
    for (int j = 0; j < H; j++) {
      y1[i * H + j] = a1 * imgIn[i * H + j] + a2 * xm1 + b1 * ym1 + b2 * ym2;
      xm1 = imgIn[i * H + j];
      ym2 = ym1;
      ym1 = y1[i * H + j];
    }
    float yp1 = 0.0f, yp2 = 0.0f, xp1 = 0.0f, xp2 = 0.0f;
    for (int j = H - 1; j >= 0; j--) {
      y2[i * H + j] = a3 * xp1 + a4 * xp2 + b1 * yp1 + b2 * yp2;
      xp2 = xp1;
      xp1 = imgIn[i * H + j];
      yp2 = yp1;
      yp1 = y2[i * H + j];
    }
    for (int j = 0; j < H; j++) imgOut[i * H + j] = c1 * (y1[i * H + j] + y2[i * H + j]);
  }
}

__global__ void deriche_cols(float *imgOut, float *y1, float *y2, float a5, float a6, float a7, float a8, float b1,
                             float b2, float c2) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j < H) {
    float tm1 = 0.0f, ym1 = 0.0f, ym2 = 0.0f;
    for (int i = 0; i < W; i++) {
      y1[i * H + j] = a5 * imgOut[i * H + j] + a6 * tm1 + b1 * ym1 + b2 * ym2;
      tm1 = imgOut[i * H + j];
      ym2 = ym1;
      ym1 = y1[i * H + j];
    }
    float tp1 = 0.0f, tp2 = 0.0f, yp1 = 0.0f, yp2 = 0.0f;
    for (int i = W - 1; i >= 0; i--) {
      y2[i * H + j] = a7 * tp1 + a8 * tp2 + b1 * yp1 + b2 * yp2;
      tp2 = tp1;
      tp1 = imgOut[i * H + j];
      yp2 = yp1;
      yp1 = y2[i * H + j];
    }
    for (int i = 0; i < W; i++) imgOut[i * H + j] = c2 * (y1[i * H + j] + y2[i * H + j]);
  }
}

int main() {
  const int repeat = 2;
  const size_t n = size_t(W) * H;
  const float alpha = 0.25f;
  float k = (1.0f - expf(-alpha)) * (1.0f - expf(-alpha)) / (1.0f + 2.0f * alpha * expf(-alpha) - expf(2.0f * alpha));
  float a1, a2, a3, a4, a5, a6, a7, a8, b1, b2, c1, c2;
  a1 = a5 = k;
  a2 = a6 = k * expf(-alpha) * (alpha - 1.0f);
  a3 = a7 = k * expf(-alpha) * (alpha + 1.0f);
  a4 = a8 = -k * expf(-2.0f * alpha);
  b1 = powf(2.0f, -alpha);
  b2 = -expf(-2.0f * alpha);
  c1 = c2 = 1;
  std::vector<float> img(n);
  fillFloats(img, 10001);
  float *d_a = toDevice(img), *d_b, *d_y1, *d_y2;
  CHECK(cudaMalloc(&d_b, n * sizeof(float)));
  CHECK(cudaMalloc(&d_y1, n * sizeof(float)));
  CHECK(cudaMalloc(&d_y2, n * sizeof(float)));
  CHECK(cudaDeviceSynchronize());

  GpuTimer t;
  t.start();
  float *in = d_a, *out = d_b;
  for (int r = 0; r < repeat; r++) {
    deriche_rows<<<blocksFor(W, 64), 64>>>(in, out, d_y1, d_y2, a1, a2, a3, a4, b1, b2, c1);
    CHECK_LAUNCH();
    deriche_cols<<<blocksFor(H, 128), 128>>>(out, d_y1, d_y2, a5, a6, a7, a8, b1, b2, c2);
    CHECK_LAUNCH();
    std::swap(in, out);
  }
  float ms = t.stop();
  std::vector<float> gOut = fromDevice(in, n);

  std::vector<float> a = img, o(n), y1(n), y2(n);
  for (int r = 0; r < repeat; r++) {
    for (size_t i = 0; i < W; i++) {
      float ym1 = 0, ym2 = 0, xm1 = 0;
      for (size_t j = 0; j < H; j++) {
        y1[i * H + j] = a1 * a[i * H + j] + a2 * xm1 + b1 * ym1 + b2 * ym2;
        xm1 = a[i * H + j], ym2 = ym1, ym1 = y1[i * H + j];
      }
      float yp1 = 0, yp2 = 0, xp1 = 0, xp2 = 0;
      for (long j = H - 1; j >= 0; j--) {
        y2[i * H + j] = a3 * xp1 + a4 * xp2 + b1 * yp1 + b2 * yp2;
        xp2 = xp1, xp1 = a[i * H + j], yp2 = yp1, yp1 = y2[i * H + j];
      }
      for (size_t j = 0; j < H; j++) o[i * H + j] = c1 * (y1[i * H + j] + y2[i * H + j]);
    }
    // Column passes, rows outermost for the host's cache: per-column state in arrays.
    std::vector<float> tm1(H, 0), ym1(H, 0), ym2(H, 0), tp1(H, 0), tp2(H, 0), yp1(H, 0), yp2(H, 0);
    for (size_t i = 0; i < W; i++)
      for (size_t j = 0; j < H; j++) {
        y1[i * H + j] = a5 * o[i * H + j] + a6 * tm1[j] + b1 * ym1[j] + b2 * ym2[j];
        tm1[j] = o[i * H + j], ym2[j] = ym1[j], ym1[j] = y1[i * H + j];
      }
    for (long i = W - 1; i >= 0; i--)
      for (size_t j = 0; j < H; j++) {
        y2[i * H + j] = a7 * tp1[j] + a8 * tp2[j] + b1 * yp1[j] + b2 * yp2[j];
        tp2[j] = tp1[j], tp1[j] = o[i * H + j], yp2[j] = yp1[j], yp1[j] = y2[i * H + j];
      }
    for (size_t i = 0; i < n; i++) o[i] = c2 * (y1[i] + y2[i]);
    a.swap(o);
  }
  bool ok = checkFloats("deriche imgOut", gOut.data(), a.data(), n, 1e-4, 1e-2 * maxAbs(a.data(), n));
  CHECK(cudaFree(d_a));
  CHECK(cudaFree(d_b));
  CHECK(cudaFree(d_y1));
  CHECK(cudaFree(d_y2));
  return finish(ms, ok);
}
