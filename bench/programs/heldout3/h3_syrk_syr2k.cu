// h3_syrk_syr2k: PolyBench-style symmetric rank-k updates of the lower
// triangle of an n x n float C (n = 4096, 64 MB), the C element read and
// written in global memory inside the loop. (1) syrk, one thread per C
// element (j from threadIdx.x, i from threadIdx.y; blocks of 32 x 8), the
// triangle test inside the k loop: `if (j <= i) c[i*n+j] *= beta; for (k = 0;
// k < m; k++) if (j <= i) c[i*n+j] += alpha * a[i*m+k] * a[j*m+k]`, A n x m,
// m = 64 (reads of a[j*m+k] strided by m across threads); (2) syr2k in the
// PolyBench 4 loop order with one thread per row i (1-D blocks of 128): `for
// (j <= i) c[i*n+j] *= beta; for (k = 0; k < m; k++) for (j = 0; j <= i;
// j++) c[i*n+j] += a[j*m+k]*alpha*b[i*m+k] + b[j*m+k]*alpha*a[i*m+k]`,
// m = 16, on a second C. One launch each. Timed: both kernels. Checked
// exactly against CPU loops with fmaf where the PTX has fma.rn; the upper
// triangles must be unchanged.
#include "../common.h"

__global__ void syrk_lower(float alpha, float beta, const float *a, float *c, int n, int m) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  int i = blockIdx.y * blockDim.y + threadIdx.y;

  if ((i < n) && (j < n)) {
    if (j <= i) c[i * n + j] *= beta;
    for (int k = 0; k < m; k++) {
      if (j <= i) c[i * n + j] += alpha * a[i * m + k] * a[j * m + k];
    }
  }
}

__global__ void syr2k_rows(float alpha, float beta, const float *a, const float *b, float *c, int n, int m) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;

  if (i < n) {
    for (int j = 0; j <= i; j++) c[i * n + j] *= beta;
    for (int k = 0; k < m; k++)
      for (int j = 0; j <= i; j++) c[i * n + j] += a[j * m + k] * alpha * b[i * m + k] + b[j * m + k] * alpha * a[i * m + k];
  }
}

int main(int argc, char **argv) {
  const int n = argInt(argc, argv, 1, 4096), m1 = argInt(argc, argv, 2, 64), m2 = argInt(argc, argv, 3, 16);
  const float alpha = 1.5f, beta = 1.2f;
  const size_t nn = size_t(n) * n;
  std::vector<float> a1(size_t(n) * m1), a2(size_t(n) * m2), b2(size_t(n) * m2), c1(nn), c2(nn);
  fillFloats(a1, 3501);
  fillFloats(a2, 3502);
  fillFloats(b2, 3503);
  fillFloats(c1, 3504);
  fillFloats(c2, 3505);
  float *da1 = toDevice(a1), *da2 = toDevice(a2), *db2 = toDevice(b2), *dc1 = toDevice(c1), *dc2 = toDevice(c2);
  CHECK(cudaDeviceSynchronize());
  GpuTimer t;
  t.start();
  syrk_lower<<<dim3(blocksFor(n, 32), blocksFor(n, 8)), dim3(32, 8)>>>(alpha, beta, da1, dc1, n, m1);
  CHECK_LAUNCH();
  syr2k_rows<<<blocksFor(n, 128), 128>>>(alpha, beta, da2, db2, dc2, n, m2);
  CHECK_LAUNCH();
  float ms = t.stop();
  std::vector<float> g1 = fromDevice(dc1, nn), g2 = fromDevice(dc2, nn);

  std::vector<float> r1(c1), r2(c2);
  for (size_t i = 0; i < size_t(n); i++) {
    for (size_t j = 0; j <= i; j++) {
      float s = r1[i * n + j] * beta;
      for (size_t k = 0; k < size_t(m1); k++) s = std::fmaf(alpha * a1[i * m1 + k], a1[j * m1 + k], s);
      r1[i * n + j] = s;
    }
    for (size_t j = 0; j <= i; j++) r2[i * n + j] *= beta;
    for (size_t k = 0; k < size_t(m2); k++)
      for (size_t j = 0; j <= i; j++) {
        // The PTX: u = (b[j,k]*alpha)*a[i,k]; v = fma(a[j,k]*alpha, b[i,k], u); c = c + v.
        float u = (b2[j * m2 + k] * alpha) * a2[i * m2 + k];
        float v = std::fmaf(a2[j * m2 + k] * alpha, b2[i * m2 + k], u);
        r2[i * n + j] = r2[i * n + j] + v;
      }
  }
  bool ok = checkExact("syrk", g1.data(), r1.data(), nn);
  ok = checkExact("syr2k", g2.data(), r2.data(), nn) && ok;
  CHECK(cudaFree(da1));
  CHECK(cudaFree(da2));
  CHECK(cudaFree(db2));
  CHECK(cudaFree(dc1));
  CHECK(cudaFree(dc2));
  return finish(ms, ok);
}
