// hv_csr_spmv: scalar CSR SpMV, one thread per row, `for (int j =
// rowptr[i]; j < rowptr[i+1]; j++) sum += val[j]*x[col[j]]`, over n = 2^20
// rows with 8-64 non-zeros a row (about 37.7M in all) in a band of 128
// columns around the diagonal (sorted, distinct). (1) float, blocks of 128
// (val and col 151 MB each); (2) int on the same pattern, blocks of 256.
// One launch each. Timed: both kernels. Checked exactly: the int one, and the
// float one against a CPU loop that uses fmaf in the same order as the
// device's contracted `sum += val*x`.
#include <algorithm>

#include "../common.h"

__global__ void csr_spmv_float(const int *rowptr, const int *col, const float *val, const float *x, float *y,
                               int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float sum = 0.0f;
    for (int j = rowptr[i]; j < rowptr[i + 1]; j++) sum += val[j] * x[col[j]];
    y[i] = sum;
  }
}

__global__ void csr_spmv_int(const int *rowptr, const int *col, const int *val, const int *x, int *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int sum = 0;
    for (int j = rowptr[i]; j < rowptr[i + 1]; j++) sum += val[j] * x[col[j]];
    y[i] = sum;
  }
}

// In [-100, 100], never zero.
inline int smallInt(uint64_t seed, size_t i) {
  int v = int(hashAt(seed, i) % 201u) - 100;
  return v ? v : 1;
}

int main(int argc, char **argv) {
  int n = argInt(argc, argv, 1, 1 << 20);
  if (n < 128) n = 128;
  std::vector<int> rowptr(size_t(n) + 1);
  rowptr[0] = 0;
  for (int i = 0; i < n; i++) rowptr[i + 1] = rowptr[i] + 8 + int(hashAt(411, i) % 57u);
  const size_t nnz = size_t(rowptr[n]);
  std::vector<int> col(nnz), ival(nnz), ix(n);
  std::vector<float> fval(nnz), fx(n);
  for (int i = 0; i < n; i++) {
    int start = std::max(0, std::min(i - 64, n - 128));
    for (int j = rowptr[i], k = 0; j < rowptr[i + 1]; j++, k++)
      col[j] = start + 2 * k + int(hashAt(412, size_t(i) * 64 + k) & 1u);
  }
  fillFloats(fval, 413);
  fillFloats(fx, 414);
  for (size_t j = 0; j < nnz; j++) ival[j] = smallInt(415, j);
  for (int i = 0; i < n; i++) ix[i] = smallInt(416, i);
  int *drp = toDevice(rowptr), *dcol = toDevice(col), *dival = toDevice(ival), *dix = toDevice(ix), *diy;
  float *dfval = toDevice(fval), *dfx = toDevice(fx), *dfy;
  CHECK(cudaMalloc(&dfy, size_t(n) * sizeof(float)));
  CHECK(cudaMalloc(&diy, size_t(n) * sizeof(int)));
  GpuTimer t;
  t.start();
  csr_spmv_float<<<blocksFor(n, 128), 128>>>(drp, dcol, dfval, dfx, dfy, n);
  CHECK_LAUNCH();
  csr_spmv_int<<<blocksFor(n, 256), 256>>>(drp, dcol, dival, dix, diy, n);
  CHECK_LAUNCH();
  float ms = t.stop();
  std::vector<float> fy = fromDevice(dfy, n);
  std::vector<int> iy = fromDevice(diy, n);

  std::vector<float> fref(n);
  std::vector<int> iref(n);
  for (int i = 0; i < n; i++) {
    float fs = 0.0f;
    int is = 0;
    for (int j = rowptr[i]; j < rowptr[i + 1]; j++) {
      fs = std::fmaf(fval[j], fx[col[j]], fs);
      is += ival[j] * ix[col[j]];
    }
    fref[i] = fs;
    iref[i] = is;
  }
  bool ok = checkExact("float y", fy.data(), fref.data(), n);
  ok = checkExact("int y", iy.data(), iref.data(), n) && ok;
  return finish(ms, ok);
}
