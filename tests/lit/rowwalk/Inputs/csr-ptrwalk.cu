// Scalar CSR SpMV walked by pointer (`while (v < end) s += *v++ * x[*c++]`;
// the thirteenth held-out batch's spmv_ptrwalk in ints), for rowwalk's CSR
// rounds clone (tests/lit/rowwalk/csr-ptrwalk.test, csr-ptrwalk-emu.test;
// gpu-diff "csr: pointer walk"). nvcc keeps the loop rolled (an element an
// iteration) and leaves it through `setp.lt.u64 v, end`. Compiled with
//   nvcc -arch=sm_90 -O3 -ptx csr-ptrwalk.cu -o csr-ptrwalk.ptx
// (nvcc 13.0).
extern "C" __global__ void csr_ptrwalk_i32(const int *rowptr, const int *col, const int *val, const int *x, int *y,
                                           int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    const int *v = val + rowptr[i], *end = val + rowptr[i + 1];
    const int *c = col + rowptr[i];
    int s = 0;
    while (v < end) s += *v++ * x[*c++];
    y[i] = s;
  }
}

// The same in floats: the rounds clone only with --reassociate.
extern "C" __global__ void csr_ptrwalk_f32(const int *rowptr, const int *col, const float *val, const float *x,
                                           float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    const float *v = val + rowptr[i], *end = val + rowptr[i + 1];
    const int *c = col + rowptr[i];
    float s = 0.0f;
    while (v < end) s += *v++ * x[*c++];
    y[i] = s;
  }
}
