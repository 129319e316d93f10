// h8_csr_jds: sparse matrix-vector products, one thread per row, each kernel
// launched by an explicit `cudaLaunchKernel(&kernel, grid, block, args, 0,
// stream)` on a created stream. (1) scalar CSR, int values, 32-256
// non-zeros a row (70000 rows, ~10.1M nnz; values + columns 81 MB),
// scattered columns, `unsigned` row pointers, columns and indices,
// `__restrict__`, `for (unsigned k = rowptr[row]; k < rowptr[row + 1]; k++)
// sum += val[k] * x[col[k]]`, blocks of 128; (2) scalar CSR, int values,
// 1-8 non-zeros a row (2600000 rows, ~11.7M nnz; 104 MB with the row
// pointers), `size_t` row, `int` k, `y[row] += sum` (y starts non-zero),
// blocks of 256; (3) Parboil spmv's JDS layout, float: rows sorted by
// length (4-60 non-zeros, 400000 rows, ~12.8M nnz, data + indices 102 MB),
// jagged diagonal k stored from jds_ptr[k], thread per sorted row ix, `for
// (k = 0; k < nzcnt[ix]; k++) { j = jds_ptr[k] + ix; sum += data[j] *
// x[index[j]]; }`, `out[perm[ix]] = sum`, `int` indices, blocks of 192.
// Timed: the three launches (the stream synchronized before the stop
// event). Checked: (1), (2) exactly (integer); (3) exactly (fmaf in order).
#include "../common.h"

#include <algorithm>
#include <numeric>

__global__ void csr_int_wide(const unsigned *__restrict__ rowptr, const unsigned *__restrict__ col,
                             const int *__restrict__ val, const int *__restrict__ x, int *__restrict__ y,
                             unsigned n) {
  unsigned row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < n) {
    int sum = 0;
    for (unsigned k = rowptr[row]; k < rowptr[row + 1]; k++) sum += val[k] * x[col[k]];
    y[row] = sum;
  }
}

__global__ void csr_int_narrow_acc(const int *rowptr, const int *col, const int *val, const int *x, int *y,
                                   size_t n) {
  size_t row = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (row < n) {
    int sum = 0;
    for (int k = rowptr[row]; k < rowptr[row + 1]; k++) sum += val[k] * x[col[k]];
    y[row] += sum;
  }
}

__global__ void spmv_jds(float *out, const float *data, const int *index, const int *perm, const float *x,
                         const int *jds_ptr, const int *nzcnt, int dim) {
  int ix = blockIdx.x * blockDim.x + threadIdx.x;
  if (ix < dim) {
    float sum = 0.0f;
    int bound = nzcnt[ix];
    for (int k = 0; k < bound; k++) {
      int j = jds_ptr[k] + ix;
      sum += data[j] * x[index[j]];
    }
    out[perm[ix]] = sum;
  }
}

static int nonZeroInt(uint64_t seed, size_t k, int range) {  // in [-range, range] without 0
  int v = int(hashAt(seed, k) % uint32_t(2 * range)) - range;
  return v >= 0 ? v + 1 : v;
}

int main(int argc, char **argv) {
  unsigned n1 = unsigned(argInt(argc, argv, 1, 70000));
  size_t n2 = size_t(argInt(argc, argv, 2, 2600000));
  int n3 = argInt(argc, argv, 3, 400000);

  // (1)
  std::vector<unsigned> rp1(n1 + 1);
  rp1[0] = 0;
  for (unsigned i = 0; i < n1; i++) rp1[i + 1] = rp1[i] + 32 + hashAt(9101, i) % 225u;
  const size_t nnz1 = rp1[n1];
  std::vector<unsigned> col1(nnz1);
  std::vector<int> val1(nnz1), x1(n1);
  for (size_t k = 0; k < nnz1; k++) {
    col1[k] = hashAt(9102, k) % n1;
    val1[k] = nonZeroInt(9103, k, 9);
  }
  for (unsigned i = 0; i < n1; i++) x1[i] = nonZeroInt(9104, i, 100);
  // (2)
  std::vector<int> rp2(n2 + 1);
  rp2[0] = 0;
  for (size_t i = 0; i < n2; i++) rp2[i + 1] = rp2[i] + 1 + int(hashAt(9105, i) % 8u);
  const size_t nnz2 = size_t(rp2[n2]);
  std::vector<int> col2(nnz2), val2(nnz2), x2(n2), y2(n2);
  for (size_t k = 0; k < nnz2; k++) {
    col2[k] = int(hashAt(9106, k) % uint32_t(n2));
    val2[k] = nonZeroInt(9107, k, 9);
  }
  for (size_t i = 0; i < n2; i++) {
    x2[i] = nonZeroInt(9108, i, 100);
    y2[i] = nonZeroInt(9109, i, 1000);
  }
  // (3): row r has len[r] non-zeros; perm sorts rows by length, longest first.
  std::vector<int> len(n3), perm(n3);
  for (int r = 0; r < n3; r++) len[r] = 4 + int(hashAt(9110, r) % 57u);
  std::iota(perm.begin(), perm.end(), 0);
  std::stable_sort(perm.begin(), perm.end(), [&](int a, int b) { return len[a] > len[b]; });
  std::vector<int> nzcnt(n3);
  for (int ix = 0; ix < n3; ix++) nzcnt[ix] = len[perm[ix]];
  const int maxlen = nzcnt[0];
  std::vector<int> jds_ptr(maxlen + 1);
  jds_ptr[0] = 0;
  for (int k = 0, rowsk = n3; k < maxlen; k++) {
    while (rowsk > 0 && nzcnt[rowsk - 1] <= k) rowsk--;  // rows with more than k non-zeros
    jds_ptr[k + 1] = jds_ptr[k] + rowsk;
  }
  const size_t nnz3 = size_t(jds_ptr[maxlen]);
  std::vector<float> data3(nnz3), x3(n3);
  std::vector<int> index3(nnz3);
  for (size_t j = 0; j < nnz3; j++) {
    data3[j] = 0.25f + float(hashAt(9111, j) >> 8) * (1.0f / 16777216.0f);
    index3[j] = int(hashAt(9112, j) % uint32_t(n3));
  }
  fillFloats(x3, 9113);

  unsigned *d_rp1 = toDevice(rp1), *d_col1 = toDevice(col1);
  int *d_val1 = toDevice(val1), *d_x1 = toDevice(x1), *d_y1;
  int *d_rp2 = toDevice(rp2), *d_col2 = toDevice(col2), *d_val2 = toDevice(val2), *d_x2 = toDevice(x2),
      *d_y2 = toDevice(y2);
  float *d_data3 = toDevice(data3), *d_x3 = toDevice(x3), *d_y3;
  int *d_index3 = toDevice(index3), *d_perm = toDevice(perm), *d_jds = toDevice(jds_ptr), *d_nz = toDevice(nzcnt);
  CHECK(cudaMalloc(&d_y1, n1 * sizeof(int)));
  CHECK(cudaMalloc(&d_y3, size_t(n3) * sizeof(float)));
  cudaStream_t s;
  CHECK(cudaStreamCreate(&s));
  CHECK(cudaDeviceSynchronize());

  void *a1[] = {&d_rp1, &d_col1, &d_val1, &d_x1, &d_y1, &n1};
  void *a2[] = {&d_rp2, &d_col2, &d_val2, &d_x2, &d_y2, &n2};
  void *a3[] = {&d_y3, &d_data3, &d_index3, &d_perm, &d_x3, &d_jds, &d_nz, &n3};
  GpuTimer t;
  t.start();
  CHECK(cudaLaunchKernel(&csr_int_wide, dim3(blocksFor(n1, 128)), dim3(128), a1, 0, s));
  CHECK(cudaLaunchKernel(&csr_int_narrow_acc, dim3(blocksFor(long(n2), 256)), dim3(256), a2, 0, s));
  CHECK(cudaLaunchKernel(&spmv_jds, dim3(blocksFor(n3, 192)), dim3(192), a3, 0, s));
  CHECK(cudaStreamSynchronize(s));
  float ms = t.stop();
  std::vector<int> gy1 = fromDevice(d_y1, n1), gy2 = fromDevice(d_y2, n2);
  std::vector<float> gy3 = fromDevice(d_y3, size_t(n3));

  std::vector<int> ry1(n1), ry2(n2);
  for (size_t i = 0; i < n1; i++) {
    int sum = 0;
    for (size_t k = rp1[i]; k < rp1[i + 1]; k++) sum += val1[k] * x1[col1[k]];
    ry1[i] = sum;
  }
  for (size_t i = 0; i < n2; i++) {
    int sum = 0;
    for (int k = rp2[i]; k < rp2[i + 1]; k++) sum += val2[k] * x2[col2[k]];
    ry2[i] = y2[i] + sum;
  }
  std::vector<float> ry3(n3);
  for (int ix = 0; ix < n3; ix++) {
    float sum = 0.0f;
    for (int k = 0; k < nzcnt[ix]; k++) {
      size_t j = size_t(jds_ptr[k]) + ix;
      sum = std::fmaf(data3[j], x3[index3[j]], sum);
    }
    ry3[perm[ix]] = sum;
  }
  bool ok = checkExact("csr int 32-256", gy1.data(), ry1.data(), n1);
  ok = checkExact("csr int 1-8 (y += Ax)", gy2.data(), ry2.data(), n2) && ok;
  ok = checkExact("jds float", gy3.data(), ry3.data(), size_t(n3)) && ok;
  CHECK(cudaStreamDestroy(s));
  for (void *p : {(void *)d_rp1, (void *)d_col1, (void *)d_val1, (void *)d_x1, (void *)d_y1, (void *)d_rp2,
                  (void *)d_col2, (void *)d_val2, (void *)d_x2, (void *)d_y2, (void *)d_data3, (void *)d_x3,
                  (void *)d_y3, (void *)d_index3, (void *)d_perm, (void *)d_jds, (void *)d_nz})
    CHECK(cudaFree(p));
  return finish(ms, ok);
}
