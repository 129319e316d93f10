// h12_masked_rows: two or three matrices walked in one loop, a thread per
// row, with a guard inside the loop. (1) masked_gemv: `if (mask[i*n + j]) s
// += A[i*n + j]*x[j]`, a uint8 mask (~45% zeros) over a float matrix, `int`
// indices, rows x cols = 8192 x 4096 (A 134 MB, mask 34 MB), 128-thread
// blocks, `if (i < rows)`; (2) three_way_branch: three float matrices of the
// same shape walked together, `a = A[k]; b = B[k]; if (b > a) d += b - a;
// else d += C[k]*x[j];` (k = i*cols + j), `unsigned` indices, A as in (1), B
// and C 134 MB each, 256-thread blocks, `if (i < rows)`; (3) sparse_pair_dot:
// two int matrices, `p = P[k]; if (p != 0) { cnt++; s += (long long)p*Q[k];
// }` into a count and a 64-bit sum, `size_t` indices, prow x pcol = 4096 x
// 4096 (P ~25% zeros, values +-1..1000; Q +-1..1000; 67 MB each), 512-thread
// blocks, `if (i < rows)`. Sizes: rows cols prows pcols (argv). Each kernel
// launched once. Timed: the 3 launches. Checked: (1), (2) against double CPU
// sums, relative tolerance 1e-3 (fma contraction; every term positive); (3)
// exact.
#include "../common.h"

__global__ void masked_gemv(const unsigned char *mask, const float *A, const float *x, float *y, int rows, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < rows) {
    float s = 0.0f;
    for (int j = 0; j < n; j++)
      if (mask[i * n + j]) s += A[i * n + j] * x[j];
    y[i] = s;
  }
}

__global__ void three_way_branch(const float *A, const float *B, const float *C, const float *x, float *out,
                                 unsigned rows, unsigned cols) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < rows) {
    float d = 0.0f;
    for (unsigned j = 0; j < cols; j++) {
      unsigned k = i * cols + j;
      float a = A[k], b = B[k];
      if (b > a)
        d += b - a;
      else
        d += C[k] * x[j];
    }
    out[i] = d;
  }
}

__global__ void sparse_pair_dot(const int *P, const int *Q, int *cnt, long long *dot, size_t rows, size_t cols) {
  size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < rows) {
    int c = 0;
    long long s = 0;
    for (size_t j = 0; j < cols; j++) {
      int p = P[i * cols + j];
      if (p != 0) {
        c++;
        s += (long long)p * Q[i * cols + j];
      }
    }
    cnt[i] = c;
    dot[i] = s;
  }
}

static int signedThousand(uint64_t seed, size_t k) {
  uint32_t u = hashAt(seed, k);
  int v = 1 + int(u % 1000);
  return (u >> 16) & 1 ? -v : v;
}

int main(int argc, char **argv) {
  const int rows = argInt(argc, argv, 1, 8192), cols = argInt(argc, argv, 2, 4096);
  const size_t prows = argInt(argc, argv, 3, 4096), pcols = argInt(argc, argv, 4, 4096);
  const size_t nm = size_t(rows) * cols, np = prows * pcols;

  std::vector<unsigned char> mask(nm);
  for (size_t k = 0; k < nm; k++) mask[k] = (unsigned char)(hashAt(12701, k) % 20 < 9 ? 0 : 1 + hashAt(12702, k) % 255);
  std::vector<float> A(nm), B(nm), C(nm), x(cols);
  fillFloats(A, 12703);
  fillFloats(B, 12704);
  fillFloats(C, 12705);
  fillFloats(x, 12706);
  std::vector<int> P(np), Q(np);
  for (size_t k = 0; k < np; k++) {
    P[k] = hashAt(12707, k) % 4 == 0 ? 0 : signedThousand(12708, k);
    Q[k] = signedThousand(12709, k);
  }

  unsigned char *d_mask = toDevice(mask);
  float *d_A = toDevice(A), *d_B = toDevice(B), *d_C = toDevice(C), *d_x = toDevice(x), *d_y, *d_d;
  int *d_P = toDevice(P), *d_Q = toDevice(Q), *d_cnt;
  long long *d_dot;
  CHECK(cudaMalloc(&d_y, rows * sizeof(float)));
  CHECK(cudaMalloc(&d_d, rows * sizeof(float)));
  CHECK(cudaMalloc(&d_cnt, prows * sizeof(int)));
  CHECK(cudaMalloc(&d_dot, prows * sizeof(long long)));
  CHECK(cudaDeviceSynchronize());

  GpuTimer t;
  t.start();
  masked_gemv<<<blocksFor(rows, 128), 128>>>(d_mask, d_A, d_x, d_y, rows, cols);
  CHECK_LAUNCH();
  three_way_branch<<<blocksFor(rows, 256), 256>>>(d_A, d_B, d_C, d_x, d_d, unsigned(rows), unsigned(cols));
  CHECK_LAUNCH();
  sparse_pair_dot<<<blocksFor(long(prows), 512), 512>>>(d_P, d_Q, d_cnt, d_dot, prows, pcols);
  CHECK_LAUNCH();
  float ms = t.stop();
  std::vector<float> gy = fromDevice(d_y, rows), gd = fromDevice(d_d, rows);
  std::vector<int> gcnt = fromDevice(d_cnt, prows);
  std::vector<long long> gdot = fromDevice(d_dot, prows);

  std::vector<float> wy(rows), wd(rows);
  for (size_t i = 0; i < size_t(rows); i++) {
    double s = 0, d = 0;
    for (size_t j = 0; j < size_t(cols); j++) {
      size_t k = i * cols + j;
      if (mask[k]) s += double(A[k]) * x[j];
      if (B[k] > A[k])
        d += double(B[k]) - double(A[k]);
      else
        d += double(C[k]) * x[j];
    }
    wy[i] = float(s);
    wd[i] = float(d);
  }
  std::vector<int> wcnt(prows);
  std::vector<long long> wdot(prows);
  for (size_t i = 0; i < prows; i++) {
    int c = 0;
    long long s = 0;
    for (size_t j = 0; j < pcols; j++)
      if (P[i * pcols + j] != 0) c++, s += (long long)P[i * pcols + j] * Q[i * pcols + j];
    wcnt[i] = c;
    wdot[i] = s;
  }
  bool ok = checkFloats("masked_gemv", gy.data(), wy.data(), rows, 1e-3);
  ok = checkFloats("three_way_branch", gd.data(), wd.data(), rows, 1e-3) && ok;
  ok = checkExact("sparse_pair_dot count", gcnt.data(), wcnt.data(), prows) && ok;
  ok = checkExact("sparse_pair_dot sum", gdot.data(), wdot.data(), prows) && ok;

  CHECK(cudaFree(d_mask));
  float *fb[] = {d_A, d_B, d_C, d_x, d_y, d_d};
  for (float *p : fb) CHECK(cudaFree(p));
  CHECK(cudaFree(d_P));
  CHECK(cudaFree(d_Q));
  CHECK(cudaFree(d_cnt));
  CHECK(cudaFree(d_dot));
  return finish(ms, ok);
}
