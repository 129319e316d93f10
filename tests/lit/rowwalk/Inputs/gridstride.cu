// Row walks inside a grid-stride loop over rows (`for (i = tid; i < n; i +=
// blockDim.x * gridDim.x)` around the walk), for rowwalk's clones of the
// kernel of one row per thread they are (clone::unloopGridStride with
// GridStrideLoops::Outer; tests/lit/rowwalk/gridstride.test,
// gridstride-emu.test; issue 29). Compiled with
//   nvcc -arch=sm_90 -O3 -ptx gridstride.cu -o gridstride.ptx
// (nvcc 13.0). The same kernels run on the GPU in tests/gpu/cases/rowwalkgridstride.cu
// (gpu-diff "gridstride:").

// A GEMV: nvcc unswitches the loop over rows on m > 0 (a second grid-stride
// loop storing y[i] = 0) and widens i in its body (the latch adds the
// stride to i truncated back from 64 bits).
extern "C" __global__ void gemv_gs_f32(const float *A, const float *x, float *y, int n, int m) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    float s = 0.0f;
    for (int j = 0; j < m; j++) s += A[(size_t)i * m + j] * x[j];
    y[i] = s;
  }
}

// Integer row sums through an `unsigned` index: lanes clones and the staged one.
extern "C" __global__ void rowsum_gs_u32(const unsigned *A, unsigned *y, unsigned n, unsigned m) {
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    unsigned s = 0;
    for (unsigned j = 0; j < m; j++) s += A[i * m + j];
    y[i] = s;
  }
}

// Scalar CSR SpMV in ints (exact): the rounds clone.
extern "C" __global__ void csr_gs_i32(const int *rowptr, const int *col, const int *val, const int *x, int *y,
                                      int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    int s = 0;
    for (int j = rowptr[i]; j < rowptr[i + 1]; j++) s += val[j] * x[col[j]];
    y[i] = s;
  }
}

// The same in floats (the rounds clone only with --reassociate).
extern "C" __global__ void csr_gs_f32(const int *rowptr, const int *col, const float *val, const float *x, float *y,
                                      int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    float s = 0.0f;
    for (int j = rowptr[i]; j < rowptr[i + 1]; j++) s += val[j] * x[col[j]];
    y[i] = s;
  }
}

// Refused: the loop over rows carries a value (a running maximum over the
// thread's rows, stored after the loop).
extern "C" __global__ void rowmax_carried(const float *A, float *best, int n, int m) {
  float b = -1.0f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    float s = 0.0f;
    for (int j = 0; j < m; j++) s += A[(size_t)i * m + j];
    b = fmaxf(b, s);
  }
  best[blockIdx.x * blockDim.x + threadIdx.x] = b;
}
