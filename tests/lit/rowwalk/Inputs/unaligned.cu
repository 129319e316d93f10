// Row walks whose rows do not start 16-byte aligned (issue 29): a row
// length that is no multiple of 16 bytes (4097 floats, 2049 doubles),
// constant (`#define`, 1001 floats) or not (any runtime n), Rodinia's
// `w[j*(n+1) + k]` bias column, and a base pointer off 16. The staged
// clone's `_unaligned` form copies each row's tile from the 16-byte boundary
// below its start (one piece more) and each lane reads its row at its
// offset; the aligned form keeps its launch conditions and comes first.
// Compiled with: nvcc -arch=sm_90 -ptx unaligned.cu -o unaligned.ptx
#define ROW 1001

// Float row sum by an `int` index (the 32-bit form): A[i*n + j].
extern "C" __global__ void rowsum_int_idx(const float *A, float *y, int m, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < m) {
    float s = 0.f;
    for (int j = 0; j < n; j++) s += A[i * n + j];
    y[i] = s;
  }
}

// Double matrix-vector product by 64-bit indices.
extern "C" __global__ void gemv_f64(const double *A, const double *x, double *y, long m, long n) {
  long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
  if (i < m) {
    double s = 0.0;
    for (long j = 0; j < n; j++) s += A[i * n + j] * x[j];
    y[i] = s;
  }
}

// A constant row of 1001 floats (4004 bytes apart: no warp's rows align):
// max and where it is.
extern "C" __global__ void rowmax_c1001(const float *A, float *mx, int *at, int m) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < m) {
    float best = A[(size_t)i * ROW];
    int where = 0;
    for (int j = 1; j < ROW; j++) {
      float v = A[(size_t)i * ROW + j];
      if (v > best) {
        best = v;
        where = j;
      }
    }
    mx[i] = best;
    at[i] = where;
  }
}

// Rodinia backprop's weights with a bias column: rows n + 1 floats apart
// (aligned only when n % 4 == 3: no launch condition says it).
extern "C" __global__ void bias_rows(const float *w, const float *x, float *y, int m, int n) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j < m) {
    float s = w[j * (n + 1) + n];
    for (int k = 0; k < n; k++) s += w[j * (n + 1) + k] * x[k];
    y[j] = s;
  }
}

// Two matrices walked at one index (gesummv-like).
extern "C" __global__ void dot_rows(const float *A, const float *B, float *y, int m, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < m) {
    float s = 0.f;
    for (int j = 0; j < n; j++) s += A[(size_t)i * n + j] * B[(size_t)i * n + j];
    y[i] = s;
  }
}

// Refused by the unaligned form (it keeps its aligned one): rows of bytes
// (summed into a float: no lanes clone).
extern "C" __global__ void rowsum_u8(const unsigned char *A, float *y, int m, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < m) {
    float s = 0.f;
    for (int j = 0; j < n; j++) s += A[(size_t)i * n + j];
    y[i] = s;
  }
}

// Refused by the unaligned form: a triangular loop (its trip count differs
// between lanes).
extern "C" __global__ void tri_rows(const float *A, float *y, int m, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < m) {
    float s = 0.f;
    for (int j = 0; j <= i % n; j++) s += A[(size_t)i * n + j];
    y[i] = s;
  }
}
