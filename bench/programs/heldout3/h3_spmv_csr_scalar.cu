// h3_spmv_csr_scalar: SHOC-style scalar CSR SpMV, float, one thread per row
// (1-D blocks of 128): `start = rowDelimiters[myRow]; end =
// rowDelimiters[myRow+1]; for (j = start; j < end; j++) { col = cols[j]; t
// += val[j] * vec[col]; } out[myRow] = t`. 1M rows of 16-64 non-zeros (about
// 40 on average: 42M non-zeros, 168 MB of values and 168 MB of column
// indices), columns banded: a row's non-zeros are every second column from
// about row - nnz, sorted. Launched 5 times (the suite's iterations; the
// output is the same each time). Timed: the 5 launches. Checked exactly
// against a CPU loop with fmaf in the device's order.
#include <algorithm>

#include "../common.h"

__global__ void spmv_csr_scalar_kernel(const float *val, const int *cols, const int *rowDelimiters, const float *vec,
                                       const int dim, float *out) {
  int myRow = blockIdx.x * blockDim.x + threadIdx.x;

  if (myRow < dim) {
    float t = 0.0f;
    int start = rowDelimiters[myRow];
    int end = rowDelimiters[myRow + 1];
    for (int j = start; j < end; j++) {
      int col = cols[j];
      t += val[j] * vec[col];
    }
    out[myRow] = t;
  }
}

int main(int argc, char **argv) {
  const int dim = argInt(argc, argv, 1, 1 << 20), iters = argInt(argc, argv, 2, 5);
  std::vector<int> rowDelimiters(size_t(dim) + 1);
  rowDelimiters[0] = 0;
  for (int r = 0; r < dim; r++) rowDelimiters[r + 1] = rowDelimiters[r] + 16 + int(hashAt(3601, r) % 49u);
  const size_t nnz = size_t(rowDelimiters[dim]);
  std::vector<int> cols(nnz);
  std::vector<float> val(nnz), vec(dim);
  for (int r = 0; r < dim; r++) {
    const int len = rowDelimiters[r + 1] - rowDelimiters[r];
    const int first = std::max(0, std::min(dim - 2 * len, r - len));  // 2*len <= 128 <= dim
    for (int k = 0; k < len; k++) cols[rowDelimiters[r] + k] = first + 2 * k;
  }
  fillFloats(val, 3602);
  fillFloats(vec, 3603);
  float *dval = toDevice(val), *dvec = toDevice(vec), *dout;
  int *dcols = toDevice(cols), *drows = toDevice(rowDelimiters);
  CHECK(cudaMalloc(&dout, size_t(dim) * sizeof(float)));
  CHECK(cudaDeviceSynchronize());
  const int BLOCK_SIZE = 128;
  GpuTimer t;
  t.start();
  for (int it = 0; it < iters; it++) {
    spmv_csr_scalar_kernel<<<blocksFor(dim, BLOCK_SIZE), BLOCK_SIZE>>>(dval, dcols, drows, dvec, dim, dout);
    CHECK_LAUNCH();
  }
  float ms = t.stop();
  std::vector<float> out = fromDevice(dout, dim);

  std::vector<float> ref(dim);
  for (int r = 0; r < dim; r++) {
    float s = 0.0f;
    for (int j = rowDelimiters[r]; j < rowDelimiters[r + 1]; j++) s = std::fmaf(val[j], vec[cols[j]], s);
    ref[r] = s;
  }
  bool ok = checkExact("spmv_csr_scalar", out.data(), ref.data(), dim);
  CHECK(cudaFree(dval));
  CHECK(cudaFree(dvec));
  CHECK(cudaFree(dout));
  CHECK(cudaFree(dcols));
  CHECK(cudaFree(drows));
  return finish(ms, ok);
}
