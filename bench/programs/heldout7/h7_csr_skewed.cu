// h7_csr_skewed: scalar CSR SpMV, one thread per row, n = 300000 rows whose
// lengths are skewed: 85% of the rows hold 0-15 non-zeros (some empty),
// 15% hold 100-300 (~10.9M nnz in all; values + columns 87 MB a kernel),
// columns scattered over [0, n). (1) int values and vector, blocks of 256,
// `int` indices, `sum += val[k] * x[col[k]]`; (2) float values and vector,
// blocks of 128, `unsigned` row and `long long` k, `__restrict__`, the same
// loop. Separate value arrays, shared row pointers and columns. One launch
// each. Timed: both. Checked: (1) exactly (integer), (2) exactly (fmaf in
// order).
#include "../common.h"

__global__ void csr_int(int n, const int *rowptr, const int *col, const int *val, const int *x, int *y) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < n) {
    int sum = 0;
    for (int k = rowptr[row]; k < rowptr[row + 1]; k++) sum += val[k] * x[col[k]];
    y[row] = sum;
  }
}

__global__ void csr_float(unsigned n, const int *__restrict__ rowptr, const int *__restrict__ col,
                          const float *__restrict__ val, const float *__restrict__ x, float *__restrict__ y) {
  unsigned row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= n) return;
  long long begin = rowptr[row], end = rowptr[row + 1];
  float sum = 0.0f;
  for (long long k = begin; k < end; ++k) sum += val[k] * x[col[k]];
  y[row] = sum;
}

int main(int argc, char **argv) {
  const int n = argInt(argc, argv, 1, 300000);
  std::vector<int> rowptr(n + 1);
  rowptr[0] = 0;
  for (int i = 0; i < n; i++) {
    uint32_t h = hashAt(7801, i);
    int len = (h % 100u < 85u) ? int((h >> 8) % 16u) : 100 + int((h >> 8) % 201u);
    rowptr[i + 1] = rowptr[i] + len;
  }
  const int nnz = rowptr[n];
  std::vector<int> col(nnz), ival(nnz), ix(n);
  std::vector<float> fval(nnz), fx(n);
  for (int k = 0; k < nnz; k++) {
    col[k] = int(hashAt(7802, k) % uint32_t(n));
    int v = int(hashAt(7803, k) % 18u) - 9;
    ival[k] = v >= 0 ? v + 1 : v;
  }
  for (int i = 0; i < n; i++) ix[i] = 1 + int(hashAt(7804, i) % 100u);
  fillFloats(fval, 7805);
  fillFloats(fx, 7806);

  int *d_rowptr = toDevice(rowptr), *d_col = toDevice(col), *d_ival = toDevice(ival), *d_ix = toDevice(ix);
  float *d_fval = toDevice(fval), *d_fx = toDevice(fx), *d_fy;
  int *d_iy;
  CHECK(cudaMalloc(&d_iy, n * sizeof(int)));
  CHECK(cudaMalloc(&d_fy, n * sizeof(float)));
  CHECK(cudaDeviceSynchronize());

  GpuTimer t;
  t.start();
  csr_int<<<(n + 255) / 256, 256>>>(n, d_rowptr, d_col, d_ival, d_ix, d_iy);
  CHECK_LAUNCH();
  csr_float<<<blocksFor(n, 128), 128>>>(unsigned(n), d_rowptr, d_col, d_fval, d_fx, d_fy);
  CHECK_LAUNCH();
  float ms = t.stop();
  std::vector<int> iy = fromDevice(d_iy, n);
  std::vector<float> fy = fromDevice(d_fy, n);

  std::vector<int> iref(n);
  std::vector<float> fref(n);
  for (int i = 0; i < n; i++) {
    int is = 0;
    float fs = 0.0f;
    for (int k = rowptr[i]; k < rowptr[i + 1]; k++) {
      is += ival[k] * ix[col[k]];
      fs = std::fmaf(fval[k], fx[col[k]], fs);
    }
    iref[i] = is;
    fref[i] = fs;
  }
  bool ok = checkExact("csr int", iy.data(), iref.data(), n);
  ok = checkExact("csr float", fy.data(), fref.data(), n) && ok;
  CHECK(cudaFree(d_rowptr));
  CHECK(cudaFree(d_col));
  CHECK(cudaFree(d_ival));
  CHECK(cudaFree(d_ix));
  CHECK(cudaFree(d_iy));
  CHECK(cudaFree(d_fval));
  CHECK(cudaFree(d_fx));
  CHECK(cudaFree(d_fy));
  return finish(ms, ok);
}
