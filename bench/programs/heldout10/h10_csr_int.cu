// h10_csr_int: scalar CSR sparse matrix-vector products over integers, a
// thread per row, blocks of 256, `int` indices: `int sum = 0; for (int j =
// rowptr[i]; j < rowptr[i+1]; j++) sum += val[j]*x[col[j]]; y[i] = sum;`.
// (1) N1 = 262144 rows and columns, 48..80 non-zeros a row (about 16.8 M,
// 67 MB of values plus 67 MB of column indices), columns uniformly random
// in [0, N1) (repeats allowed), values and x in [-1000, 1000] without 0
// (every sum stays well inside int); (2) the same kernel on a second
// matrix of N2 = 2^22 rows and columns with 1..3 non-zeros a row (about
// 8.4 M), its own x. Sizes: N1 N2 (argv). One launch each (2 launches of
// the one kernel). Timed: the 2 launches. Checked: every element of both
// results, exactly (integer, no overflow).
#include "../common.h"

__global__ void spmv_csr_int(const int *rowptr, const int *col, const int *val, const int *x, int *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int sum = 0;
    for (int j = rowptr[i]; j < rowptr[i + 1]; j++) sum += val[j] * x[col[j]];
    y[i] = sum;
  }
}

struct Csr {
  std::vector<int> rowptr, col, val;
};

static int signedNonZero(uint64_t seed, size_t i) {
  uint32_t h = hashAt(seed, i);
  int v = 1 + int((h >> 1) % 1000);
  return (h & 1) ? -v : v;
}

static Csr makeCsr(int n, int minNnz, int maxNnz, uint64_t seed) {
  Csr m;
  m.rowptr.resize(size_t(n) + 1);
  m.rowptr[0] = 0;
  for (int i = 0; i < n; i++)
    m.rowptr[i + 1] = m.rowptr[i] + minNnz + int(hashAt(seed, size_t(i)) % uint32_t(maxNnz - minNnz + 1));
  size_t nnz = size_t(m.rowptr[n]);
  m.col.resize(nnz);
  m.val.resize(nnz);
  for (size_t j = 0; j < nnz; j++) {
    m.col[j] = int(hashAt(seed + 1, j) % uint32_t(n));
    m.val[j] = signedNonZero(seed + 2, j);
  }
  return m;
}

static void cpuSpmv(const Csr &m, const std::vector<int> &x, std::vector<int> &y, int n) {
  for (int i = 0; i < n; i++) {
    int sum = 0;
    for (int j = m.rowptr[i]; j < m.rowptr[i + 1]; j++) sum += m.val[j] * x[m.col[j]];
    y[i] = sum;
  }
}

int main(int argc, char **argv) {
  const int N1 = argInt(argc, argv, 1, 262144), N2 = argInt(argc, argv, 2, 1 << 22);
  Csr A = makeCsr(N1, 48, 80, 10701), B = makeCsr(N2, 1, 3, 10711);
  std::vector<int> x1(N1), x2(N2);
  for (int i = 0; i < N1; i++) x1[i] = signedNonZero(10721, i);
  for (int i = 0; i < N2; i++) x2[i] = signedNonZero(10722, i);

  int *d_rpA = toDevice(A.rowptr), *d_colA = toDevice(A.col), *d_valA = toDevice(A.val), *d_x1 = toDevice(x1);
  int *d_rpB = toDevice(B.rowptr), *d_colB = toDevice(B.col), *d_valB = toDevice(B.val), *d_x2 = toDevice(x2);
  int *d_y1, *d_y2;
  CHECK(cudaMalloc(&d_y1, N1 * sizeof(int)));
  CHECK(cudaMalloc(&d_y2, N2 * sizeof(int)));
  CHECK(cudaDeviceSynchronize());

  GpuTimer t;
  t.start();
  spmv_csr_int<<<blocksFor(N1, 256), 256>>>(d_rpA, d_colA, d_valA, d_x1, d_y1, N1);
  CHECK_LAUNCH();
  spmv_csr_int<<<blocksFor(N2, 256), 256>>>(d_rpB, d_colB, d_valB, d_x2, d_y2, N2);
  CHECK_LAUNCH();
  float ms = t.stop();
  std::vector<int> g1 = fromDevice(d_y1, N1), g2 = fromDevice(d_y2, N2);

  std::vector<int> r1(N1), r2(N2);
  cpuSpmv(A, x1, r1, N1);
  cpuSpmv(B, x2, r2, N2);
  bool ok = checkExact("csr 48..80 a row", g1.data(), r1.data(), N1);
  ok = checkExact("csr 1..3 a row", g2.data(), r2.data(), N2) && ok;
  for (int *p : {d_rpA, d_colA, d_valA, d_x1, d_rpB, d_colB, d_valB, d_x2, d_y1, d_y2}) CHECK(cudaFree(p));
  return finish(ms, ok);
}
