// h11_csr_banded: scalar CSR SpMV, a thread per row, over a banded matrix:
// n x n with n = 262144, row i holding 64..200 non-zeros (132 on average,
// ~34.6 M in all) in consecutive columns around i (`base = clamp(i - len/2,
// 0, n - len)`, columns base .. base+len-1), so each row's x reads are near
// the row. (1) float, no special flags, `int` indices: `for (int j =
// rowptr[i]; j < rowptr[i+1]; j++) sum += val[j]*x[col[j]]` (val, col 138 MB
// each); (2) the same over int values (+-1..100) and int x (+-1..100),
// `unsigned` indices (ival 138 MB); (3) "CSR with a row-lengths array":
// `start = rowptr[i]; len = rowlen[i]; for (k = 0; k < len; k++) s +=
// val[start + k]*x2[col[start + k]]`, float, `int` indices. 256-, 128- and
// 256-thread blocks. Sizes: n (argv). Each kernel launched once. Timed: the 3
// launches. Checked: (1), (3) against double CPU sums, relative tolerance
// 1e-3 (fma contraction; positive values); (2) exact.
#include "../common.h"

__global__ void spmv_csr_float(const int *rowptr, const int *col, const float *val, const float *x, float *y,
                               int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float sum = 0.0f;
    for (int j = rowptr[i]; j < rowptr[i + 1]; j++) sum += val[j] * x[col[j]];
    y[i] = sum;
  }
}

__global__ void spmv_csr_int(const unsigned *rowptr, const unsigned *col, const int *val, const int *x, int *y,
                             unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int sum = 0;
    unsigned start = rowptr[i], end = rowptr[i + 1];
    for (unsigned j = start; j < end; j++) sum += val[j] * x[col[j]];
    y[i] = sum;
  }
}

__global__ void spmv_csr_rowlen(const int *rowptr, const int *rowlen, const int *col, const float *val,
                                const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int start = rowptr[i];
    int len = rowlen[i];
    float s = 0.0f;
    for (int k = 0; k < len; k++) s += val[start + k] * x[col[start + k]];
    y[i] = s;
  }
}

static int signedSmall(uint64_t seed, size_t k) {
  uint32_t u = hashAt(seed, k);
  int v = 1 + int(u % 100);
  return (u >> 16) & 1 ? -v : v;
}

int main(int argc, char **argv) {
  int n = argInt(argc, argv, 1, 262144);
  if (n < 200) n = 200;
  std::vector<int> rowptr(n + 1), rowlen(n);
  rowptr[0] = 0;
  for (int i = 0; i < n; i++) {
    rowlen[i] = 64 + int(hashAt(11501, i) % 137);
    rowptr[i + 1] = rowptr[i] + rowlen[i];
  }
  const size_t nnz = size_t(rowptr[n]);
  std::vector<int> col(nnz), ival(nnz), ix(n);
  std::vector<float> val(nnz), x(n), x2(n);
  fillFloats(val, 11502);
  fillFloats(x, 11503);
  fillFloats(x2, 11504);
  for (int i = 0; i < n; i++) {
    int len = rowlen[i];
    int base = std::min(std::max(i - len / 2, 0), n - len);
    for (int k = 0; k < len; k++) col[rowptr[i] + k] = base + k;
    ix[i] = signedSmall(11505, i);
  }
  for (size_t k = 0; k < nnz; k++) ival[k] = signedSmall(11506, k);

  int *d_rowptr = toDevice(rowptr), *d_rowlen = toDevice(rowlen), *d_col = toDevice(col), *d_ival = toDevice(ival),
      *d_ix = toDevice(ix), *d_iy;
  float *d_val = toDevice(val), *d_x = toDevice(x), *d_x2 = toDevice(x2), *d_y, *d_y2;
  CHECK(cudaMalloc(&d_y, n * sizeof(float)));
  CHECK(cudaMalloc(&d_y2, n * sizeof(float)));
  CHECK(cudaMalloc(&d_iy, n * sizeof(int)));
  CHECK(cudaDeviceSynchronize());

  GpuTimer t;
  t.start();
  spmv_csr_float<<<blocksFor(n, 256), 256>>>(d_rowptr, d_col, d_val, d_x, d_y, n);
  CHECK_LAUNCH();
  spmv_csr_int<<<blocksFor(n, 128), 128>>>((const unsigned *)d_rowptr, (const unsigned *)d_col, d_ival, d_ix, d_iy,
                                           unsigned(n));
  CHECK_LAUNCH();
  spmv_csr_rowlen<<<blocksFor(n, 256), 256>>>(d_rowptr, d_rowlen, d_col, d_val, d_x2, d_y2, n);
  CHECK_LAUNCH();
  float ms = t.stop();
  std::vector<float> gy = fromDevice(d_y, n), gy2 = fromDevice(d_y2, n);
  std::vector<int> giy = fromDevice(d_iy, n);

  std::vector<float> wy(n), wy2(n);
  std::vector<int> wiy(n);
  for (int i = 0; i < n; i++) {
    double s = 0, s2 = 0;
    int si = 0;
    for (int j = rowptr[i]; j < rowptr[i + 1]; j++) {
      s += double(val[j]) * x[col[j]];
      s2 += double(val[j]) * x2[col[j]];
      si += ival[j] * ix[col[j]];
    }
    wy[i] = float(s);
    wy2[i] = float(s2);
    wiy[i] = si;
  }
  bool ok = checkFloats("spmv_csr_float", gy.data(), wy.data(), n, 1e-3);
  ok = checkExact("spmv_csr_int", giy.data(), wiy.data(), n) && ok;
  ok = checkFloats("spmv_csr_rowlen", gy2.data(), wy2.data(), n, 1e-3) && ok;

  int *ib[] = {d_rowptr, d_rowlen, d_col, d_ival, d_ix, d_iy};
  for (int *b : ib) CHECK(cudaFree(b));
  float *fb[] = {d_val, d_x, d_x2, d_y, d_y2};
  for (float *b : fb) CHECK(cudaFree(b));
  return finish(ms, ok);
}
