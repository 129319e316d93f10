// h11_gemv_lda: BLAS-style GEMV, y = alpha*A*x + beta*y, on row-major
// matrices stored with a leading dimension larger than the column count
// (lda > n: the rows are padded, the padding never read), a thread per row
// with a register accumulator and the alpha/beta epilogue reading y back.
// (1) float, `int` indices: `sum += A[i*lda + j]*x[j]`, M1 x N1 = 8192 x
// 4000 stored with lda 4096 (134 MB), 128-thread blocks; (2) double,
// `size_t` indices, the same loop, M2 x N2 = 4096 x 3000 stored with lda
// 3072 (100 MB), 256-thread blocks. alpha 1.5, beta 0.75 (runtime
// parameters); y starts non-zero. Sizes: M1 N1 LDA1 M2 N2 LDA2 (argv; an lda
// below n is raised to n). Each kernel launched once. Timed: the 2 launches.
// Checked: every y against a double CPU sum, relative tolerance 1e-3 for
// float and 1e-9 for double (the device contracts the multiply-add into
// fma; the inputs are positive, so the sums do not cancel).
#include "../common.h"

__global__ void sgemv_n_lda(int m, int n, float alpha, const float *A, int lda, const float *x, float beta,
                            float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < m) {
    float sum = 0.0f;
    for (int j = 0; j < n; j++) sum += A[i * lda + j] * x[j];
    y[i] = alpha * sum + beta * y[i];
  }
}

__global__ void dgemv_n_lda(size_t m, size_t n, double alpha, const double *A, size_t lda, const double *x,
                            double beta, double *y) {
  size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < m) {
    double acc = 0.0;
    for (size_t j = 0; j < n; ++j) acc += A[i * lda + j] * x[j];
    y[i] = alpha * acc + beta * y[i];
  }
}

static void fillDoubles(std::vector<double> &v, uint64_t seed) {
  for (size_t i = 0; i < v.size(); ++i) v[i] = 0.25 + double(hashAt(seed, i) >> 8) * (1.0 / 16777216.0);
}

template <class T>
static void cpuGemv(const std::vector<T> &A, size_t m, size_t n, size_t lda, double alpha, const std::vector<T> &x,
                    double beta, const std::vector<T> &y0, std::vector<double> &want) {
  for (size_t i = 0; i < m; i++) {
    double acc = 0;
    for (size_t j = 0; j < n; j++) acc += double(A[i * lda + j]) * double(x[j]);
    want[i] = alpha * acc + beta * double(y0[i]);
  }
}

int main(int argc, char **argv) {
  const int M1 = argInt(argc, argv, 1, 8192), N1 = argInt(argc, argv, 2, 4000);
  int LDA1 = argInt(argc, argv, 3, 4096);
  const int M2 = argInt(argc, argv, 4, 4096), N2 = argInt(argc, argv, 5, 3000);
  int LDA2 = argInt(argc, argv, 6, 3072);
  if (LDA1 < N1) LDA1 = N1;
  if (LDA2 < N2) LDA2 = N2;
  const float alphaF = 1.5f, betaF = 0.75f;
  const double alphaD = 1.5, betaD = 0.75;

  std::vector<float> A(size_t(M1) * LDA1), x(N1), y(M1);
  fillFloats(A, 11101);
  fillFloats(x, 11102);
  fillFloats(y, 11103);
  std::vector<double> B(size_t(M2) * LDA2), xd(N2), yd(M2);
  fillDoubles(B, 11104);
  fillDoubles(xd, 11105);
  fillDoubles(yd, 11106);

  float *d_A = toDevice(A), *d_x = toDevice(x), *d_y = toDevice(y);
  double *d_B = toDevice(B), *d_xd = toDevice(xd), *d_yd = toDevice(yd);
  CHECK(cudaDeviceSynchronize());

  GpuTimer t;
  t.start();
  sgemv_n_lda<<<blocksFor(M1, 128), 128>>>(M1, N1, alphaF, d_A, LDA1, d_x, betaF, d_y);
  CHECK_LAUNCH();
  dgemv_n_lda<<<blocksFor(M2, 256), 256>>>(size_t(M2), size_t(N2), alphaD, d_B, size_t(LDA2), d_xd, betaD, d_yd);
  CHECK_LAUNCH();
  float ms = t.stop();
  std::vector<float> gy = fromDevice(d_y, M1);
  std::vector<double> gyd = fromDevice(d_yd, M2);

  std::vector<double> want1(M1), want2(M2);
  cpuGemv(A, M1, N1, LDA1, alphaF, x, betaF, y, want1);
  cpuGemv(B, M2, N2, LDA2, alphaD, xd, betaD, yd, want2);
  std::vector<float> want1f(M1);
  for (int i = 0; i < M1; i++) want1f[i] = float(want1[i]);
  bool ok = checkFloats("sgemv (lda)", gy.data(), want1f.data(), M1, 1e-3);
  size_t bad = 0;
  for (int i = 0; i < M2; i++)
    if (!closeEnough(gyd[i], want2[i], 1e-9, 1e-12)) {
      if (!bad) std::fprintf(stderr, "dgemv (lda): first bad at %d: got %.17g want %.17g\n", i, gyd[i], want2[i]);
      ++bad;
    }
  if (bad) std::fprintf(stderr, "dgemv (lda): %zu of %d differ\n", bad, M2);
  ok = ok && bad == 0;

  CHECK(cudaFree(d_A));
  CHECK(cudaFree(d_x));
  CHECK(cudaFree(d_y));
  CHECK(cudaFree(d_B));
  CHECK(cudaFree(d_xd));
  CHECK(cudaFree(d_yd));
  return finish(ms, ok);
}
