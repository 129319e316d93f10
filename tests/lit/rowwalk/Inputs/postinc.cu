// Row walks through a pointer bumped each element, `s += *p++` (tests/lit/
// rowwalk/postinc.test, postinc-emu.test): nvcc keeps the pointer in a
// register it copies, `add.s64 t, p, 16; ... mov.u64 p, t` at the latch,
// and reads t after the loop (the remainder loop's start). Before the
// twentieth session the induction analysis did not follow the copy: "the
// row register ... is not a 64-bit induction variable", no staged clone.
//   nvcc -arch=sm_90 -O3 -ptx postinc.cu -o postinc.ptx   (nvcc 13.0)
extern "C" __global__ void rowsum_pp(const float *A, float *y, int rows, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < rows) {
    const float *p = A + (size_t)i * n;
    float s = 0;
    for (int j = 0; j < n; j++) s += *p++;
    y[i] = s;
  }
}
// A matrix-vector product, both pointers bumped (x's is the same for every thread).
extern "C" __global__ void mv_pp(const float *A, const float *x, float *y, int rows, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < rows) {
    const float *p = A + (size_t)i * n;
    const float *q = x;
    float s = 0;
    for (int j = 0; j < n; j++) s += *p++ * *q++;
    y[i] = s;
  }
}
// A while loop to an end pointer, int elements.
extern "C" __global__ void isum_while(const int *A, int *y, int rows, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < rows) {
    const int *p = A + (size_t)i * n;
    const int *e = p + n;
    int s = 0;
    while (p != e) s += *p++;
    y[i] = s;
  }
}
// Doubles, the row's pitch a parameter of its own (rows at any 8-byte offset).
extern "C" __global__ void dsum_pitch(const double *A, double *y, int rows, int n, int lda) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < rows) {
    const double *p = A + (size_t)i * lda;
    double s = 0;
    for (int j = 0; j < n; j++) s += *p++ * 0.5;
    y[i] = s;
  }
}
