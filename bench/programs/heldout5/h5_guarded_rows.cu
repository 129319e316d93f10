// h5_guarded_rows: guards inside thread-per-row loops over one m x n float
// matrix with about 30% exact zeros (6000 x 4000, 96 MB; m and n not powers
// of two). (1) dense `y = A x` skipping zeros with `continue`: `float a =
// A[i*n + j]; if (a == 0.0f) continue; s += a * x[j];` (int, blocks of 128);
// (2) a clamped row sum, `float v = A[i*n + j]; if (v > hi) v = hi; s += v;`
// (int, blocks of 256); (3) a count of the elements above a threshold into
// int, `if (A[i*n + j] > thr) ++c;` with size_t i, j, n (blocks of 512). One
// launch each. Timed: all three. Checked exactly (fmaf in the device's order
// for (1); plain float adds in order for (2)).
#include "../common.h"

__global__ void spmv_dense_skip(const float *A, const float *x, float *y, int m, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= m) return;
  float s = 0.0f;
  for (int j = 0; j < n; ++j) {
    float a = A[i * n + j];
    if (a == 0.0f) continue;
    s += a * x[j];
  }
  y[i] = s;
}

__global__ void clamped_row_sum(const float *A, float *out, int m, int n, float hi) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < m) {
    float s = 0.0f;
    for (int j = 0; j < n; j++) {
      float v = A[i * n + j];
      if (v > hi) v = hi;
      s += v;
    }
    out[i] = s;
  }
}

__global__ void count_above(const float *A, int *cnt, size_t m, size_t n, float thr) {
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (i < m) {
    int c = 0;
    for (size_t j = 0; j < n; ++j)
      if (A[i * n + j] > thr) ++c;
    cnt[i] = c;
  }
}

int main(int argc, char **argv) {
  const int m = argInt(argc, argv, 1, 6000), n = argInt(argc, argv, 2, 4000);
  const float hi = 0.9f, thr = 1.0f;
  std::vector<float> A(size_t(m) * n), x(n);
  fillFloats(A, 5401);
  for (size_t k = 0; k < A.size(); k++)
    if (hashAt(5402, k) % 10u < 3u) A[k] = 0.0f;
  fillFloats(x, 5403);
  float *dA = toDevice(A), *dx = toDevice(x), *dy, *dc;
  int *dn;
  CHECK(cudaMalloc(&dy, size_t(m) * sizeof(float)));
  CHECK(cudaMalloc(&dc, size_t(m) * sizeof(float)));
  CHECK(cudaMalloc(&dn, size_t(m) * sizeof(int)));
  CHECK(cudaDeviceSynchronize());

  GpuTimer t;
  t.start();
  spmv_dense_skip<<<blocksFor(m, 128), 128>>>(dA, dx, dy, m, n);
  CHECK_LAUNCH();
  clamped_row_sum<<<blocksFor(m, 256), 256>>>(dA, dc, m, n, hi);
  CHECK_LAUNCH();
  count_above<<<blocksFor(m, 512), 512>>>(dA, dn, size_t(m), size_t(n), thr);
  CHECK_LAUNCH();
  float ms = t.stop();
  std::vector<float> y = fromDevice(dy, m), c = fromDevice(dc, m);
  std::vector<int> cnt = fromDevice(dn, m);

  std::vector<float> yref(m), cref(m);
  std::vector<int> nref(m);
  for (int i = 0; i < m; i++) {
    const float *a = A.data() + size_t(i) * n;
    float s = 0.0f, sc = 0.0f;
    int k = 0;
    for (int j = 0; j < n; j++) {
      if (a[j] != 0.0f) s = std::fmaf(a[j], x[j], s);
      sc += a[j] > hi ? hi : a[j];
      k += a[j] > thr;
    }
    yref[i] = s;
    cref[i] = sc;
    nref[i] = k;
  }
  bool ok = checkExact("skip-zero y", y.data(), yref.data(), m);
  ok = checkExact("clamped sum", c.data(), cref.data(), m) && ok;
  ok = checkExact("count above", cnt.data(), nref.data(), m) && ok;
  CHECK(cudaFree(dA));
  CHECK(cudaFree(dx));
  CHECK(cudaFree(dy));
  CHECK(cudaFree(dc));
  CHECK(cudaFree(dn));
  return finish(ms, ok);
}
