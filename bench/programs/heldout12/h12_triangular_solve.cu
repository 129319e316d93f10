// h12_triangular_solve: triangular row walks in both directions and a
// blocked forward substitution in which rows read outputs that earlier
// launches computed. (1) trmv_upper_d: `for (size_t k = i; k < n; k++) s +=
// U[i*n + k]*x[k]`, double, `size_t` indices, n = 4096 (134 MB stored, the
// upper half read), 128-thread blocks, `if (i < n)`; (2) trmv_lower_strict:
// `for (unsigned k = 0; k < i; k++) s += L[i*n + k]*x2[k]; y2[i] = L[i*n +
// i]*x2[i] + s`, float, `unsigned` indices, over the L of (3), 64-thread
// blocks launched without a guard; (3) solving L z = b, L lower-triangular
// float n2 x n2 = 6144 x 6144 stored full (151 MB; the upper part filled but
// never read; off-diagonal in [0.0625,0.3125)/n2, diagonal in [1, 2), b in
// [1, 2), so z stays in about [0.2, 2]), in row blocks of SOLVE_BLOCK = 256
// launched in sequence from the host: per block r0, trsv_offdiag (a thread
// per row of the block, `int` indices, 4 blocks of 64 threads, no guard) `s
// = b[i]; for (int k = 0; k < r0; k++) s -= L[i*n + k]*z[k]; rhs[i] = s`,
// reading the z that the earlier blocks produced, then trsv_diag (one block
// of 256 threads, shared memory, one __syncthreads a column) solving the 256
// x 256 diagonal block. Sizes: n n2 (argv; n2 rounded up to a multiple of
// 256). Launches: 1 + 1 + 2*n2/256 = 50. Timed: all launches. Checked: (1) relative tolerance 1e-9;
// (2), (3) against double CPU results, relative tolerance 1e-3 (fma
// contraction; no cancellation by construction).
#include "../common.h"

#define SOLVE_BLOCK 256

__global__ void trmv_upper_d(const double *U, const double *x, double *y, size_t n) {
  size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) {
    double s = 0.0;
    for (size_t k = i; k < n; k++) s += U[i * n + k] * x[k];
    y[i] = s;
  }
}

__global__ void trmv_lower_strict(const float *L, const float *x, float *y, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0.0f;
  for (unsigned k = 0; k < i; k++) s += L[i * n + k] * x[k];
  y[i] = L[i * n + i] * x[i] + s;
}

__global__ void trsv_offdiag(const float *L, const float *b, const float *z, float *rhs, int n, int r0) {
  int i = r0 + blockIdx.x * blockDim.x + threadIdx.x;
  float s = b[i];
  for (int k = 0; k < r0; k++) s -= L[i * n + k] * z[k];
  rhs[i] = s;
}

__global__ void trsv_diag(const float *L, const float *rhs, float *z, int n, int r0) {
  __shared__ float zs[SOLVE_BLOCK];
  int t = threadIdx.x;
  int i = r0 + t;
  float s = rhs[i];
  for (int c = 0; c < SOLVE_BLOCK; c++) {
    if (t == c) zs[c] = s / L[i * n + i];
    __syncthreads();
    if (t > c) s -= L[i * n + r0 + c] * zs[c];
  }
  z[i] = zs[t];
}

static bool checkDoubles(const char *what, const double *got, const double *want, size_t n, double rtol) {
  size_t bad = 0, first = 0;
  for (size_t i = 0; i < n; ++i)
    if (!closeEnough(got[i], want[i], rtol, 1e-12)) {
      if (!bad) first = i;
      ++bad;
    }
  if (bad)
    std::fprintf(stderr, "%s: %zu of %zu differ; first at %zu: got %.17g want %.17g\n", what, bad, n, first,
                 got[first], want[first]);
  return bad == 0;
}

int main(int argc, char **argv) {
  const size_t n = argInt(argc, argv, 1, 4096);
  int n2 = argInt(argc, argv, 2, 6144);
  n2 = (n2 + SOLVE_BLOCK - 1) / SOLVE_BLOCK * SOLVE_BLOCK;  // the solve's and trmv_lower_strict's grids are exact

  std::vector<double> U(n * n), x(n);
  for (size_t k = 0; k < U.size(); k++) U[k] = 0.25 + double(hashAt(12801, k)) * (1.0 / 4294967296.0);
  for (size_t k = 0; k < n; k++) x[k] = 0.25 + double(hashAt(12802, k)) * (1.0 / 4294967296.0);
  const size_t nl = size_t(n2) * n2;
  std::vector<float> L(nl), x2(n2), b(n2);
  fillFloats(L, 12803, 0.0625f / n2, 0.3125f / n2);
  for (size_t i = 0; i < size_t(n2); i++) L[i * n2 + i] = 1.0f + float(hashAt(12804, i) >> 8) * (1.0f / 16777216.0f);
  fillFloats(x2, 12805);
  fillFloats(b, 12806, 1.0f, 2.0f);

  double *d_U = toDevice(U), *d_x = toDevice(x), *d_y;
  float *d_L = toDevice(L), *d_x2 = toDevice(x2), *d_b = toDevice(b), *d_y2, *d_rhs, *d_z;
  CHECK(cudaMalloc(&d_y, n * sizeof(double)));
  CHECK(cudaMalloc(&d_y2, n2 * sizeof(float)));
  CHECK(cudaMalloc(&d_rhs, n2 * sizeof(float)));
  CHECK(cudaMalloc(&d_z, n2 * sizeof(float)));
  CHECK(cudaDeviceSynchronize());

  GpuTimer t;
  t.start();
  trmv_upper_d<<<blocksFor(long(n), 128), 128>>>(d_U, d_x, d_y, n);
  CHECK_LAUNCH();
  trmv_lower_strict<<<n2 / 64, 64>>>(d_L, d_x2, d_y2, unsigned(n2));
  CHECK_LAUNCH();
  for (int r0 = 0; r0 < n2; r0 += SOLVE_BLOCK) {
    trsv_offdiag<<<SOLVE_BLOCK / 64, 64>>>(d_L, d_b, d_z, d_rhs, n2, r0);
    CHECK_LAUNCH();
    trsv_diag<<<1, SOLVE_BLOCK>>>(d_L, d_rhs, d_z, n2, r0);
    CHECK_LAUNCH();
  }
  float ms = t.stop();
  std::vector<double> gy = fromDevice(d_y, n);
  std::vector<float> gy2 = fromDevice(d_y2, n2), gz = fromDevice(d_z, n2);

  std::vector<double> wy(n);
  for (size_t i = 0; i < n; i++) {
    double s = 0;
    for (size_t k = i; k < n; k++) s += U[i * n + k] * x[k];
    wy[i] = s;
  }
  std::vector<float> wy2(n2), wz(n2);
  std::vector<double> z(n2);
  for (size_t i = 0; i < size_t(n2); i++) {
    const float *row = &L[i * n2];
    double s = 0, r = b[i];
    for (size_t k = 0; k < i; k++) {
      s += double(row[k]) * x2[k];
      r -= double(row[k]) * z[k];
    }
    wy2[i] = float(double(row[i]) * x2[i] + s);
    z[i] = r / row[i];
    wz[i] = float(z[i]);
  }
  bool ok = checkDoubles("trmv_upper_d", gy.data(), wy.data(), n, 1e-9);
  ok = checkFloats("trmv_lower_strict", gy2.data(), wy2.data(), n2, 1e-3) && ok;
  ok = checkFloats("blocked forward solve", gz.data(), wz.data(), n2, 1e-3) && ok;

  CHECK(cudaFree(d_U));
  CHECK(cudaFree(d_x));
  CHECK(cudaFree(d_y));
  float *fb[] = {d_L, d_x2, d_b, d_y2, d_rhs, d_z};
  for (float *p : fb) CHECK(cudaFree(p));
  return finish(ms, ok);
}
