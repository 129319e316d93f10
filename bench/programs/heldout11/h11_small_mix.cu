// h11_small_mix: four of this batch's shapes on tiny inputs (every array
// under 1 MB), each launched once, to check that nothing gets slower when
// the data fits in cache many times over. (1) BLAS-style sgemv with a
// leading dimension, `int`: `sum += A[i*lda + j]*x[j]; y[i] = alpha*sum +
// beta*y[i]`, m x n = 256 x 200 stored with lda 208 (208 KB), 64-thread
// blocks; (2) scalar CSR SpMV over int values, `unsigned`, 1024 rows of
// 64..200 banded non-zeros (~135 K: 540 KB values, 540 KB columns),
// 128-thread blocks; (3) threshold count `if (M[r*cols + j] > t) cnt++`,
// `int`, 256 x 512 float (512 KB, ~40% zeros), 64-thread blocks; (4)
// upper-triangular product `for (k = i; k < n; k++) s += U[i*n + k]*x[k]`,
// `int`, n = 384 (576 KB), 64-thread blocks. Sizes fixed. Timed: the 4
// launches. Checked: (1), (4) against double CPU sums, relative tolerance
// 1e-3 (fma contraction; positive inputs); (2), (3) exact.
#include "../common.h"

__global__ void sgemv_n_lda(int m, int n, float alpha, const float *A, int lda, const float *x, float beta,
                            float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < m) {
    float sum = 0.0f;
    for (int j = 0; j < n; j++) sum += A[i * lda + j] * x[j];
    y[i] = alpha * sum + beta * y[i];
  }
}

__global__ void spmv_csr_int(const unsigned *rowptr, const unsigned *col, const int *val, const int *x, int *y,
                             unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int sum = 0;
    for (unsigned j = rowptr[i]; j < rowptr[i + 1]; j++) sum += val[j] * x[col[j]];
    y[i] = sum;
  }
}

__global__ void count_above(const float *M, int *cnt, int rows, int cols, float t) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < rows) {
    int c = 0;
    for (int j = 0; j < cols; j++)
      if (M[r * cols + j] > t) c++;
    cnt[r] = c;
  }
}

__global__ void trmv_upper(const float *U, const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float s = 0.0f;
    for (int k = i; k < n; k++) s += U[i * n + k] * x[k];
    y[i] = s;
  }
}

static int signedSmall(uint64_t seed, size_t k) {
  uint32_t u = hashAt(seed, k);
  int v = 1 + int(u % 100);
  return (u >> 16) & 1 ? -v : v;
}

int main() {
  const int gm = 256, gn = 200, lda = 208;
  const float alpha = 1.5f, beta = 0.75f;
  const unsigned sn = 1024;
  const int crows = 256, ccols = 512;
  const float thr = 0.75f;
  const int tn = 384;

  std::vector<float> GA(size_t(gm) * lda), gx(gn), gy0(gm);
  fillFloats(GA, 11901);
  fillFloats(gx, 11902);
  fillFloats(gy0, 11903);
  std::vector<unsigned> rowptr(sn + 1);
  rowptr[0] = 0;
  for (unsigned i = 0; i < sn; i++) rowptr[i + 1] = rowptr[i] + 64 + hashAt(11904, i) % 137;
  const size_t nnz = rowptr[sn];
  std::vector<unsigned> col(nnz);
  std::vector<int> val(nnz), sx(sn);
  for (unsigned i = 0; i < sn; i++) {
    int len = int(rowptr[i + 1] - rowptr[i]);
    int base = std::min(std::max(int(i) - len / 2, 0), int(sn) - len);
    for (int k = 0; k < len; k++) col[rowptr[i] + k] = unsigned(base + k);
    sx[i] = signedSmall(11905, i);
  }
  for (size_t k = 0; k < nnz; k++) val[k] = signedSmall(11906, k);
  std::vector<float> CM(size_t(crows) * ccols);
  fillFloats(CM, 11907);
  for (size_t k = 0; k < CM.size(); k++)
    if (hashAt(11908, k) % 5 < 2) CM[k] = 0.0f;
  std::vector<float> TU(size_t(tn) * tn), tx(tn);
  fillFloats(TU, 11909);
  fillFloats(tx, 11910);

  float *d_GA = toDevice(GA), *d_gx = toDevice(gx), *d_gy = toDevice(gy0);
  unsigned *d_rowptr = toDevice(rowptr), *d_col = toDevice(col);
  int *d_val = toDevice(val), *d_sx = toDevice(sx), *d_sy, *d_cnt;
  float *d_CM = toDevice(CM), *d_TU = toDevice(TU), *d_tx = toDevice(tx), *d_ty;
  CHECK(cudaMalloc(&d_sy, sn * sizeof(int)));
  CHECK(cudaMalloc(&d_cnt, crows * sizeof(int)));
  CHECK(cudaMalloc(&d_ty, tn * sizeof(float)));
  CHECK(cudaDeviceSynchronize());

  GpuTimer t;
  t.start();
  sgemv_n_lda<<<blocksFor(gm, 64), 64>>>(gm, gn, alpha, d_GA, lda, d_gx, beta, d_gy);
  CHECK_LAUNCH();
  spmv_csr_int<<<blocksFor(sn, 128), 128>>>(d_rowptr, d_col, d_val, d_sx, d_sy, sn);
  CHECK_LAUNCH();
  count_above<<<blocksFor(crows, 64), 64>>>(d_CM, d_cnt, crows, ccols, thr);
  CHECK_LAUNCH();
  trmv_upper<<<blocksFor(tn, 64), 64>>>(d_TU, d_tx, d_ty, tn);
  CHECK_LAUNCH();
  float ms = t.stop();
  std::vector<float> ggy = fromDevice(d_gy, gm);
  std::vector<int> gsy = fromDevice(d_sy, sn), gcnt = fromDevice(d_cnt, crows);
  std::vector<float> gty = fromDevice(d_ty, tn);

  std::vector<float> wgy(gm), wty(tn);
  for (int i = 0; i < gm; i++) {
    double s = 0;
    for (int j = 0; j < gn; j++) s += double(GA[size_t(i) * lda + j]) * gx[j];
    wgy[i] = float(double(alpha) * s + double(beta) * gy0[i]);
  }
  std::vector<int> wsy(sn), wcnt(crows);
  for (unsigned i = 0; i < sn; i++) {
    int s = 0;
    for (unsigned j = rowptr[i]; j < rowptr[i + 1]; j++) s += val[j] * sx[col[j]];
    wsy[i] = s;
  }
  for (int r = 0; r < crows; r++) {
    int c = 0;
    for (int j = 0; j < ccols; j++)
      if (CM[size_t(r) * ccols + j] > thr) c++;
    wcnt[r] = c;
  }
  for (int i = 0; i < tn; i++) {
    double s = 0;
    for (int k = i; k < tn; k++) s += double(TU[size_t(i) * tn + k]) * tx[k];
    wty[i] = float(s);
  }
  bool ok = checkFloats("sgemv (lda)", ggy.data(), wgy.data(), gm, 1e-3);
  ok = checkExact("spmv_csr_int", gsy.data(), wsy.data(), sn) && ok;
  ok = checkExact("count_above", gcnt.data(), wcnt.data(), crows) && ok;
  ok = checkFloats("trmv_upper", gty.data(), wty.data(), tn, 1e-3) && ok;

  float *fb[] = {d_GA, d_gx, d_gy, d_CM, d_TU, d_tx, d_ty};
  for (float *p : fb) CHECK(cudaFree(p));
  CHECK(cudaFree(d_rowptr));
  CHECK(cudaFree(d_col));
  int *ib[] = {d_val, d_sx, d_sy, d_cnt};
  for (int *p : ib) CHECK(cudaFree(p));
  return finish(ms, ok);
}
