// h5_csr_short_int: scalar CSR over a graph-like adjacency with very short
// rows: 2^23 rows of 1-4 non-zeros (about 21M in all) whose columns are
// scattered over the whole range (not sorted, repeats allowed). (1) int
// SpMV, `for (int k = rowptr[i]; k < rowptr[i+1]; ++k) sum += val[k] *
// x[col[k]]` (blocks of 256; rowptr 34 MB, col and val 84 MB each, x 34 MB);
// (2) an unweighted neighbour sum of 32-bit labels with `unsigned` indices,
// `for (unsigned e = rowptr[v]; e < rowptr[v+1]; ++e) s += label[adj[e]]`
// (wrapping sums; blocks of 512; the same row pointers and columns). One
// launch each. Timed: both. Checked exactly.
#include "../common.h"

__global__ void spmv_csr_int(const int *rowptr, const int *col, const int *val, const int *x, int *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int sum = 0;
    for (int k = rowptr[i]; k < rowptr[i + 1]; ++k) sum += val[k] * x[col[k]];
    y[i] = sum;
  }
}

__global__ void neighbor_label_sum(const unsigned *rowptr, const unsigned *adj, const unsigned *label,
                                   unsigned *out, unsigned nv) {
  unsigned v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v < nv) {
    unsigned s = 0;
    for (unsigned e = rowptr[v]; e < rowptr[v + 1]; ++e) s += label[adj[e]];
    out[v] = s;
  }
}

// In [-100, 100], never zero.
static int smallInt(uint64_t seed, size_t i) {
  int v = int(hashAt(seed, i) % 201u) - 100;
  return v ? v : 1;
}

int main(int argc, char **argv) {
  const int n = argInt(argc, argv, 1, 1 << 23);
  std::vector<int> rowptr(size_t(n) + 1);
  rowptr[0] = 0;
  for (int i = 0; i < n; i++) rowptr[i + 1] = rowptr[i] + 1 + int(hashAt(5601, i) % 4u);
  const size_t nnz = size_t(rowptr[n]);
  std::vector<int> col(nnz), val(nnz), x(n);
  std::vector<unsigned> label(n);
  for (size_t k = 0; k < nnz; k++) {
    col[k] = int(hashAt(5602, k) % uint32_t(n));
    val[k] = smallInt(5603, k);
  }
  for (int i = 0; i < n; i++) {
    x[i] = smallInt(5604, i);
    label[i] = hashAt(5605, i) | 1u;
  }
  int *drp = toDevice(rowptr), *dcol = toDevice(col), *dval = toDevice(val), *dx = toDevice(x), *dy;
  unsigned *dlab = toDevice(label), *dout;
  CHECK(cudaMalloc(&dy, size_t(n) * sizeof(int)));
  CHECK(cudaMalloc(&dout, size_t(n) * sizeof(unsigned)));
  CHECK(cudaDeviceSynchronize());

  GpuTimer t;
  t.start();
  spmv_csr_int<<<blocksFor(n, 256), 256>>>(drp, dcol, dval, dx, dy, n);
  CHECK_LAUNCH();
  neighbor_label_sum<<<blocksFor(n, 512), 512>>>((const unsigned *)drp, (const unsigned *)dcol, dlab, dout,
                                                 unsigned(n));
  CHECK_LAUNCH();
  float ms = t.stop();
  std::vector<int> y = fromDevice(dy, n);
  std::vector<unsigned> out = fromDevice(dout, n);

  std::vector<int> yref(n);
  std::vector<unsigned> oref(n);
  for (int i = 0; i < n; i++) {
    int s = 0;
    unsigned u = 0;
    for (int k = rowptr[i]; k < rowptr[i + 1]; k++) {
      s += val[k] * x[col[k]];
      u += label[col[k]];
    }
    yref[i] = s;
    oref[i] = u;
  }
  bool ok = checkExact("int spmv", y.data(), yref.data(), n);
  ok = checkExact("label sum", out.data(), oref.data(), n) && ok;
  CHECK(cudaFree(drp));
  CHECK(cudaFree(dcol));
  CHECK(cudaFree(dval));
  CHECK(cudaFree(dx));
  CHECK(cudaFree(dy));
  CHECK(cudaFree(dlab));
  CHECK(cudaFree(dout));
  return finish(ms, ok);
}
