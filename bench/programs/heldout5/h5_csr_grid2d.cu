// h5_csr_grid2d: scalar CSR SpMV, float, with the row bounds loaded into
// locals first and the row index from a 2-D grid of 1-D blocks (64 threads),
// `int row = (blockIdx.y * gridDim.x + blockIdx.x) * blockDim.x +
// threadIdx.x; if (row < num_rows) { int start = row_offsets[row]; int end =
// row_offsets[row + 1]; for (int k = start; k < end; ++k) dot += values[k] *
// x[col_idx[k]]; }`, `const __restrict__` parameters. 3,000,000 rows of
// 4-28 non-zeros (about 48M: 192 MB values + 192 MB columns), columns
// scattered over the whole range; grid (1024, 46). Two chained launches:
// y = A x, then z = A y. Timed: both. Checked exactly (fmaf in the device's
// order).
#include "../common.h"

__global__ void spmv_csr_2dgrid(const int *__restrict__ row_offsets, const int *__restrict__ col_idx,
                                const float *__restrict__ values, const float *__restrict__ x,
                                float *__restrict__ y, int num_rows) {
  int row = (blockIdx.y * gridDim.x + blockIdx.x) * blockDim.x + threadIdx.x;
  if (row < num_rows) {
    int start = row_offsets[row];
    int end = row_offsets[row + 1];
    float dot = 0.0f;
    for (int k = start; k < end; ++k) dot += values[k] * x[col_idx[k]];
    y[row] = dot;
  }
}

int main(int argc, char **argv) {
  const int n = argInt(argc, argv, 1, 3000000);
  std::vector<int> rp(size_t(n) + 1);
  rp[0] = 0;
  for (int i = 0; i < n; i++) rp[i + 1] = rp[i] + 4 + int(hashAt(5801, i) % 25u);
  const size_t nnz = size_t(rp[n]);
  std::vector<int> col(nnz);
  std::vector<float> val(nnz), x(n);
  for (size_t k = 0; k < nnz; k++) col[k] = int(hashAt(5802, k) % uint32_t(n));
  fillFloats(val, 5803, 0.05f, 0.1f);
  fillFloats(x, 5804);
  int *drp = toDevice(rp), *dcol = toDevice(col);
  float *dval = toDevice(val), *dx = toDevice(x), *dy, *dz;
  CHECK(cudaMalloc(&dy, size_t(n) * sizeof(float)));
  CHECK(cudaMalloc(&dz, size_t(n) * sizeof(float)));
  CHECK(cudaDeviceSynchronize());

  const unsigned threads = 64, blocks = blocksFor(n, threads), gx = 1024;
  const dim3 grid(gx, (blocks + gx - 1) / gx), block(threads);
  GpuTimer t;
  t.start();
  spmv_csr_2dgrid<<<grid, block>>>(drp, dcol, dval, dx, dy, n);
  CHECK_LAUNCH();
  spmv_csr_2dgrid<<<grid, block>>>(drp, dcol, dval, dy, dz, n);
  CHECK_LAUNCH();
  float ms = t.stop();
  std::vector<float> y = fromDevice(dy, n), z = fromDevice(dz, n);

  std::vector<float> yref(n), zref(n);
  for (int pass = 0; pass < 2; pass++) {
    const std::vector<float> &in = pass ? yref : x;
    std::vector<float> &out = pass ? zref : yref;
    for (int i = 0; i < n; i++) {
      float s = 0.0f;
      for (int k = rp[i]; k < rp[i + 1]; k++) s = std::fmaf(val[k], in[col[k]], s);
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
