// Scalar CSR sparse matrix-vector products, one thread per row (issue 29,
// item 5; RowWalkCsr.cpp): y[i] = sum over j in [rowptr[i], rowptr[i+1]) of
// val[j] * x[col[j]]. Integer and float values, int and unsigned indices,
// with and without the `if (i < n)` guard. Compiled with
//   nvcc -arch=sm_90 -O3 -ptx csr.cu -o csr.ptx
// (nvcc 13.0). The same kernels run on the GPU in tests/gpu/cases/csr.cu and
// in bench/rowwalk/csr.cu. nvcc unrolls each loop by 4 (val and col through
// registers stepping 16 bytes, a down-counter), after a prologue that
// computes the trip count from rowptr[i] and rowptr[i+1], and before a
// remainder loop of up to 3 iterations.

template <typename T, typename I>
__device__ void csrRow(I i, const I *rowptr, const I *col, const T *val, const T *x, T *y) {
  T sum = 0;
  for (I j = rowptr[i]; j < rowptr[i + 1]; j++) sum += val[j] * x[col[j]];
  y[i] = sum;
}

extern "C" __global__ void csr_i32(const int *rowptr, const int *col, const int *val, const int *x, int *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) csrRow(i, rowptr, col, val, x, y);
}
extern "C" __global__ void csr_u32(const unsigned *rowptr, const unsigned *col, const int *val, const int *x, int *y,
                                   unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) csrRow(i, rowptr, col, val, x, y);
}
extern "C" __global__ void csr_f32(const int *rowptr, const int *col, const float *val, const float *x, float *y,
                                   int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) csrRow(i, rowptr, col, val, x, y);
}
extern "C" __global__ void csr_f32_u32(const unsigned *rowptr, const unsigned *col, const float *val, const float *x,
                                       float *y, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) csrRow(i, rowptr, col, val, x, y);
}
// No guard: the launch covers exactly n rows (n a multiple of the block).
extern "C" __global__ void csr_i32_noguard(const int *rowptr, const int *col, const int *val, const int *x, int *y,
                                           int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  csrRow(i, rowptr, col, val, x, y);
}
// Doubles (an `int` index; --reassociate), a `size_t` row pointer with int
// values, and a row maximum (exact: max is associative): the rounds clone's
// other accumulator widths and reductions (RowWalkCsrRounds.cpp).
extern "C" __global__ void csr_f64(const int *rowptr, const int *col, const double *val, const double *x, double *y,
                                   int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) csrRow(i, rowptr, col, val, x, y);
}
extern "C" __global__ void csr_sizet(const size_t *rowptr, const int *col, const int *val, const int *x, int *y,
                                     size_t n) {
  size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  if (i < n) {
    int sum = 0;
    for (size_t j = rowptr[i]; j < rowptr[i + 1]; j++) sum += val[j] * x[col[j]];
    y[i] = sum;
  }
}
extern "C" __global__ void csr_max(const int *rowptr, const int *col, const int *val, const int *x, int *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int m = 0;
    for (int j = rowptr[i]; j < rowptr[i + 1]; j++) m = max(m, val[j] ^ x[col[j]]);
    y[i] = m;
  }
}
