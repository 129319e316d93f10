// Scalar CSR loops the rounds clone (RowWalkCsrRounds.cpp) must refuse:
// code before the row loop that stores (each warp runs that code, then runs
// it again in its rounds), a volatile load there (read twice, it could
// differ), the hardware lane number (a round's row sits on another lane),
// and an outer loop around the row loop (a branch back before it).
// Compiled with nvcc -arch=sm_90 -O3 -ptx csr-refused.cu (nvcc 13.0).
extern "C" __global__ void csr_store_first(const int *rowptr, const int *col, const int *val, const int *x, int *y,
                                           int *seen, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    seen[i] = 1;
    int sum = 0;
    for (int j = rowptr[i]; j < rowptr[i + 1]; j++) sum += val[j] * x[col[j]];
    y[i] = sum;
  }
}
extern "C" __global__ void csr_volatile(const int *rowptr, const int *col, const int *val, const int *x, int *y,
                                        int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    const int begin = reinterpret_cast<const volatile int *>(rowptr)[i];
    int sum = 0;
    for (int j = begin; j < rowptr[i + 1]; j++) sum += val[j] * x[col[j]];
    y[i] = sum;
  }
}
extern "C" __global__ void csr_laneid(const int *rowptr, const int *col, const int *val, const int *x, int *y,
                                      int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    unsigned lane;
    asm("mov.u32 %0, %%laneid;" : "=r"(lane));
    int sum = int(lane);
    for (int j = rowptr[i]; j < rowptr[i + 1]; j++) sum += val[j] * x[col[j]];
    y[i] = sum;
  }
}
extern "C" __global__ void csr_repeat(const int *rowptr, const int *col, const int *val, const int *x, int *y, int n,
                                      int reps) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int sum = 0;
    for (int r = 0; r < reps; r++)
      for (int j = rowptr[i]; j < rowptr[i + 1]; j++) sum += (val[j] + r) * x[col[j]];
    y[i] = sum;
  }
}
