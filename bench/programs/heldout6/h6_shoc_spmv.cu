// h6_shoc_spmv: SHOC-style CSR SpMV, n = 300000 rows of 16-96 non-zeros
// (~16.8M nnz; val + cols 134 MB), columns scattered over [0, n), blocks of
// 128, int indices, `__restrict__` as in SHOC. (1) spmv_csr_scalar_kernel
// <float> (thread per row, `int start = rowDelimiters[myRow]; int end =
// rowDelimiters[myRow+1]; for (j = start; j < end; j++) t += val[j] *
// vec[cols[j]]`); (2) the same template instantiated for int (separate int
// values and vector); (3) spmv_csr_vector_kernel (warp per row, lanes stride
// the row by warpSize, `__shfl_down_sync` tree, lane 0 writes). Timed: all
// three. Checked: (1) exactly (fmaf in order), (2) exactly, (3) rtol 1e-4.
#include "../common.h"

#define BLOCK_SIZE 128

template <typename fpType>
__global__ void spmv_csr_scalar_kernel(const fpType *__restrict__ val, const int *__restrict__ cols,
                                       const int *__restrict__ rowDelimiters, const fpType *__restrict__ vec,
                                       const int dim, fpType *__restrict__ out) {
  int myRow = blockIdx.x * blockDim.x + threadIdx.x;
  if (myRow < dim) {
    fpType t = 0;
    int start = rowDelimiters[myRow];
    int end = rowDelimiters[myRow + 1];
    for (int j = start; j < end; j++) {
      int col = cols[j];
      t += val[j] * vec[col];
    }
    out[myRow] = t;
  }
}

__global__ void spmv_csr_vector_kernel(const float *__restrict__ val, const int *__restrict__ cols,
                                       const int *__restrict__ rowDelimiters, const float *__restrict__ vec,
                                       const int dim, float *__restrict__ out) {
  int t = threadIdx.x;
  int id = t & (warpSize - 1);
  int warpsPerBlock = blockDim.x / warpSize;
  int myRow = (blockIdx.x * warpsPerBlock) + (t / warpSize);
  if (myRow < dim) {
    int warpStart = rowDelimiters[myRow];
    int warpEnd = rowDelimiters[myRow + 1];
    float mySum = 0;
    for (int j = warpStart + id; j < warpEnd; j += warpSize) {
      int col = cols[j];
      mySum += val[j] * vec[col];
    }
    for (int offset = 16; offset > 0; offset >>= 1) mySum += __shfl_down_sync(0xffffffff, mySum, offset);
    if (id == 0) out[myRow] = mySum;
  }
}

int main(int argc, char **argv) {
  const int n = argInt(argc, argv, 1, 300000);
  std::vector<int> rowDelimiters(n + 1);
  rowDelimiters[0] = 0;
  for (int i = 0; i < n; i++) rowDelimiters[i + 1] = rowDelimiters[i] + 16 + int(hashAt(901, i) % 81u);
  const int nnz = rowDelimiters[n];
  std::vector<int> cols(nnz), ival(nnz), ivec(n);
  std::vector<float> val(nnz), vec(n);
  for (int k = 0; k < nnz; k++) {
    cols[k] = int(hashAt(902, k) % uint32_t(n));
    ival[k] = 1 + int(hashAt(903, k) % 7u);
  }
  for (int i = 0; i < n; i++) ivec[i] = 1 + int(hashAt(904, i) % 100u);
  fillFloats(val, 905);
  fillFloats(vec, 906);

  int *d_rows = toDevice(rowDelimiters), *d_cols = toDevice(cols), *d_ival = toDevice(ival);
  int *d_ivec = toDevice(ivec), *d_iout;
  float *d_val = toDevice(val), *d_vec = toDevice(vec), *d_out, *d_vout;
  CHECK(cudaMalloc(&d_out, n * sizeof(float)));
  CHECK(cudaMalloc(&d_vout, n * sizeof(float)));
  CHECK(cudaMalloc(&d_iout, n * sizeof(int)));
  CHECK(cudaDeviceSynchronize());

  int nBlocksScalar = (int)ceil((float)n / BLOCK_SIZE);
  int nBlocksVector = (int)ceil((float)n / (BLOCK_SIZE / 32));
  GpuTimer t;
  t.start();
  spmv_csr_scalar_kernel<float><<<nBlocksScalar, BLOCK_SIZE>>>(d_val, d_cols, d_rows, d_vec, n, d_out);
  CHECK_LAUNCH();
  spmv_csr_scalar_kernel<int><<<nBlocksScalar, BLOCK_SIZE>>>(d_ival, d_cols, d_rows, d_ivec, n, d_iout);
  CHECK_LAUNCH();
  spmv_csr_vector_kernel<<<nBlocksVector, BLOCK_SIZE>>>(d_val, d_cols, d_rows, d_vec, n, d_vout);
  CHECK_LAUNCH();
  float ms = t.stop();
  std::vector<float> out = fromDevice(d_out, n), vout = fromDevice(d_vout, n);
  std::vector<int> iout = fromDevice(d_iout, n);

  std::vector<float> ref(n);
  std::vector<int> iref(n);
  for (int i = 0; i < n; i++) {
    float s = 0.0f;
    int is = 0;
    for (int k = rowDelimiters[i]; k < rowDelimiters[i + 1]; k++) {
      s = std::fmaf(val[k], vec[cols[k]], s);
      is += ival[k] * ivec[cols[k]];
    }
    ref[i] = s;
    iref[i] = is;
  }
  bool ok = checkExact("csr scalar float", out.data(), ref.data(), n);
  ok = checkExact("csr scalar int", iout.data(), iref.data(), n) && ok;
  ok = checkFloats("csr vector float", vout.data(), ref.data(), n, 1e-4) && ok;
  CHECK(cudaFree(d_rows));
  CHECK(cudaFree(d_cols));
  CHECK(cudaFree(d_ival));
  CHECK(cudaFree(d_ivec));
  CHECK(cudaFree(d_iout));
  CHECK(cudaFree(d_val));
  CHECK(cudaFree(d_vec));
  CHECK(cudaFree(d_out));
  CHECK(cudaFree(d_vout));
  return finish(ms, ok);
}
