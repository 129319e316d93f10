// h7_launchex_csr_trmv: both kernels launched with cudaLaunchKernelEx on a
// stream created at the greatest priority, with a cudaLaunchAttributePriority
// attribute. (1) int scalar CSR SpMV, one thread per row, n = 120000 rows of
// 64-128 non-zeros (~11.5M nnz; values + columns 92 MB), columns scattered,
// blocks of 128, `int` indices, `__restrict__`; (2) a lower-triangular float
// matrix-vector product (trmv), n = 6000 (144 MB matrix; the lower half,
// 72 MB, is read), blocks of 64, `int` i and k with a `size_t` row base,
// `for (k = 0; k <= i; k++) s += L[i*n + k] * x[k]`. Timed: both launches
// (the stream synchronized before the stop event). Checked: (1) exactly
// (integer), (2) exactly (fmaf in order).
#include "../common.h"

__global__ void csr_band_int(const int *__restrict__ rowptr, const int *__restrict__ cols,
                             const int *__restrict__ vals, const int *__restrict__ x, int *__restrict__ y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int acc = 0;
    int start = rowptr[i], stop = rowptr[i + 1];
    for (int k = start; k < stop; k++) acc += vals[k] * x[cols[k]];
    y[i] = acc;
  }
}

__global__ void trmv_lower(const float *L, const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    size_t base = (size_t)i * n;
    float s = 0.0f;
    for (int k = 0; k <= i; k++) s += L[base + k] * x[k];
    y[i] = s;
  }
}

int main(int argc, char **argv) {
  const int n = argInt(argc, argv, 1, 120000);
  const int tn = argInt(argc, argv, 2, 6000);

  std::vector<int> rowptr(n + 1);
  rowptr[0] = 0;
  for (int i = 0; i < n; i++) rowptr[i + 1] = rowptr[i] + 64 + int(hashAt(7901, i) % 65u);
  const int nnz = rowptr[n];
  std::vector<int> cols(nnz), vals(nnz), x(n);
  for (int k = 0; k < nnz; k++) {
    cols[k] = int(hashAt(7902, k) % uint32_t(n));
    vals[k] = 1 + int(hashAt(7903, k) % 9u);
  }
  for (int i = 0; i < n; i++) x[i] = 1 + int(hashAt(7904, i) % 50u);
  const size_t nl = size_t(tn) * tn;
  std::vector<float> L(nl), tx(tn);
  fillFloats(L, 7905);
  fillFloats(tx, 7906);

  int *d_rowptr = toDevice(rowptr), *d_cols = toDevice(cols), *d_vals = toDevice(vals), *d_x = toDevice(x), *d_y;
  float *d_L = toDevice(L), *d_tx = toDevice(tx), *d_ty;
  CHECK(cudaMalloc(&d_y, n * sizeof(int)));
  CHECK(cudaMalloc(&d_ty, tn * sizeof(float)));
  int leastPrio = 0, greatestPrio = 0;
  CHECK(cudaDeviceGetStreamPriorityRange(&leastPrio, &greatestPrio));
  cudaStream_t stream;
  CHECK(cudaStreamCreateWithPriority(&stream, cudaStreamDefault, greatestPrio));
  CHECK(cudaDeviceSynchronize());

  cudaLaunchAttribute attr[1];
  attr[0].id = cudaLaunchAttributePriority;
  attr[0].val.priority = greatestPrio;
  cudaLaunchConfig_t cfg1 = {};
  cfg1.gridDim = dim3((n + 127) / 128);
  cfg1.blockDim = dim3(128);
  cfg1.dynamicSmemBytes = 0;
  cfg1.stream = stream;
  cfg1.attrs = attr;
  cfg1.numAttrs = 1;
  cudaLaunchConfig_t cfg2 = cfg1;
  cfg2.gridDim = dim3((tn + 63) / 64);
  cfg2.blockDim = dim3(64);

  GpuTimer t;
  t.start();
  CHECK(cudaLaunchKernelEx(&cfg1, csr_band_int, (const int *)d_rowptr, (const int *)d_cols, (const int *)d_vals,
                           (const int *)d_x, d_y, n));
  CHECK(cudaLaunchKernelEx(&cfg2, trmv_lower, (const float *)d_L, (const float *)d_tx, d_ty, tn));
  CHECK(cudaStreamSynchronize(stream));
  float ms = t.stop();
  std::vector<int> y = fromDevice(d_y, n);
  std::vector<float> ty = fromDevice(d_ty, tn);

  std::vector<int> yref(n);
  for (int i = 0; i < n; i++) {
    int acc = 0;
    for (int k = rowptr[i]; k < rowptr[i + 1]; k++) acc += vals[k] * x[cols[k]];
    yref[i] = acc;
  }
  std::vector<float> tref(tn);
  for (size_t i = 0; i < size_t(tn); i++) {
    float s = 0.0f;
    for (size_t k = 0; k <= i; k++) s = std::fmaf(L[i * tn + k], tx[k], s);
    tref[i] = s;
  }
  bool ok = checkExact("csr band int", y.data(), yref.data(), n);
  ok = checkExact("trmv lower", ty.data(), tref.data(), tn) && ok;
  CHECK(cudaStreamDestroy(stream));
  CHECK(cudaFree(d_rowptr));
  CHECK(cudaFree(d_cols));
  CHECK(cudaFree(d_vals));
  CHECK(cudaFree(d_x));
  CHECK(cudaFree(d_y));
  CHECK(cudaFree(d_L));
  CHECK(cudaFree(d_tx));
  CHECK(cudaFree(d_ty));
  return finish(ms, ok);
}
