// A scalar CSR loop whose thread may `exit` after the loop (the review's
// find: in the rounds clone an `exit` left alone ended the hardware lane,
// and the rows it had still to run in later rounds were never stored).
// Compiled with nvcc -arch=sm_90 -O3 -ptx csr-exit.cu (nvcc 13.0).
extern "C" __global__ void csr_exit(const int *rowptr, const int *col, const int *val, const int *x, int *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int sum = 0;
    for (int j = rowptr[i]; j < rowptr[i + 1]; j++) sum += val[j] * x[col[j]];
    if (sum > 900000) asm volatile("exit;");
    y[i] = sum;
  }
}
