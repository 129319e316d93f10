// h5_csr_double_ll: scalar CSR SpMV in double with `long long` row pointers,
// one thread per row, `for (long long k = rowptr[row]; k < rowptr[row+1];
// ++k) sum += val[k] * x[col[k]]`. 262144 rows of 32-200 non-zeros (about
// 30M: 243 MB of values, 122 MB of int columns), columns in a band of ~400
// around the diagonal (every second column, sorted). Two chained launches
// (blocks of 128): y = A x, then z = A y. Timed: both. Checked exactly
// against a CPU loop with fma in the device's order (`fma.rn.f64`).
#include <algorithm>

#include "../common.h"

__global__ void spmv_csr_f64(const long long *rowptr, const int *col, const double *val, const double *x,
                             double *y, int nrows) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < nrows) {
    double sum = 0.0;
    for (long long k = rowptr[row]; k < rowptr[row + 1]; ++k) sum += val[k] * x[col[k]];
    y[row] = sum;
  }
}

int main(int argc, char **argv) {
  int n = argInt(argc, argv, 1, 262144);
  if (n < 512) n = 512;
  std::vector<long long> rowptr(size_t(n) + 1);
  rowptr[0] = 0;
  for (int i = 0; i < n; i++) rowptr[i + 1] = rowptr[i] + 32 + (long long)(hashAt(5701, i) % 169u);
  const size_t nnz = size_t(rowptr[n]);
  std::vector<int> col(nnz);
  std::vector<double> val(nnz), x(n);
  for (int i = 0; i < n; i++) {
    const int start = std::max(0, std::min(i - 200, n - 402));
    for (long long k = rowptr[i], j = 0; k < rowptr[i + 1]; k++, j++)
      col[size_t(k)] = start + 2 * int(j) + int(hashAt(5702, size_t(k)) & 1u);
  }
  for (size_t k = 0; k < nnz; k++) val[k] = 0.25 + double(hashAt(5703, k)) * (1.0 / 4294967296.0);
  for (int i = 0; i < n; i++) x[i] = 0.5 + double(hashAt(5704, i)) * (1.0 / 4294967296.0);
  long long *drp = toDevice(rowptr);
  int *dcol = toDevice(col);
  double *dval = toDevice(val), *dx = toDevice(x), *dy, *dz;
  CHECK(cudaMalloc(&dy, size_t(n) * sizeof(double)));
  CHECK(cudaMalloc(&dz, size_t(n) * sizeof(double)));
  CHECK(cudaDeviceSynchronize());

  GpuTimer t;
  t.start();
  spmv_csr_f64<<<blocksFor(n, 128), 128>>>(drp, dcol, dval, dx, dy, n);
  CHECK_LAUNCH();
  spmv_csr_f64<<<blocksFor(n, 128), 128>>>(drp, dcol, dval, dy, dz, n);
  CHECK_LAUNCH();
  float ms = t.stop();
  std::vector<double> y = fromDevice(dy, n), z = fromDevice(dz, n);

  std::vector<double> yref(n), zref(n);
  for (int pass = 0; pass < 2; pass++) {
    const std::vector<double> &in = pass ? yref : x;
    std::vector<double> &out = pass ? zref : yref;
    for (int i = 0; i < n; i++) {
      double s = 0.0;
      for (long long k = rowptr[i]; k < rowptr[i + 1]; k++) s = std::fma(val[size_t(k)], in[col[size_t(k)]], s);
      out[i] = s;
    }
  }
  bool ok = checkExact("y = A x", y.data(), yref.data(), n);
  ok = checkExact("z = A y", z.data(), zref.data(), n) && ok;
  CHECK(cudaFree(drp));
  CHECK(cudaFree(dcol));
  CHECK(cudaFree(dval));
  CHECK(cudaFree(dx));
  CHECK(cudaFree(dy));
  CHECK(cudaFree(dz));
  return finish(ms, ok);
}
