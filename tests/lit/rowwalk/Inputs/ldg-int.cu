// Rows read through __ldg (cuda's inline asm `ld.global.nc`), a thread per
// row: nvcc keeps each unrolled element's address in a register of its own
// (base + 4*(x + k), k = 0..3, each stepping 16 bytes), one row walked by
// four pointers: the staged clone takes them as one row (siblingRow), each
// lane checking the pointers' differences at the loop's entry (thirty-fourth
// session). tests/lit/rowwalk/ldg-int.test, ldg-int-emu.test; gpu-diff
// "rowwalk ldg int". nvcc -arch=sm_90 -O3 -ptx (nvcc 13.0). (Inputs/ldg.cu:
// `size_t` indices, one pointer and `add.s64 r, iv, 4k`.)

template <typename T, typename Op>
__device__ __forceinline__ T row_reduce(const T *__restrict__ A, int i, int n, T init, Op op) {
  T acc = init;
  for (int j = 0; j < n; j++) acc = op(acc, __ldg(&A[i * n + j]));
  return acc;
}

// Mean, mean absolute deviation and peak of a row: three passes, `int`.
extern "C" __global__ void ldg_row_stats(const float *__restrict__ A, float *mean, float *mad, float *peak, int rows,
                                         int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < rows) {
    float mu = row_reduce(A, i, n, 0.0f, [](float a, float v) { return a + v; }) / float(n);
    float d = row_reduce(A, i, n, 0.0f, [mu](float a, float v) { return a + fabsf(v - mu); }) / float(n);
    float p = row_reduce(A, i, n, 0.0f, [](float a, float v) { return fmaxf(a, fabsf(v)); });
    mean[i] = mu;
    mad[i] = d;
    peak[i] = p;
  }
}

// An integer checksum of a row through __ldg, `int`.
extern "C" __global__ void ldg_row_hash(const int *__restrict__ A, int *out, int rows, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= rows) return;
  int s = 0;
  for (int j = 0; j < n; j++) s = s * 31 + __ldg(&A[i * n + j]);
  out[i] = s;
}

// A GEMV with both operands through __ldg, `unsigned`.
extern "C" __global__ void ldg_gemv_u32(const float *__restrict__ A, const float *__restrict__ x, float *y,
                                        unsigned rows, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < rows) {
    float s = 0.0f;
    for (unsigned j = 0; j < n; j++) s += __ldg(&A[i * n + j]) * __ldg(&x[j]);
    y[i] = s;
  }
}

// Two matrices through __ldg, `int`: one pointer per matrix plus an offset
// register per unrolled element (`sext(x + k)*4`): two rows, each lane
// checking the offsets' differences.
extern "C" __global__ void ldg_dot2_i32(const int *__restrict__ A, const int *__restrict__ B, int *out, int rows,
                                        int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < rows) {
    int s = 0;
    for (int j = 0; j < n; j++) s += __ldg(&A[i * n + j]) * __ldg(&B[i * n + j]);
    out[i] = s;
  }
}

// Doubles through __ldg, `long`, two matrices: nvcc keeps a base register
// per element and matrix (`base + 8k`) plus one 64-bit offset: two rows.
extern "C" __global__ void ldg_dot_f64(const double *__restrict__ A, const double *__restrict__ B, double *out,
                                       long rows, long n) {
  long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
  if (i < rows) {
    double s = 0.0;
    for (long j = 0; j < n; j++) s += __ldg(&A[i * n + j]) * __ldg(&B[i * n + j]);
    out[i] = s;
  }
}
