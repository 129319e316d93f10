// Two rows walked at one index (`A[i*n + j]` and `B[i*n + j]`): nvcc 13 runs
// one induction variable over each matrix's base and adds the row's offset
// `4*i*n` in the loop (issue 29, item 2; docs/PASSES.md, rowwalk, "Two rows
// at one index"). Used by tests/lit/rowwalk/tworows.test and the gpu-diff
// family "rowwalk tworows" (tests/gpu/cases/rowwalktworows.cu).
// nvcc -arch=sm_90 -O3 -ptx tworows.cu -o tworows.ptx
#define N 4096

// gesummv with `int` indices and register accumulators, runtime n.
extern "C" __global__ void tr_gesummv(const float *A, const float *B, const float *x, float *y, float alpha,
                                      float beta, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float tmp = 0, yy = 0;
    for (int j = 0; j < n; j++) {
      tmp += A[i * n + j] * x[j];
      yy += B[i * n + j] * x[j];
    }
    y[i] = alpha * tmp + beta * yy;
  }
}

// PolyBench/GPU's gesummv: `#define N`, the accumulators in memory.
extern "C" __global__ void tr_gesummv_pb(const float *a, const float *b, const float *x, float *y, float *tmp) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N) {
    for (int j = 0; j < N; j++) {
      tmp[i] += a[i * N + j] * x[j];
      y[i] += b[i * N + j] * x[j];
    }
    y[i] = 1.5f * tmp[i] + 1.2f * y[i];
  }
}

// The dot product of two rows, and an integer form (exact: lanes too).
extern "C" __global__ void tr_dot_rows(const float *A, const float *B, float *y, int n, int m) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < m) {
    float s = 0;
    for (int j = 0; j < n; ++j) s += A[i * n + j] * B[i * n + j];
    y[i] = s;
  }
}
extern "C" __global__ void tr_diff_int(const int *A, const int *B, int *y, int n, int m) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < m) {
    int s = 0;
    for (int j = 0; j < n; ++j) s += abs(A[i * n + j] - B[i * n + j]);
    y[i] = s;
  }
}

// Doubles, `unsigned` indices.
extern "C" __global__ void tr_dot_f64(const double *A, const double *B, double *y, unsigned n, unsigned m) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < m) {
    double s = 0;
    for (unsigned j = 0; j < n; ++j) s += A[i * n + j] * B[i * n + j];
    y[i] = s;
  }
}

// A single row written with a separate offset (the same form for one row).
extern "C" __global__ void tr_one_row(const float *A, const float *x, float *y, int n, int m) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < m) {
    const int off = i * n;
    float s = 0;
    for (int j = 0; j < n; ++j) s += A[off + j] * x[j] * x[j];
    y[i] = s;
  }
}

// Three and four rows at one index (since the twenty-ninth session; the
// eleventh held-out batch's h11_bicg_gesummv_unsigned): 128-byte tiles.
// Three matrices against three vectors, `unsigned` indices.
extern "C" __global__ void tr_three_u32(const float *A, const float *B, const float *C, const float *x,
                                        const float *z, const float *w, float *d, unsigned rows, unsigned cols) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < rows) {
    float s = 0.0f;
    for (unsigned j = 0; j < cols; j++) {
      unsigned k = i * cols + j;
      s += A[k] * x[j] + B[k] * z[j] + C[k] * w[j];
    }
    d[i] = s;
  }
}
// Four rows, `int` indices: two dot products of rows.
extern "C" __global__ void tr_four_int(const float *A, const float *B, const float *C, const float *D, float *y,
                                       int n, int m) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < m) {
    float s = 0, t = 0;
    for (int j = 0; j < n; ++j) {
      s += A[i * n + j] * B[i * n + j];
      t += C[i * n + j] * D[i * n + j];
    }
    y[i] = s - t;
  }
}
