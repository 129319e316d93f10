// h12_row_iterate: an iteration inside the kernel, each thread walking its
// own row several times with no __syncthreads (a thread touches only its
// row). (1) line_jacobi: K sweeps of a 1-D Jacobi smoother along each row of
// a grid, ping-ponging the row between U and V: `dst[r*cols + j] =
// 0.25f*(src[r*cols + j-1] + src[r*cols + j+1]) + 0.5f*F[r*cols + j]` for
// j in 1..cols-2, the two end points copied, and the sum of the row's new
// values kept from the last sweep; float, `int` indices, rows x cols = 8192 x
// 2048 (67 MB each of U, V, F), K = 4 (a kernel argument), 256-thread
// blocks, `if (r < rows)`; the result is in U after an even K, in V after an
// odd one. (2) row_fit_gd: per row, GD_STEPS (a #define, 6) steps of
// gradient descent on the scalar a minimising sum_j (A[i][j] - a*v[j])^2,
// each step a full walk of the row: `g = 0; for (j) g += (a*v[j] -
// A[i*cols + j])*v[j]; a -= lr*g`, lr = 0.5/|v|^2, float, `unsigned`
// indices, 8192 x 4096 (134 MB), 64-thread blocks launched without a guard
// (rows rounded up to a multiple of 64). (3) markov_step: a normalised
// power-iteration step `y = D^-1 A v` as two walks of the same row in one
// kernel, first `d += A[i*cols + j]`, then `s += A[i*cols + j]*v[j]`, `y[i] =
// s / d`, over the A and v of (2), `int` indices, 512-thread blocks, `if (i <
// rows)`. Sizes: rows cols K frows fcols (argv). Each kernel launched once.
// Timed: the 3 launches. Checked: the final grid, the row sums, the fitted a
// and y against double CPU runs of the same recurrences, relative tolerance
// 1e-3 (fma contraction; values stay in about [0.25, 1.25]).
#include "../common.h"

#define GD_STEPS 6

__global__ void line_jacobi(float *U, float *V, const float *F, float *rowsum, int rows, int cols, int sweeps) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < rows) {
    float total = 0.0f;
    for (int it = 0; it < sweeps; it++) {
      const float *src = (it & 1) ? V : U;
      float *dst = (it & 1) ? U : V;
      float s = src[r * cols] + src[r * cols + cols - 1];
      dst[r * cols] = src[r * cols];
      for (int j = 1; j < cols - 1; j++) {
        float v = 0.25f * (src[r * cols + j - 1] + src[r * cols + j + 1]) + 0.5f * F[r * cols + j];
        dst[r * cols + j] = v;
        s += v;
      }
      dst[r * cols + cols - 1] = src[r * cols + cols - 1];
      total = s;
    }
    rowsum[r] = total;
  }
}

__global__ void row_fit_gd(const float *A, const float *v, float *coef, unsigned cols, float lr) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  float a = 0.0f;
  for (int step = 0; step < GD_STEPS; step++) {
    float g = 0.0f;
    for (unsigned j = 0; j < cols; j++) g += (a * v[j] - A[i * cols + j]) * v[j];
    a -= lr * g;
  }
  coef[i] = a;
}

__global__ void markov_step(const float *A, const float *v, float *y, int rows, int cols) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < rows) {
    float d = 0.0f;
    for (int j = 0; j < cols; j++) d += A[i * cols + j];
    float s = 0.0f;
    for (int j = 0; j < cols; j++) s += A[i * cols + j] * v[j];
    y[i] = s / d;
  }
}

int main(int argc, char **argv) {
  const int rows = argInt(argc, argv, 1, 8192), cols = argInt(argc, argv, 2, 2048);
  const int K = argInt(argc, argv, 3, 4);
  unsigned frows = argInt(argc, argv, 4, 8192);
  const unsigned fcols = argInt(argc, argv, 5, 4096);
  frows = (frows + 63) / 64 * 64;  // row_fit_gd has no guard
  const size_t ng = size_t(rows) * cols, nf = size_t(frows) * fcols;

  std::vector<float> U(ng), F(ng), A(nf), v(fcols);
  fillFloats(U, 12201);
  fillFloats(F, 12202);
  fillFloats(A, 12203);
  fillFloats(v, 12204);
  double vv = 0;
  for (unsigned j = 0; j < fcols; j++) vv += double(v[j]) * v[j];
  const float lr = float(0.5 / vv);

  float *d_U = toDevice(U), *d_V = toDevice(U), *d_F = toDevice(F), *d_rs;
  float *d_A = toDevice(A), *d_v = toDevice(v), *d_coef, *d_my;
  CHECK(cudaMalloc(&d_rs, rows * sizeof(float)));
  CHECK(cudaMalloc(&d_coef, frows * sizeof(float)));
  CHECK(cudaMalloc(&d_my, frows * sizeof(float)));
  CHECK(cudaDeviceSynchronize());

  GpuTimer t;
  t.start();
  line_jacobi<<<blocksFor(rows, 256), 256>>>(d_U, d_V, d_F, d_rs, rows, cols, K);
  CHECK_LAUNCH();
  row_fit_gd<<<frows / 64, 64>>>(d_A, d_v, d_coef, fcols, lr);
  CHECK_LAUNCH();
  markov_step<<<blocksFor(frows, 512), 512>>>(d_A, d_v, d_my, int(frows), int(fcols));
  CHECK_LAUNCH();
  float ms = t.stop();
  std::vector<float> gG = fromDevice((K % 2 == 0) ? d_U : d_V, ng);
  std::vector<float> grs = fromDevice(d_rs, rows), gcoef = fromDevice(d_coef, frows), gmy = fromDevice(d_my, frows);

  // CPU: the same recurrences in double, a row at a time.
  std::vector<float> wG(ng), wrs(rows), wcoef(frows), wmy(frows);
  std::vector<double> src(cols), dst(cols);
  for (size_t r = 0; r < size_t(rows); r++) {
    for (int j = 0; j < cols; j++) src[j] = U[r * cols + j];
    double total = 0;
    for (int it = 0; it < K; it++) {
      double s = src[0] + src[cols - 1];
      dst[0] = src[0];
      dst[cols - 1] = src[cols - 1];
      for (int j = 1; j < cols - 1; j++) {
        dst[j] = 0.25 * (src[j - 1] + src[j + 1]) + 0.5 * double(F[r * cols + j]);
        s += dst[j];
      }
      total = s;
      std::swap(src, dst);
    }
    for (int j = 0; j < cols; j++) wG[r * cols + j] = float(K > 0 ? src[j] : U[r * cols + j]);
    wrs[r] = float(total);
  }
  for (size_t i = 0; i < frows; i++) {
    double a = 0;
    for (int step = 0; step < GD_STEPS; step++) {
      double g = 0;
      for (size_t j = 0; j < fcols; j++) g += (a * v[j] - double(A[i * fcols + j])) * v[j];
      a -= double(lr) * g;
    }
    wcoef[i] = float(a);
    double d = 0, sv = 0;
    for (size_t j = 0; j < fcols; j++) {
      d += A[i * fcols + j];
      sv += double(A[i * fcols + j]) * v[j];
    }
    wmy[i] = float(sv / d);
  }
  bool ok = checkFloats("line_jacobi grid", gG.data(), wG.data(), ng, 1e-3);
  ok = checkFloats("line_jacobi row sums", grs.data(), wrs.data(), rows, 1e-3) && ok;
  ok = checkFloats("row_fit_gd", gcoef.data(), wcoef.data(), frows, 1e-3) && ok;
  ok = checkFloats("markov_step", gmy.data(), wmy.data(), frows, 1e-3) && ok;

  float *fb[] = {d_U, d_V, d_F, d_rs, d_A, d_v, d_coef, d_my};
  for (float *p : fb) CHECK(cudaFree(p));
  return finish(ms, ok);
}
