// h8_symm_trmv_fold: triangular row walks on one n x n float matrix (n =
// 5800, 135 MB), thread per row, on two created streams. Stream 1: (1) a
// symmetric matrix-vector product with the lower triangle stored (PolyBench
// symm with one column): `for (k = 0; k <= i; k++) s += A[i*n + k] * x[k]`
// (row walk) then `for (k = i + 1; k < n; k++) s += A[k*n + i] * x[k]`
// (column walk), `y[i] = beta * y[i] + alpha * s` (y read and written in
// place), `size_t` indices, blocks of 128. Stream 2, at the same time: (2)
// an upper-triangular product with a unit diagonal (PolyBench trmm's
// shape), `for (unsigned k = i; k < n; k++) { if (k == i) s += x[k]; else s
// += A[i*n + k] * x[k]; }` (the guard inside the loop), `unsigned`
// indices, `__restrict__`, `z[i] = alpha * s`, blocks of 64. Stream 1 then
// waits on an event recorded after (2) and runs (3) an in-place fold of the
// upper triangle into the lower one: `for (int j = 0; j < i; j++) A[i*n + j]
// = A[i*n + j] * s + A[j*n + i]` (reads its own element and the mirrored
// upper element, which no thread writes), `int` indices, blocks of 256.
// Timed: the three launches (stream 1 synchronized before the stop event).
// Checked: y, z and the whole matrix after (3), exactly (as in the PTX: (1)
// fmaf in order, then fma(alpha, s, beta*y); (2) a multiply and an add per
// step, no fma; (3) fma(A[i*n + j], s, A[j*n + i])).
#include "../common.h"

__global__ void symv_lower(const float *A, const float *x, float *y, size_t n, float alpha, float beta) {
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (i < n) {
    float s = 0.0f;
    for (size_t k = 0; k <= i; k++) s += A[i * n + k] * x[k];
    for (size_t k = i + 1; k < n; k++) s += A[k * n + i] * x[k];
    y[i] = beta * y[i] + alpha * s;
  }
}

__global__ void trmv_upper_unit(const float *__restrict__ A, const float *__restrict__ x, float *__restrict__ z,
                                unsigned n, float alpha) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float s = 0.0f;
    for (unsigned k = i; k < n; k++) {
      if (k == i)
        s += x[k];
      else
        s += A[i * n + k] * x[k];
    }
    z[i] = alpha * s;
  }
}

__global__ void fold_upper_into_lower(float *A, int n, float s) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    for (int j = 0; j < i; j++) A[i * n + j] = A[i * n + j] * s + A[j * n + i];
}

int main(int argc, char **argv) {
  const int n = argInt(argc, argv, 1, 5800);
  const float alpha = 1.25f, beta = 0.5f, fs = 0.75f;
  const size_t nn = size_t(n) * n;
  std::vector<float> A(nn), x(n), y(n);
  fillFloats(A, 9201);
  fillFloats(x, 9202);
  fillFloats(y, 9203);
  float *d_A = toDevice(A), *d_x = toDevice(x), *d_y = toDevice(y), *d_z;
  CHECK(cudaMalloc(&d_z, size_t(n) * sizeof(float)));
  cudaStream_t s1, s2;
  CHECK(cudaStreamCreate(&s1));
  CHECK(cudaStreamCreate(&s2));
  cudaEvent_t done2;
  CHECK(cudaEventCreateWithFlags(&done2, cudaEventDisableTiming));
  CHECK(cudaDeviceSynchronize());

  GpuTimer t;
  t.start();
  symv_lower<<<blocksFor(n, 128), 128, 0, s1>>>(d_A, d_x, d_y, size_t(n), alpha, beta);
  CHECK_LAUNCH();
  trmv_upper_unit<<<blocksFor(n, 64), 64, 0, s2>>>(d_A, d_x, d_z, unsigned(n), alpha);
  CHECK_LAUNCH();
  CHECK(cudaEventRecord(done2, s2));
  CHECK(cudaStreamWaitEvent(s1, done2, 0));
  fold_upper_into_lower<<<blocksFor(n, 256), 256, 0, s1>>>(d_A, n, fs);
  CHECK_LAUNCH();
  CHECK(cudaStreamSynchronize(s1));
  float ms = t.stop();
  std::vector<float> gy = fromDevice(d_y, n), gz = fromDevice(d_z, n), gA = fromDevice(d_A, nn);

  std::vector<float> ry(n), rz(n);
  for (size_t i = 0; i < size_t(n); i++) {
    float s = 0.0f;
    for (size_t k = 0; k <= i; k++) s = std::fmaf(A[i * n + k], x[k], s);
    for (size_t k = i + 1; k < size_t(n); k++) s = std::fmaf(A[k * n + i], x[k], s);
    ry[i] = std::fmaf(alpha, s, beta * y[i]);  // the PTX: fma(s, alpha, y*beta)
    float u = 0.0f;
    // The PTX selects x[k] or A*x[k] (a multiply), then adds: no fma.
    for (size_t k = i; k < size_t(n); k++) {
      float term = k == i ? x[k] : A[i * n + k] * x[k];
      u = u + term;
    }
    rz[i] = alpha * u;
  }
  for (size_t i = 0; i < size_t(n); i++)
    for (size_t j = 0; j < i; j++) A[i * n + j] = std::fmaf(A[i * n + j], fs, A[j * n + i]);
  bool ok = checkExact("symv y", gy.data(), ry.data(), n);
  ok = checkExact("trmv z", gz.data(), rz.data(), n) && ok;
  ok = checkExact("folded A", gA.data(), A.data(), nn) && ok;
  CHECK(cudaEventDestroy(done2));
  CHECK(cudaStreamDestroy(s1));
  CHECK(cudaStreamDestroy(s2));
  CHECK(cudaFree(d_A));
  CHECK(cudaFree(d_x));
  CHECK(cudaFree(d_y));
  CHECK(cudaFree(d_z));
  return finish(ms, ok);
}
