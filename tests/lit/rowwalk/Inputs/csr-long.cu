// Scalar CSR with a `long` loop index kept rolled (`#pragma unroll 1`;
// nvcc tests it with setp.lt.s64 after the update): the CSR rounds clone
// through the 64-bit signed counter of lessThanLatch (thirty-third session),
// the vote asking 32 iterations as for a pointer walk (csrMinIters).
// tests/lit/rowwalk/csr-long.test. nvcc -arch=sm_90 -O3 -ptx (nvcc 13.0).
extern "C" __global__ void csr_long_lt(const long *rowptr, const int *col, const int *val, const int *x, int *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int s = 0;
    long j = rowptr[i], e = rowptr[i + 1];
#pragma unroll 1
    for (; j < e; j++) s += val[j] * x[col[j]];
    y[i] = s;
  }
}
