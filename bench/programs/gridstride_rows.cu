// gridstride_rows: row walks written as grid-stride loops over rows (the
// CUDA_KERNEL_LOOP form of library code, `for (i = blockIdx.x*blockDim.x +
// threadIdx.x; i < n; i += blockDim.x*gridDim.x)`), launched with a thread
// per row (GET_BLOCKS(n)): (1) a scalar CSR SpMV in ints, 131072 rows of
// 32..256 non-zeros (~18.9 M; val + col 151 MB), columns hashed over the
// rows, 256-thread blocks; (2) a float GEMV, 16384 x 4096 (256 MB), 128-thread
// blocks. Sizes: nrows gemv_rows gemv_cols (argv). Each kernel launched
// once. Timed: the 2 launches. Checked exactly: (1) integer sums; (2) the
// CPU sums each row in the kernel's order with fmaf (nvcc contracts s +=
// a*x into an fma).
#include <cmath>

#include "common.h"

__global__ void spmv_gs(const int *rowptr, const int *col, const int *val, const int *x, int *y, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    int sum = 0;
    for (int j = rowptr[i]; j < rowptr[i + 1]; j++) sum += val[j] * x[col[j]];
    y[i] = sum;
  }
}

__global__ void gemv_gs(const float *A, const float *x, float *y, int rows, int cols) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < rows; i += blockDim.x * gridDim.x) {
    float s = 0.0f;
    for (int j = 0; j < cols; j++) s += A[(size_t)i * cols + j] * x[j];
    y[i] = s;
  }
}

static int small(uint64_t seed, size_t k) {
  uint32_t u = hashAt(seed, k);
  int v = 1 + int(u % 100);
  return (u >> 16) & 1 ? -v : v;
}

int main(int argc, char **argv) {
  const int n = argInt(argc, argv, 1, 131072), rows = argInt(argc, argv, 2, 16384),
            cols = argInt(argc, argv, 3, 4096);
  std::vector<int> rp(n + 1);
  rp[0] = 0;
  for (int i = 0; i < n; i++) rp[i + 1] = rp[i] + 32 + int(hashAt(13101, i) % 225);
  const size_t nnz = size_t(rp[n]);
  std::vector<int> col(nnz), val(nnz), x(n);
  for (size_t k = 0; k < nnz; k++) {
    col[k] = int(hashAt(13102, k) % uint32_t(n));
    val[k] = small(13103, k);
  }
  for (int i = 0; i < n; i++) x[i] = small(13104, i);
  std::vector<float> A(size_t(rows) * cols), v(cols);
  fillFloats(A, 13105);
  fillFloats(v, 13106);

  int *d_rp = toDevice(rp), *d_col = toDevice(col), *d_val = toDevice(val), *d_x = toDevice(x), *d_y;
  float *d_A = toDevice(A), *d_v = toDevice(v), *d_out;
  CHECK(cudaMalloc(&d_y, n * sizeof(int)));
  CHECK(cudaMalloc(&d_out, rows * sizeof(float)));
  CHECK(cudaDeviceSynchronize());

  GpuTimer t;
  t.start();
  spmv_gs<<<blocksFor(n, 256), 256>>>(d_rp, d_col, d_val, d_x, d_y, n);
  CHECK_LAUNCH();
  gemv_gs<<<blocksFor(rows, 128), 128>>>(d_A, d_v, d_out, rows, cols);
  CHECK_LAUNCH();
  float ms = t.stop();
  std::vector<int> gy = fromDevice(d_y, n);
  std::vector<float> gout = fromDevice(d_out, rows);

  std::vector<int> wy(n);
  for (int i = 0; i < n; i++) {
    int s = 0;
    for (int j = rp[i]; j < rp[i + 1]; j++) s += val[j] * x[col[j]];
    wy[i] = s;
  }
  std::vector<float> wout(rows);
  for (int i = 0; i < rows; i++) {
    float s = 0.0f;
    for (int j = 0; j < cols; j++) s = fmaf(A[size_t(i) * cols + j], v[j], s);
    wout[i] = s;
  }
  bool ok = checkExact("spmv_gs", gy.data(), wy.data(), n);
  ok = checkExact("gemv_gs", gout.data(), wout.data(), rows) && ok;
  CHECK(cudaFree(d_rp));
  CHECK(cudaFree(d_col));
  CHECK(cudaFree(d_val));
  CHECK(cudaFree(d_x));
  CHECK(cudaFree(d_y));
  CHECK(cudaFree(d_A));
  CHECK(cudaFree(d_v));
  CHECK(cudaFree(d_out));
  return finish(ms, ok);
}
