// Integer accumulators that subtract (tests/lit/rowwalk/subacc.test,
// subacc-emu.test): `s -= a` is `sub s, s, a`, a reduction whose lanes
// add up (each lane subtracts its share from 0, lane 0 from the loop's
// start; exact modulo 2^32); `s += a; s -= b` mixes the two; `s = a - s`
// nvcc unrolls into alternating sub and add of the accumulator (`sub t,
// s, a0; add u, a1, t; ...`), a chain of both. Before the twentieth session
// `sub` was no reduction ("neither an induction variable nor an
// accumulator"): staged only. Floats: nvcc writes `s -= a` as an add of
// the negation, lanes only with --reassociate.
//   nvcc -arch=sm_90 -O3 -ptx subacc.cu -o subacc.ptx   (nvcc 13.0)
extern "C" __global__ void rowsum_sub(const int *A, int *y, int rows, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < rows) {
    int s = 1000;
    for (int j = 0; j < n; j++) s -= A[(size_t)i * n + j];
    y[i] = s;
  }
}
extern "C" __global__ void rowsum_addsub(const int *A, const int *B, int *y, int rows, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < rows) {
    int s = 0;
    for (int j = 0; j < n; j++) { s += A[(size_t)i * n + j]; s -= B[(size_t)i * n + j]; }
    y[i] = s;
  }
}
extern "C" __global__ void rowsum_rsub(const int *A, int *y, int rows, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < rows) {
    int s = 0;
    for (int j = 0; j < n; j++) s = A[(size_t)i * n + j] - s;
    y[i] = s;
  }
}
extern "C" __global__ void rowsum_subf(const float *A, float *y, int rows, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < rows) {
    float s = 0;
    for (int j = 0; j < n; j++) s -= A[(size_t)i * n + j];
    y[i] = s;
  }
}
// char4 pixels, `s += c.x * c.w - c.y + c.z`: nvcc's unrolled loop mixes
// sub, add, dp4a (four products at once, prmt-packed) and mad.lo into one
// accumulator chain ending in mad.lo.
extern "C" __global__ void rowsum_char4(const char4 *A, int *y, int n, int m) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int s = 0;
    for (int j = 0; j < m; j++) {
      char4 c = A[i * m + j];
      s += c.x * c.w - c.y + c.z;
    }
    y[i] = s;
  }
}
