// h7_gesummv_skipzero: (1) PolyBench-style gesummv, float, N = 4200 CT
// (two 71 MB matrices), `DIM_THREAD_BLOCK_X 256`, `int` indices, tmp and y
// accumulated in global memory (cudaMemset to 0 first): `tmp[i] += A[i*N +
// j] * x[j]; y[i] += B[i*N + j] * x[j];` then `y[i] = ALPHA * tmp[i] +
// BETA * y[i]`; (2) a row walk that skips zeros, rows x cols = 5000 x 4000
// float (80 MB; about 40% of the entries are 0 on purpose), blocks of 128,
// `size_t` indices, `__restrict__`, `if (a != 0.0f) s += a * x[j]`. Timed:
// the two memsets and both launches. Checked: exactly (fmaf in the device's
// order; (1)'s last line is fma(ALPHA, tmp, BETA*y) in the PTX).
#include "../common.h"

#define N 4200
#define DIM_THREAD_BLOCK_X 256
#define ALPHA 43532.0f
#define BETA 12313.0f

__global__ void gesummv_kernel(float *a, float *b, float *x, float *y, float *tmp) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N) {
    int j;
    for (j = 0; j < N; j++) {
      tmp[i] += a[i * N + j] * x[j];
      y[i] += b[i * N + j] * x[j];
    }
    y[i] = ALPHA * tmp[i] + BETA * y[i];
  }
}

__global__ void skip_zero_rows(const float *__restrict__ a, const float *__restrict__ x, float *__restrict__ out,
                               size_t rows, size_t cols) {
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (i < rows) {
    float s = 0.0f;
    for (size_t j = 0; j < cols; j++) {
      float v = a[i * cols + j];
      if (v != 0.0f) s += v * x[j];
    }
    out[i] = s;
  }
}

int main(int argc, char **argv) {
  const size_t rows = size_t(argInt(argc, argv, 1, 5000)), cols = size_t(argInt(argc, argv, 2, 4000));
  const size_t nn = size_t(N) * N, ns = rows * cols;

  std::vector<float> A(nn), B(nn), x(N), S(ns), sx(cols);
  fillFloats(A, 7601);
  fillFloats(B, 7602);
  fillFloats(x, 7603);
  fillFloats(S, 7604);
  for (size_t i = 0; i < ns; i++)
    if (hashAt(7605, i) % 5u < 2u) S[i] = 0.0f;
  fillFloats(sx, 7606);

  float *d_A = toDevice(A), *d_B = toDevice(B), *d_x = toDevice(x), *d_y, *d_tmp;
  float *d_S = toDevice(S), *d_sx = toDevice(sx), *d_out;
  CHECK(cudaMalloc(&d_y, N * sizeof(float)));
  CHECK(cudaMalloc(&d_tmp, N * sizeof(float)));
  CHECK(cudaMalloc(&d_out, rows * sizeof(float)));
  CHECK(cudaDeviceSynchronize());

  dim3 block(DIM_THREAD_BLOCK_X, 1);
  dim3 grid((unsigned int)ceil(((float)N) / ((float)block.x)), 1);
  GpuTimer t;
  t.start();
  CHECK(cudaMemset(d_y, 0, N * sizeof(float)));
  CHECK(cudaMemset(d_tmp, 0, N * sizeof(float)));
  gesummv_kernel<<<grid, block>>>(d_A, d_B, d_x, d_y, d_tmp);
  CHECK_LAUNCH();
  skip_zero_rows<<<blocksFor(long(rows), 128), 128>>>(d_S, d_sx, d_out, rows, cols);
  CHECK_LAUNCH();
  float ms = t.stop();
  std::vector<float> y = fromDevice(d_y, N), tmp = fromDevice(d_tmp, N), out = fromDevice(d_out, rows);

  std::vector<float> yref(N), tref(N), oref(rows);
  for (size_t i = 0; i < N; i++) {
    float ti = 0.0f, yi = 0.0f;
    for (size_t j = 0; j < N; j++) {
      ti = std::fmaf(A[i * N + j], x[j], ti);
      yi = std::fmaf(B[i * N + j], x[j], yi);
    }
    tref[i] = ti;
    yref[i] = std::fmaf(ALPHA, ti, BETA * yi);
  }
  for (size_t i = 0; i < rows; i++) {
    float s = 0.0f;
    for (size_t j = 0; j < cols; j++)
      if (S[i * cols + j] != 0.0f) s = std::fmaf(S[i * cols + j], sx[j], s);
    oref[i] = s;
  }
  bool ok = checkExact("gesummv tmp", tmp.data(), tref.data(), N);
  ok = checkExact("gesummv y", y.data(), yref.data(), N) && ok;
  ok = checkExact("skip-zero rows", out.data(), oref.data(), rows) && ok;
  CHECK(cudaFree(d_A));
  CHECK(cudaFree(d_B));
  CHECK(cudaFree(d_x));
  CHECK(cudaFree(d_y));
  CHECK(cudaFree(d_tmp));
  CHECK(cudaFree(d_S));
  CHECK(cudaFree(d_sx));
  CHECK(cudaFree(d_out));
  return finish(ms, ok);
}
