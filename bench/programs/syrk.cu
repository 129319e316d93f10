// syrk (PolyBench/GPU, lower triangle): C = alpha A A^T + beta C for j <= i,
// A n x m float, C n x n (n = m = 1024). One thread per element of C,
// threads above the diagonal do nothing; `c[i*n+j] *= beta` then
// `c[i*n+j] += alpha*a[i*m+k]*a[j*m+k]` (the accumulator in global memory);
// blocks of 32 x 8. One launch. Timed: the kernel only. Checked: 1024
// sampled elements of the lower triangle, and the upper triangle unchanged
// (exact).
#include "common.h"

__global__ void syrk_kernel(const float *a, float *c, int n, int m, float alpha, float beta) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < n && j <= i) {
    c[i * n + j] *= beta;
    for (int k = 0; k < m; k++) c[i * n + j] += alpha * a[i * m + k] * a[j * m + k];
  }
}

int main(int argc, char **argv) {
  const int n = argInt(argc, argv, 1, 1024), m = argInt(argc, argv, 2, 1024);
  const float alpha = 1.5f, beta = 1.25f;
  std::vector<float> a(size_t(n) * m), c(size_t(n) * n);
  fillFloats(a, 91);
  fillFloats(c, 92);
  float *da = toDevice(a), *dc = toDevice(c);
  GpuTimer t;
  t.start();
  syrk_kernel<<<dim3(blocksFor(n, 32), blocksFor(n, 8)), dim3(32, 8)>>>(da, dc, n, m, alpha, beta);
  CHECK_LAUNCH();
  float ms = t.stop();
  std::vector<float> got = fromDevice(dc, size_t(n) * n);

  bool ok = true;
  for (int i = 0; i < n && ok; i++)
    for (int j = i + 1; j < n; j++)
      if (got[size_t(i) * n + j] != c[size_t(i) * n + j]) {
        std::fprintf(stderr, "c[%d][%d] above the diagonal changed\n", i, j);
        ok = false;
        break;
      }
  Rng r(93);
  std::vector<float> g, want;
  for (int s = 0; s < 1024; s++) {
    int i = r.below(n), j = r.below(i + 1);
    float v = c[size_t(i) * n + j] * beta;
    for (int k = 0; k < m; k++) v += alpha * a[size_t(i) * m + k] * a[size_t(j) * m + k];
    g.push_back(got[size_t(i) * n + j]);
    want.push_back(v);
  }
  ok = checkFloats("c", g.data(), want.data(), g.size(), 1e-3) && ok;
  return finish(ms, ok);
}
