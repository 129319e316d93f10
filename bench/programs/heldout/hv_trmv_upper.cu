// hv_trmv_upper: triangular matrix-vector products over one dense n x n
// float matrix (4096 x 4096, 64 MB): u = triu(A) x (`for (int j = i; j < n;
// j++)`, blocks of 256, `if (i < n)` guard) and l = tril(A) x (`for (int j
// = 0; j <= i; j++)`, blocks of 64, an early return). A thread per row,
// register accumulators, int indices. One launch each. Timed: both kernels.
// Checked: relative 1e-3.
#include "../common.h"

__global__ void trmv_upper(const float *A, const float *x, float *u, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float s = 0.0f;
    for (int j = i; j < n; j++) s += A[i * n + j] * x[j];
    u[i] = s;
  }
}

__global__ void trmv_lower(const float *A, const float *x, float *l, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float s = 0.0f;
  for (int j = 0; j <= i; j++) s += A[i * n + j] * x[j];
  l[i] = s;
}

int main(int argc, char **argv) {
  const int n = argInt(argc, argv, 1, 4096);
  std::vector<float> A(size_t(n) * n), x(n);
  fillFloats(A, 341);
  fillFloats(x, 342);
  float *dA = toDevice(A), *dx = toDevice(x), *du, *dl;
  CHECK(cudaMalloc(&du, size_t(n) * sizeof(float)));
  CHECK(cudaMalloc(&dl, size_t(n) * sizeof(float)));
  GpuTimer t;
  t.start();
  trmv_upper<<<blocksFor(n, 256), 256>>>(dA, dx, du, n);
  CHECK_LAUNCH();
  trmv_lower<<<blocksFor(n, 64), 64>>>(dA, dx, dl, n);
  CHECK_LAUNCH();
  float ms = t.stop();
  std::vector<float> u = fromDevice(du, n), l = fromDevice(dl, n);

  std::vector<float> uref(n), lref(n);
  for (int i = 0; i < n; i++) {
    float su = 0.0f, sl = 0.0f;
    for (int j = i; j < n; j++) su += A[size_t(i) * n + j] * x[j];
    for (int j = 0; j <= i; j++) sl += A[size_t(i) * n + j] * x[j];
    uref[i] = su;
    lref[i] = sl;
  }
  bool ok = checkFloats("u", u.data(), uref.data(), n, 1e-3);
  ok = checkFloats("l", l.data(), lref.data(), n, 1e-3) && ok;
  return finish(ms, ok);
}
