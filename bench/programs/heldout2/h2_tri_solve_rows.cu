// h2_tri_solve_rows: triangular and banded matrix-vector products over one
// n x n float matrix (n = 8192, 256 MB), one thread per row. (1) lower
// triangle with long indices: `long i = ...; for (long j = 0; j <= i; ++j)
// s += L[i*n + j] * x[j]`, blocks of 128; (2) band of half-width 64 with int
// indices: `for (int j = max(0, i-64); j <= min(n-1, i+64); j++) s +=
// A[(long)i*n + j] * x[j]`, blocks of 256. One launch each. Timed: both
// kernels. Checked exactly against CPU loops using fmaf in the device's
// order (the PTX is `fma.rn.f32`).
#include <algorithm>

#include "../common.h"

__global__ void trmv_lower(const float *L, const float *x, float *y, long n) {
  long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float s = 0.0f;
    for (long j = 0; j <= i; ++j) s += L[i * n + j] * x[j];
    y[i] = s;
  }
}

__global__ void band_mv(const float *A, const float *x, float *y, int n, int half) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float s = 0.0f;
    for (int j = max(0, i - half); j <= min(n - 1, i + half); j++) s += A[(long)i * n + j] * x[j];
    y[i] = s;
  }
}

int main(int argc, char **argv) {
  const int n = argInt(argc, argv, 1, 8192), half = argInt(argc, argv, 2, 64);
  std::vector<float> A(size_t(n) * n), x(n);
  fillFloats(A, 2401);
  fillFloats(x, 2402);
  float *dA = toDevice(A), *dx = toDevice(x), *dlow, *dband;
  CHECK(cudaMalloc(&dlow, size_t(n) * sizeof(float)));
  CHECK(cudaMalloc(&dband, size_t(n) * sizeof(float)));
  CHECK(cudaDeviceSynchronize());
  GpuTimer t;
  t.start();
  trmv_lower<<<blocksFor(n, 128), 128>>>(dA, dx, dlow, long(n));
  CHECK_LAUNCH();
  band_mv<<<blocksFor(n, 256), 256>>>(dA, dx, dband, n, half);
  CHECK_LAUNCH();
  float ms = t.stop();
  std::vector<float> low = fromDevice(dlow, n), band = fromDevice(dband, n);

  std::vector<float> rlow(n), rband(n);
  for (long i = 0; i < n; i++) {
    const float *row = A.data() + size_t(i) * n;
    float s = 0.0f;
    for (long j = 0; j <= i; ++j) s = std::fmaf(row[j], x[j], s);
    rlow[i] = s;
    s = 0.0f;
    for (long j = std::max(0L, i - half); j <= std::min(long(n) - 1, i + half); j++) s = std::fmaf(row[j], x[j], s);
    rband[i] = s;
  }
  bool ok = checkExact("lower", low.data(), rlow.data(), n);
  ok = checkExact("band", band.data(), rband.data(), n) && ok;
  CHECK(cudaFree(dA));
  CHECK(cudaFree(dx));
  CHECK(cudaFree(dlow));
  CHECK(cudaFree(dband));
  return finish(ms, ok);
}
