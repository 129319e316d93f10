// h5_unroll_ddot: two thread-per-row walks. (1) float y = A x with
// `unsigned` row and column indices, `const float* __restrict__` parameters
// and `#pragma unroll 4` over a runtime bound, `for (unsigned j = 0; j < n;
// j += 1) acc += A[row*n + j] * x[j]` (16384 x 2048, 128 MB; blocks of 320,
// 16384 not a multiple of 320). (2) double dot product of the matching rows
// of two matrices, `s += A[i*n + j] * B[i*n + j]` with `long long` i, j, n
// (4096 x 2048 doubles, 64 MB each, 128 MB read; blocks of 96). One launch
// each. Timed: both. Checked exactly: fmaf / fma in the device's order.
#include "../common.h"

__global__ void gemv_unroll4_u(const float *__restrict__ A, const float *__restrict__ x, float *__restrict__ y,
                               unsigned m, unsigned n) {
  unsigned row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < m) {
    float acc = 0.0f;
#pragma unroll 4
    for (unsigned j = 0; j < n; j += 1) acc += A[row * n + j] * x[j];
    y[row] = acc;
  }
}

__global__ void row_ddot(const double *A, const double *B, double *out, long long m, long long n) {
  long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < m) {
    double s = 0.0;
    for (long long j = 0; j < n; ++j) s += A[i * n + j] * B[i * n + j];
    out[i] = s;
  }
}

// Doubles in [lo, lo + 1), never zero for lo > 0.
static void fillDoubles(std::vector<double> &v, uint64_t seed, double lo) {
  for (size_t i = 0; i < v.size(); ++i) v[i] = lo + double(hashAt(seed, i)) * (1.0 / 4294967296.0);
}

int main(int argc, char **argv) {
  const unsigned mf = unsigned(argInt(argc, argv, 1, 16384)), nf = unsigned(argInt(argc, argv, 2, 2048));
  const long long md = argInt(argc, argv, 3, 4096), nd = argInt(argc, argv, 4, 2048);
  std::vector<float> A(size_t(mf) * nf), x(nf);
  fillFloats(A, 5201);
  fillFloats(x, 5202);
  std::vector<double> DA(size_t(md * nd)), DB(size_t(md * nd));
  fillDoubles(DA, 5203, 0.25);
  fillDoubles(DB, 5204, 0.5);
  float *dA = toDevice(A), *dx = toDevice(x), *dy;
  double *dDA = toDevice(DA), *dDB = toDevice(DB), *dout;
  CHECK(cudaMalloc(&dy, size_t(mf) * sizeof(float)));
  CHECK(cudaMalloc(&dout, size_t(md) * sizeof(double)));
  CHECK(cudaDeviceSynchronize());

  GpuTimer t;
  t.start();
  gemv_unroll4_u<<<blocksFor(mf, 320), 320>>>(dA, dx, dy, mf, nf);
  CHECK_LAUNCH();
  row_ddot<<<blocksFor(md, 96), 96>>>(dDA, dDB, dout, md, nd);
  CHECK_LAUNCH();
  float ms = t.stop();
  std::vector<float> y = fromDevice(dy, mf);
  std::vector<double> dots = fromDevice(dout, size_t(md));

  std::vector<float> yref(mf);
  for (size_t i = 0; i < mf; i++) {
    float s = 0.0f;
    for (size_t j = 0; j < nf; j++) s = std::fmaf(A[i * nf + j], x[j], s);
    yref[i] = s;
  }
  std::vector<double> dref(static_cast<size_t>(md));
  for (long long i = 0; i < md; i++) {
    double s = 0.0;
    for (long long j = 0; j < nd; j++) s = std::fma(DA[size_t(i * nd + j)], DB[size_t(i * nd + j)], s);
    dref[size_t(i)] = s;
  }
  bool ok = checkExact("unroll4 y", y.data(), yref.data(), mf);
  ok = checkExact("row ddot", dots.data(), dref.data(), size_t(md)) && ok;
  CHECK(cudaFree(dA));
  CHECK(cudaFree(dx));
  CHECK(cudaFree(dy));
  CHECK(cudaFree(dDA));
  CHECK(cudaFree(dDB));
  CHECK(cudaFree(dout));
  return finish(ms, ok);
}
