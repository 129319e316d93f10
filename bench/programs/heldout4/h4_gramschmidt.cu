// h4_gramschmidt: the first K steps of PolyBench-GPU gramschmidt (modified
// Gram-Schmidt QR) on an m x n float matrix A (m = 8192 rows, n = 2048
// columns: A and Q 64 MB each), three kernels launched per step k: (1)
// gramschmidt_kernel1, the column norm, one thread per column j >= k (blocks
// of 256) walking the rows, `nrm += A[i*n + j] * A[i*n + j]`, `colnrm[j] =
// sqrt(nrm)`, and `R[k*n + k] = colnrm[k]` from thread k; (2)
// gramschmidt_kernel2, one thread per row i (blocks of 128, `size_t` index),
// `Q[i*n + k] = A[i*n + k] / R[k*n + k]` (a column: stride n across threads);
// (3) gramschmidt_kernel3, one thread per column j > k (blocks of 256)
// walking the rows twice, `R[k*n + j] += Q[i*n + k] * A[i*n + j]` in global
// memory, then `A[i*n + j] = A[i*n + j] - Q[i*n + k] * R[k*n + j]`. K = 4
// (each kernel launched 4 times). Timed: the 12 launches. Checked exactly
// (fmaf where the PTX has fma.rn, A - Q*R as fmaf(-Q, R, A); IEEE sqrt and
// division).
#include "../common.h"

#include <algorithm>

typedef float DATA_TYPE;

__global__ void gramschmidt_kernel1(DATA_TYPE *a, DATA_TYPE *r, DATA_TYPE *colnrm, int k, int m, int n) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;

  if (j >= k && j < n) {
    DATA_TYPE nrm = 0.0;
    int i;
    for (i = 0; i < m; i++) {
      nrm += a[i * n + j] * a[i * n + j];
    }
    colnrm[j] = sqrt(nrm);
    if (j == k) r[k * n + k] = colnrm[j];
  }
}

__global__ void gramschmidt_kernel2(DATA_TYPE *a, DATA_TYPE *r, DATA_TYPE *q, int k, int m, int n) {
  size_t i = blockIdx.x * blockDim.x + threadIdx.x;

  if (i < (size_t)m) {
    q[i * n + k] = a[i * n + k] / r[k * n + k];
  }
}

__global__ void gramschmidt_kernel3(DATA_TYPE *a, DATA_TYPE *r, DATA_TYPE *q, int k, int m, int n) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;

  if ((j > k) && (j < n)) {
    r[k * n + j] = 0.0;

    int i;
    for (i = 0; i < m; i++) {
      r[k * n + j] += q[i * n + k] * a[i * n + j];
    }

    for (i = 0; i < m; i++) {
      a[i * n + j] -= q[i * n + k] * r[k * n + j];
    }
  }
}

int main(int argc, char **argv) {
  const int m = argInt(argc, argv, 1, 8192), n = argInt(argc, argv, 2, 2048), K = argInt(argc, argv, 3, 4);
  const size_t mn = size_t(m) * n, nn = size_t(n) * n;
  std::vector<float> A(mn), Q(mn, 0.0f), R(nn, 0.0f), N(n, 0.0f);
  fillFloats(A, 4501);
  float *dA = toDevice(A), *dQ = toDevice(Q), *dR = toDevice(R), *dN = toDevice(N);
  CHECK(cudaDeviceSynchronize());
  GpuTimer t;
  t.start();
  for (int k = 0; k < K; k++) {
    gramschmidt_kernel1<<<blocksFor(n, 256), 256>>>(dA, dR, dN, k, m, n);
    CHECK_LAUNCH();
    gramschmidt_kernel2<<<blocksFor(m, 128), 128>>>(dA, dR, dQ, k, m, n);
    CHECK_LAUNCH();
    gramschmidt_kernel3<<<blocksFor(n, 256), 256>>>(dA, dR, dQ, k, m, n);
    CHECK_LAUNCH();
  }
  float ms = t.stop();
  std::vector<float> gA = fromDevice(dA, mn), gQ = fromDevice(dQ, mn), gR = fromDevice(dR, nn), gN = fromDevice(dN, n);

  // Row-major loops; each column still accumulates in the row order.
  std::vector<float> acc(n);
  for (size_t k = 0; k < size_t(K); k++) {
    std::fill(acc.begin(), acc.end(), 0.0f);
    for (size_t i = 0; i < size_t(m); i++)
      for (size_t j = k; j < size_t(n); j++) acc[j] = std::fmaf(A[i * n + j], A[i * n + j], acc[j]);
    for (size_t j = k; j < size_t(n); j++) N[j] = std::sqrt(acc[j]);
    R[k * n + k] = N[k];
    const float rkk = R[k * n + k];
    for (size_t i = 0; i < size_t(m); i++) Q[i * n + k] = A[i * n + k] / rkk;
    std::fill(acc.begin(), acc.end(), 0.0f);
    for (size_t i = 0; i < size_t(m); i++) {
      const float qk = Q[i * n + k];
      for (size_t j = k + 1; j < size_t(n); j++) acc[j] = std::fmaf(qk, A[i * n + j], acc[j]);
    }
    for (size_t j = k + 1; j < size_t(n); j++) R[k * n + j] = acc[j];
    for (size_t i = 0; i < size_t(m); i++) {
      const float qk = Q[i * n + k];
      for (size_t j = k + 1; j < size_t(n); j++) A[i * n + j] = std::fmaf(-qk, acc[j], A[i * n + j]);
    }
  }
  bool ok = checkExact("gramschmidt A", gA.data(), A.data(), mn);
  ok = checkExact("gramschmidt Q", gQ.data(), Q.data(), mn) && ok;
  ok = checkExact("gramschmidt R", gR.data(), R.data(), nn) && ok;
  ok = checkExact("gramschmidt colnrm", gN.data(), N.data(), size_t(n)) && ok;
  CHECK(cudaFree(dA));
  CHECK(cudaFree(dQ));
  CHECK(cudaFree(dR));
  CHECK(cudaFree(dN));
  return finish(ms, ok);
}
