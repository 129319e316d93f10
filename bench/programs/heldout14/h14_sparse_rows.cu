// h14_sparse_rows: sparse matrix-vector products, a thread per row, the
// row's extent read from memory. (1) csrmv_long, BLAS-style scalar CSR
// `y = alpha*A*x + beta*y` with `long` row pointers and a `long` loop
// index: `int` i, `for (long k = rowptr[i]; k < rowptr[i+1]; k++) s +=
// val[k]*x[col[k]]; y[i] = alpha*s + beta*y[i];`, float, 200000 rows of
// 32..160 non-zeros (~19.2 M; val 77 MB, col 77 MB), columns hashed over
// the whole range, alpha 0.5, beta 0.25, 256-thread blocks, `if (i < n)`,
// launched twice (y updated in place each time); (2) ellr_spmv_u32,
// row-major ELL with a row-length array (ELLPACK-R laid out by rows): the
// row width a `#define` (ELL_W 64), `unsigned` i and k, `const unsigned m
// = len[i]; for (k = 0; k < m; k++) s += val[i*ELL_W + k]*x[col[i*ELL_W +
// k]]`, odd `unsigned` values and x (wrapping sums, as hashes do),
// 524288 rows of 8..64 entries, the padding filled with garbage never read
// (val, col 134 MB each), 64-thread blocks, `if (i < n)`; (3)
// ell_spmv_pad<K>, row-major padded ELL whose padding columns are -1 (as
// GNN neighbour lists are padded): the width a template parameter (K =
// 48), `int` i and k, `c = col[i*K + k]; if (c < 0) break; s += val[i*K +
// k]*x[c];`, int values and x (+-1..100), 400000 rows of 4..48 entries
// (one row in 8 full, no -1), val and col 77 MB each, a grid-stride loop
// over rows on 132 blocks of 1024 threads (about 3 rows a thread). Sizes:
// n1 n2 n3 (argv; ELL_W and K are compile-time). Timed: the 4 launches.
// Checked: (1) rtol 1e-3 against a double CPU run of both launches
// (positive values); (2), (3) exact.
#include "../common.h"

#define ELL_W 64
#define PAD_K 48

__global__ void csrmv_long(const long *rowptr, const int *col, const float *val, const float *x, float *y, float alpha,
                           float beta, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float s = 0.0f;
    for (long k = rowptr[i]; k < rowptr[i + 1]; k++) s += val[k] * x[col[k]];
    y[i] = alpha * s + beta * y[i];
  }
}

__global__ void ellr_spmv_u32(const unsigned *val, const unsigned *col, const unsigned *len, const unsigned *x,
                              unsigned *y, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    unsigned s = 0;
    const unsigned m = len[i];
    for (unsigned k = 0; k < m; k++) s += val[i * ELL_W + k] * x[col[i * ELL_W + k]];
    y[i] = s;
  }
}

template <int K>
__global__ void ell_spmv_pad(const int *val, const int *col, const int *x, int *y, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    int s = 0;
    for (int k = 0; k < K; k++) {
      int c = col[i * K + k];
      if (c < 0) break;
      s += val[i * K + k] * x[c];
    }
    y[i] = s;
  }
}

int main(int argc, char **argv) {
  const int n1 = argInt(argc, argv, 1, 200000);
  const int n2 = argInt(argc, argv, 2, 524288);
  const int n3 = argInt(argc, argv, 3, 400000);
  const float alpha = 0.5f, beta = 0.25f;

  // (1) CSR, long row pointers.
  std::vector<long> rowptr(size_t(n1) + 1);
  rowptr[0] = 0;
  for (int i = 0; i < n1; i++) rowptr[i + 1] = rowptr[i] + 32 + long(hashAt(14501, i) % 129u);
  const size_t nnz1 = size_t(rowptr[n1]);
  std::vector<int> col1(nnz1);
  std::vector<float> val1(nnz1), x1(n1), y1(n1);
  for (size_t k = 0; k < nnz1; k++) col1[k] = int(hashAt(14502, k) % uint32_t(n1));
  fillFloats(val1, 14503);
  fillFloats(x1, 14504);
  fillFloats(y1, 14505);

  // (2) row-major ELL with a length array; padding garbage.
  const size_t ne2 = size_t(n2) * ELL_W;
  std::vector<unsigned> len2(n2), val2(ne2), col2(ne2), x2(n2);
  for (int i = 0; i < n2; i++) len2[i] = 8 + hashAt(14506, i) % 57u;
  for (size_t i = 0; i < size_t(n2); i++)
    for (size_t k = 0; k < ELL_W; k++) {
      size_t e = i * ELL_W + k;
      if (k < len2[i]) {
        val2[e] = hashAt(14507, e) | 1u;
        col2[e] = hashAt(14508, e) % unsigned(n2);
      } else {
        val2[e] = 0xDEADBEEFu;
        col2[e] = 0xFFFFFFFFu;
      }
    }
  for (int i = 0; i < n2; i++) x2[i] = hashAt(14509, i) | 1u;

  // (3) row-major ELL padded with -1 columns.
  const size_t ne3 = size_t(n3) * PAD_K;
  std::vector<int> val3(ne3), col3(ne3), x3(n3);
  for (size_t i = 0; i < size_t(n3); i++) {
    uint32_t h = hashAt(14510, i);
    int m = (h & 7) == 0 ? PAD_K : 4 + int((h >> 3) % (PAD_K - 4));
    for (size_t k = 0; k < PAD_K; k++) {
      size_t e = i * PAD_K + k;
      uint32_t u = hashAt(14511, e);
      int v = 1 + int(u % 100u);
      val3[e] = (u >> 20) & 1 ? -v : v;
      col3[e] = int(k) < m ? int(hashAt(14512, e) % uint32_t(n3)) : -1;
    }
  }
  for (int i = 0; i < n3; i++) {
    uint32_t u = hashAt(14513, i);
    int v = 1 + int(u % 100u);
    x3[i] = (u >> 20) & 1 ? -v : v;
  }

  long *d_rowptr = toDevice(rowptr);
  int *d_col1 = toDevice(col1);
  float *d_val1 = toDevice(val1), *d_x1 = toDevice(x1), *d_y1 = toDevice(y1);
  unsigned *d_len2 = toDevice(len2), *d_val2 = toDevice(val2), *d_col2 = toDevice(col2), *d_x2 = toDevice(x2), *d_y2;
  int *d_val3 = toDevice(val3), *d_col3 = toDevice(col3), *d_x3 = toDevice(x3), *d_y3;
  CHECK(cudaMalloc(&d_y2, n2 * sizeof(unsigned)));
  CHECK(cudaMalloc(&d_y3, n3 * sizeof(int)));
  CHECK(cudaDeviceSynchronize());

  GpuTimer t;
  t.start();
  for (int rep = 0; rep < 2; rep++) {
    csrmv_long<<<blocksFor(n1, 256), 256>>>(d_rowptr, d_col1, d_val1, d_x1, d_y1, alpha, beta, n1);
    CHECK_LAUNCH();
  }
  ellr_spmv_u32<<<blocksFor(n2, 64), 64>>>(d_val2, d_col2, d_len2, d_x2, d_y2, unsigned(n2));
  CHECK_LAUNCH();
  ell_spmv_pad<PAD_K><<<132, 1024>>>(d_val3, d_col3, d_x3, d_y3, n3);
  CHECK_LAUNCH();
  float ms = t.stop();
  std::vector<float> gy1 = fromDevice(d_y1, n1);
  std::vector<unsigned> gy2 = fromDevice(d_y2, n2);
  std::vector<int> gy3 = fromDevice(d_y3, n3);

  std::vector<float> wy1(n1);
  for (size_t i = 0; i < size_t(n1); i++) {
    double s = 0;
    for (long k = rowptr[i]; k < rowptr[i + 1]; k++) s += double(val1[k]) * x1[col1[k]];
    double y = y1[i];
    for (int rep = 0; rep < 2; rep++) y = double(alpha) * s + double(beta) * y;
    wy1[i] = float(y);
  }
  bool ok = checkFloats("csrmv_long", gy1.data(), wy1.data(), n1, 1e-3);

  std::vector<unsigned> wy2(n2);
  for (size_t i = 0; i < size_t(n2); i++) {
    unsigned s = 0;
    for (size_t k = 0; k < len2[i]; k++) s += val2[i * ELL_W + k] * x2[col2[i * ELL_W + k]];
    wy2[i] = s;
  }
  ok = checkExact("ellr_spmv_u32", gy2.data(), wy2.data(), n2) && ok;

  std::vector<int> wy3(n3);
  for (size_t i = 0; i < size_t(n3); i++) {
    int s = 0;
    for (size_t k = 0; k < PAD_K; k++) {
      int c = col3[i * PAD_K + k];
      if (c < 0) break;
      s += val3[i * PAD_K + k] * x3[c];
    }
    wy3[i] = s;
  }
  ok = checkExact("ell_spmv_pad", gy3.data(), wy3.data(), n3) && ok;

  CHECK(cudaFree(d_rowptr));
  CHECK(cudaFree(d_col1));
  CHECK(cudaFree(d_val1));
  CHECK(cudaFree(d_x1));
  CHECK(cudaFree(d_y1));
  CHECK(cudaFree(d_len2));
  CHECK(cudaFree(d_val2));
  CHECK(cudaFree(d_col2));
  CHECK(cudaFree(d_x2));
  CHECK(cudaFree(d_y2));
  CHECK(cudaFree(d_val3));
  CHECK(cudaFree(d_col3));
  CHECK(cudaFree(d_x3));
  CHECK(cudaFree(d_y3));
  return finish(ms, ok);
}
