// h9_blockjacobi_l1: thread-per-row walks on two created streams. Stream
// 1: a block-Jacobi-style iteration on a double n x n system (n = 4096,
// 134 MB; diagonal 2n, the rest in [0.25, 1.25)): the off-diagonal blocks
// of 16 go to the right-hand side, `for (j = 0; j < n; j++) if (j / 16 !=
// i / 16) s -= A[i*n + j] * x[j]`, then `xn[i] = s / A[i*n + i]` (the
// diagonal block reduced to its diagonal), `int` indices, blocks of 128,
// ITERS = 4 launches ping-ponging x and xn; then a unit-lower triangular
// product with the result, `for (int k = 0; k <= i; k++) s += k == i ?
// x[k] : A[i*n + k] * x[k]`, `z[i] = s`, blocks of 64. Stream 2, at the
// same time: row L1 norms of a float rows x cols matrix (8192 x 3000, 98
// MB, signs mixed) skipping every third column, `for (unsigned j = 0; j <
// cols; j++) if (j % 3) s += fabsf(M[i*cols + j])`, `unsigned` indices,
// blocks of 256, then the same walk again dividing the row by its norm in
// place (`M[i*cols + j] = M[i*cols + j] / norm[i]` for the columns it
// summed). Sizes: n ITERS rows cols (argv). Timed: all 7 launches (both
// streams synchronized before the stop event). Checked: x after ITERS and
// z, rtol 1e-12 (floor 1e-9; the host uses fma where the device contracts
// `s -= a*b`); the norms and the scaled matrix exactly (plain adds; IEEE
// division).
#include "../common.h"

__global__ void block_jacobi(const double *A, const double *b, const double *x, double *xn, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    double s = b[i];
    for (int j = 0; j < n; j++)
      if (j / 16 != i / 16) s -= A[i * n + j] * x[j];
    xn[i] = s / A[i * n + i];
  }
}

__global__ void trmv_unit_lower(const double *A, const double *x, double *z, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    double s = 0.0;
    for (int k = 0; k <= i; k++) s += k == i ? x[k] : A[i * n + k] * x[k];
    z[i] = s;
  }
}

__global__ void row_l1_skip3(const float *M, float *norm, unsigned rows, unsigned cols) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < rows) {
    float s = 0.0f;
    for (unsigned j = 0; j < cols; j++)
      if (j % 3) s += fabsf(M[i * cols + j]);
    norm[i] = s;
  }
}

__global__ void row_scale_skip3(float *M, const float *norm, unsigned rows, unsigned cols) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < rows) {
    for (unsigned j = 0; j < cols; j++)
      if (j % 3) M[i * cols + j] = M[i * cols + j] / norm[i];
  }
}

int main(int argc, char **argv) {
  const int n = argInt(argc, argv, 1, 4096), iters = argInt(argc, argv, 2, 4);
  const unsigned rows = argInt(argc, argv, 3, 8192), cols = argInt(argc, argv, 4, 3000);
  const size_t nn = size_t(n) * n, nm = size_t(rows) * cols;
  std::vector<double> A(nn), b(n), x(n);
  for (size_t i = 0; i < nn; i++) A[i] = 0.25 + double(hashAt(9501, i) >> 8) * (1.0 / 16777216.0);
  for (int i = 0; i < n; i++) A[size_t(i) * n + i] = 2.0 * n, b[i] = 1.0 + (hashAt(9502, i) % 1000) * 0.5, x[i] = 1.0;
  std::vector<float> M(nm);
  fillFloats(M, 9503);
  for (size_t i = 0; i < nm; i++)
    if (hashAt(9504, i) & 1) M[i] = -M[i];
  double *d_A = toDevice(A), *d_b = toDevice(b), *d_x = toDevice(x), *d_xn, *d_z;
  CHECK(cudaMalloc(&d_xn, n * sizeof(double)));
  CHECK(cudaMalloc(&d_z, n * sizeof(double)));
  float *d_M = toDevice(M), *d_norm;
  CHECK(cudaMalloc(&d_norm, rows * sizeof(float)));
  cudaStream_t s1, s2;
  CHECK(cudaStreamCreate(&s1));
  CHECK(cudaStreamCreate(&s2));
  CHECK(cudaDeviceSynchronize());

  GpuTimer t;
  t.start();
  double *cur = d_x, *nxt = d_xn;
  for (int it = 0; it < iters; it++) {
    block_jacobi<<<blocksFor(n, 128), 128, 0, s1>>>(d_A, d_b, cur, nxt, n);
    CHECK_LAUNCH();
    std::swap(cur, nxt);
  }
  trmv_unit_lower<<<blocksFor(n, 64), 64, 0, s1>>>(d_A, cur, d_z, n);
  CHECK_LAUNCH();
  row_l1_skip3<<<blocksFor(rows, 256), 256, 0, s2>>>(d_M, d_norm, rows, cols);
  CHECK_LAUNCH();
  row_scale_skip3<<<blocksFor(rows, 256), 256, 0, s2>>>(d_M, d_norm, rows, cols);
  CHECK_LAUNCH();
  CHECK(cudaStreamSynchronize(s1));
  CHECK(cudaStreamSynchronize(s2));
  float ms = t.stop();
  std::vector<double> gx = fromDevice(cur, n), gz = fromDevice(d_z, n);
  std::vector<float> gnorm = fromDevice(d_norm, rows), gM = fromDevice(d_M, nm);

  std::vector<double> xn(n);
  for (int it = 0; it < iters; it++) {
    for (size_t i = 0; i < size_t(n); i++) {
      double s = b[i];
      for (size_t j = 0; j < size_t(n); j++)
        if (j / 16 != i / 16) s = std::fma(-A[i * n + j], x[j], s);
      xn[i] = s / A[i * n + i];
    }
    x.swap(xn);
  }
  std::vector<double> z(n);
  for (size_t i = 0; i < size_t(n); i++) {
    double s = 0.0;
    for (size_t k = 0; k <= i; k++) s += k == i ? x[k] : A[i * n + k] * x[k];
    z[i] = s;
  }
  std::vector<float> norm(rows);
  for (size_t i = 0; i < rows; i++) {
    float s = 0.0f;
    for (size_t j = 0; j < cols; j++)
      if (j % 3) s = s + std::fabs(M[i * cols + j]);
    norm[i] = s;
    for (size_t j = 0; j < cols; j++)
      if (j % 3) M[i * cols + j] = M[i * cols + j] / s;
  }
  size_t bad = 0;
  for (int i = 0; i < n; i++)
    if (!closeEnough(gx[i], x[i], 1e-12, 1e-9) || !closeEnough(gz[i], z[i], 1e-12, 1e-9)) bad++;
  if (bad) std::fprintf(stderr, "block jacobi x or trmv z: %zu of %d differ\n", bad, n);
  bool ok = bad == 0;
  ok = checkExact("l1 norms", gnorm.data(), norm.data(), rows) && ok;
  ok = checkExact("scaled M", gM.data(), M.data(), nm) && ok;
  CHECK(cudaStreamDestroy(s1));
  CHECK(cudaStreamDestroy(s2));
  CHECK(cudaFree(d_A));
  CHECK(cudaFree(d_b));
  CHECK(cudaFree(d_x));
  CHECK(cudaFree(d_xn));
  CHECK(cudaFree(d_z));
  CHECK(cudaFree(d_M));
  CHECK(cudaFree(d_norm));
  return finish(ms, ok);
}
