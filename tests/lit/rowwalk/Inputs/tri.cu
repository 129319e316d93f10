// Triangular row walks for the rowwalk pass's staged clone with per-lane
// trip counts (tests/lit/rowwalk/tri.test; issue 29, item 6; RowWalkTri.cpp).
// Compiled with
//   nvcc -arch=sm_90 -O3 -ptx tri.cu -o tri.ptx
// (nvcc 13.0). The same kernels run on the GPU in tests/gpu/cases/tri.cu and
// bench/rowwalk/tri.cu. Each thread's row has its own length (its trip count
// depends on the thread index), so the 32 lanes of a warp never agree on it:
// the uniform staged clone ran the original loop in every warp.

// Lower-triangular matrix-vector product (trmv), 64-bit index: row i has i+1 elements.
extern "C" __global__ void trmv_lower_f32(const float *A, const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float s = 0.0f;
    for (int k = 0; k <= i; k++) s += A[(size_t)i * n + k] * x[k];
    y[i] = s;
  }
}
extern "C" __global__ void trmv_lower_i32(const int *A, const int *x, int *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int s = 0;
    for (int k = 0; k <= i; k++) s += A[(size_t)i * n + k] * x[k];
    y[i] = s;
  }
}
// The same through an int index (nvcc walks a 64-bit pointer: overflow is undefined).
extern "C" __global__ void trmv_lower_s32idx_f32(const float *A, const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float s = 0.0f;
    for (int k = 0; k <= i; k++) s += A[i * n + k] * x[k];
    y[i] = s;
  }
}
// Row sums of a triangle stored from each row's start: row i has n-i elements
// (the upper triangle's lengths, every row 16-byte aligned when n % 4 == 0).
extern "C" __global__ void trisum_f32(const float *A, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float s = 0.0f;
    for (int k = 0; k < n - i; k++) s += A[(size_t)i * n + k];
    y[i] = s;
  }
}
extern "C" __global__ void trisum_i32(const int *A, int *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int s = 0;
    for (int k = 0; k < n - i; k++) s += A[(size_t)i * n + k];
    y[i] = s;
  }
}
// Upper-triangular trmv: row i from its diagonal, n-i elements. nvcc peels
// the (n-i) % 4 remainder in front of the unrolled loop; the unrolled loop's
// addresses then depend on the path taken (the analysis calls them unknown).
extern "C" __global__ void trmv_upper_f32(const float *A, const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float s = 0.0f;
    for (int k = i; k < n; k++) s += A[(size_t)i * n + k] * x[k];
    y[i] = s;
  }
}
extern "C" __global__ void trmv_upper_i32(const int *A, const int *x, int *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int s = 0;
    for (int k = i; k < n; k++) s += A[(size_t)i * n + k] * x[k];
    y[i] = s;
  }
}
// syrk-like (C = A A^T, lower triangle), one thread per row i of C: the row
// walk over k is the inner loop of a triangular outer loop over j.
extern "C" __global__ void syrk_lower_f32(const float *A, float *C, int n, int m) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    for (int j = 0; j <= i; j++) {
      float s = 0.0f;
      for (int k = 0; k < m; k++) s += A[(size_t)i * m + k] * A[(size_t)j * m + k];
      C[(size_t)i * n + j] = s;
    }
  }
}
// A row solve's lower triangle in double with `size_t` indices (the sixth
// held-out batch's h6_tri_rows_double): nvcc lays the remainder loop of
// `k < i` out as `@p bra exit; bra.uni head` above the code for i == 0, a
// loop of two blocks; rowwalk plans it from a copy with that latch folded
// (clone::foldJumpLatches).
extern "C" __global__ void lower_solve_f64(const double *L, const double *b, const double *x, double *y, size_t n) {
  size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    double s = 0.0;
    for (size_t k = 0; k < i; k++) s += L[i * n + k] * x[k];
    y[i] = (b[i] - s) / L[i * n + i];
  }
}
