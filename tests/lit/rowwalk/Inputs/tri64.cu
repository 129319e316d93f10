// Triangular row walks through 64-bit counters (issue 29, item 6; the
// fourteenth held-out batch's tpmv_upper_d): `for (long k = i; k < n; k++)`,
// which nvcc tests with setp.lt.s64, and `size_t` counters (setp.lt.u64),
// for rowwalk's per-lane staged form (RowWalkTri.cpp lessThanLatch,
// emitLessNoWrap: the start and the bound within 2^62 of 0).
// Compiled with nvcc -arch=sm_90 -O3 -ptx tri64.cu -o tri64.ptx (nvcc 13.0).

// Upper triangle of a full matrix, `long` counter: staged, per lane.
extern "C" __global__ void trmv_upper_l(const float *A, const float *x, float *y, long n) {
  long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float s = 0.0f;
  for (long k = i; k < n; k++) s += A[i * n + k] * x[k];
  y[i] = s;
}

// Packed upper triangle in doubles (rows of n - i), `long` counter.
extern "C" __global__ void tpmv_upper_l(const double *AP, const double *x, double *y, long n) {
  long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const double *row = AP + i * n - i * (i - 1) / 2;
  double s = 0.0;
  for (long k = i; k < n; k++) s += row[k - i] * x[k];
  y[i] = s;
}

// Lower triangle, `size_t` counter (`k < i + 1`).
extern "C" __global__ void trmv_lower_z(const float *A, const float *x, float *y, size_t n) {
  size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float s = 0.0f;
  for (size_t k = 0; k < i + 1; k++) s += A[i * n + k] * x[k];
  y[i] = s;
}

// Refused: a packed lower triangle (row i at i * (i + 1) / 2 floats): the
// rows' starts differ in alignment between the lanes of every warp
// (Planner::sampledMisalignment), where the staged clone's per-warp check
// would send every warp to the original loop (the fourteenth held-out
// batch's tpmv_lower ran 0.83x of its program with that clone).
extern "C" __global__ void tpmv_lower_f32(const float *AP, const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    size_t off = (size_t)i * (i + 1) / 2;
    float s = 0.0f;
    for (int k = 0; k <= i; k++) s += AP[off + k] * x[k];
    y[i] = s;
  }
}
