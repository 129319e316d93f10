// Triangular row walks through `unsigned` counters and `<=` bounds
// (tests/lit/rowwalk/tri-u32.test; RowWalkTri.cpp). Compiled with
//   nvcc -arch=sm_90 -O3 -ptx tri_u32.cu -o tri_u32.ptx
// (nvcc 13.0). nvcc neither unrolls nor counts `for (unsigned k = 0; k <= i;
// k++)` (it never ends for i = 2^32 - 1): a rolled loop tested with
// `setp.le.u32` after the counter's update, the row read through the 32-bit
// index i * n + k. The same kernels run on the GPU in tests/gpu/cases/tri_u32.cu.

// syrk's diagonal in double from float rows (the eleventh held-out batch's
// h11_triangular): row i has i+1 elements.
extern "C" __global__ void syrk_diag_u32_f64(const float *A, double *c, unsigned m) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < m) {
    double s = 0.0;
    for (unsigned k = 0; k <= i; k++) s += (double)A[i * m + k] * (double)A[i * m + k];
    c[i] = s;
  }
}
// Integer lower-triangular row sums.
extern "C" __global__ void tri_le_u32_i32(const int *A, int *y, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int s = 0;
    for (unsigned k = 0; k <= i; k++) s += A[i * n + k];
    y[i] = s;
  }
}
// Lower-triangular float trmv.
extern "C" __global__ void tri_le_u32_f32(const float *A, const float *x, float *y, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float s = 0.0f;
    for (unsigned k = 0; k <= i; k++) s += A[i * n + k] * x[k];
    y[i] = s;
  }
}
// Upper-triangular float trmv, `unsigned`.
extern "C" __global__ void tri_upper_u32_f32(const float *A, const float *x, float *y, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float s = 0.0f;
    for (unsigned k = i; k < n; k++) s += A[i * n + k] * x[k];
    y[i] = s;
  }
}
// Lower-triangular float trmv, `int` and `<=`.
extern "C" __global__ void tri_le_s32_f32(const float *A, const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float s = 0.0f;
    for (int k = 0; k <= i; k++) s += A[i * n + k] * x[k];
    y[i] = s;
  }
}
// Unit upper-triangular trmv, `unsigned` (the eighth held-out batch's
// h8_symm_trmv_fold): the diagonal's element is 1, a guard on indices.
extern "C" __global__ void trmv_upper_unit_u32(const float *__restrict__ A, const float *__restrict__ x,
                                               float *__restrict__ z, unsigned n, float alpha) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float s = 0.0f;
    for (unsigned k = i; k < n; k++) {
      if (k == i)
        s += x[k];
      else
        s += A[i * n + k] * x[k];
    }
    z[i] = alpha * s;
  }
}
