// h5_tri_strict: triangular thread-per-row walks over one n x n float matrix
// (6144 x 6144, 151 MB stored; the lower halves read, ~75 MB a kernel).
// (1) strictly lower product, `for (int k = 0; k < i; k++) s += L[i*n + k] *
// x[k]` (int, blocks of 128; row 0 gives 0); (2) one forward-substitution-like
// row step with x read-only (x holds values already known, y is written):
// `float s = b[i]; for (int k = 0; k < i; ++k) s -= L[i*n + k] * x[k]; y[i] =
// s / L[i*n + i];` (blocks of 64). One launch each. Timed: both. Checked
// exactly: fmaf in the device's order (`s -= a*b` as fmaf(-a, b, s)) and IEEE
// division.
#include "../common.h"

__global__ void strict_lower_mv(const float *L, const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float s = 0.0f;
    for (int k = 0; k < i; k++) s += L[i * n + k] * x[k];
    y[i] = s;
  }
}

__global__ void forward_row_step(const float *L, const float *b, const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float s = b[i];
    for (int k = 0; k < i; ++k) s -= L[i * n + k] * x[k];
    y[i] = s / L[i * n + i];
  }
}

int main(int argc, char **argv) {
  const int n = argInt(argc, argv, 1, 6144);
  std::vector<float> L(size_t(n) * n), x(n), b(n);
  fillFloats(L, 5501);
  fillFloats(x, 5502, 0.01f, 0.02f);
  fillFloats(b, 5503);
  float *dL = toDevice(L), *dx = toDevice(x), *db = toDevice(b), *dy1, *dy2;
  CHECK(cudaMalloc(&dy1, size_t(n) * sizeof(float)));
  CHECK(cudaMalloc(&dy2, size_t(n) * sizeof(float)));
  CHECK(cudaDeviceSynchronize());

  GpuTimer t;
  t.start();
  strict_lower_mv<<<blocksFor(n, 128), 128>>>(dL, dx, dy1, n);
  CHECK_LAUNCH();
  forward_row_step<<<blocksFor(n, 64), 64>>>(dL, db, dx, dy2, n);
  CHECK_LAUNCH();
  float ms = t.stop();
  std::vector<float> y1 = fromDevice(dy1, n), y2 = fromDevice(dy2, n);

  std::vector<float> r1(n), r2(n);
  for (int i = 0; i < n; i++) {
    const float *row = L.data() + size_t(i) * n;
    float s = 0.0f, f = b[i];
    for (int k = 0; k < i; k++) {
      s = std::fmaf(row[k], x[k], s);
      f = std::fmaf(-row[k], x[k], f);
    }
    r1[i] = s;
    r2[i] = f / row[i];
  }
  bool ok = checkExact("strict lower", y1.data(), r1.data(), n);
  ok = checkExact("forward step", y2.data(), r2.data(), n) && ok;
  CHECK(cudaFree(dL));
  CHECK(cudaFree(dx));
  CHECK(cudaFree(db));
  CHECK(cudaFree(dy1));
  CHECK(cudaFree(dy2));
  return finish(ms, ok);
}
