// Row walks inside an outer loop with one trip count for all threads, for
// the rowwalk pass's option rowwalk-nested=any (tests/lit/rowwalk/nested.test,
// nested-emu.test; RowWalkTri.cpp, skipOuterLoop; issue 29). Compiled with
//   nvcc -arch=sm_90 -O3 -ptx nested.cu -o nested.ptx
// (nvcc 13.0). The same kernels run on the GPU in tests/gpu/cases/nested.cu
// (gpu-diff "nested:"). The outer loop is of several blocks (nvcc's paths for
// an empty inner loop, the store after it), its trip count a parameter: a
// full syrk over every j, a batched GEMV, iterations inside the kernel.

// Full syrk, C = alpha * A * A^T + beta * Cin: thread i walks row i of A
// against every row j (A[j*m + k]: the same address in every lane).
extern "C" __global__ void syrk_full_f32(const float *A, const float *Cin, float *C, int n, int m, float alpha,
                                         float beta) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    for (int j = 0; j < n; j++) {
      float s = 0.0f;
      for (int k = 0; k < m; k++) s += A[i * m + k] * A[j * m + k];
      C[i * n + j] = alpha * s + beta * Cin[i * n + j];
    }
  }
}

// The same in integers through unsigned indices (exact; A's rows by 32-bit
// index arithmetic).
extern "C" __global__ void syrk_full_u32(const int *A, int *C, unsigned n, unsigned m) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    for (unsigned j = 0; j < n; j++) {
      int s = 0;
      for (unsigned k = 0; k < m; k++) s += A[i * m + k] * A[j * m + k];
      C[i * n + j] = s;
    }
  }
}

// A batched GEMV, a thread per row looping over the batches: unsigned
// indices (b * rows + i) * cols + j.
extern "C" __global__ void gemv_batched_f32(const float *A, const float *x, float *y, unsigned batches,
                                            unsigned rows, unsigned cols) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < rows) {
    for (unsigned b = 0; b < batches; b++) {
      float s = 0.0f;
      for (unsigned j = 0; j < cols; j++) s += A[(b * rows + i) * cols + j] * x[b * cols + j];
      y[b * rows + i] = s;
    }
  }
}

// The batched GEMV in double with size_t indices (64-bit pointers).
extern "C" __global__ void gemv_batched_f64(const double *A, const double *x, double *y, size_t batches, size_t rows,
                                            size_t cols) {
  size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < rows) {
    for (size_t b = 0; b < batches; b++) {
      double s = 0.0;
      for (size_t j = 0; j < cols; j++) s += A[(b * rows + i) * cols + j] * x[b * cols + j];
      y[b * rows + i] = s;
    }
  }
}

// Iterations inside the kernel: gradient steps on one coefficient per row,
// the whole row read in every step (the step count a parameter).
extern "C" __global__ void row_fit_gd(const float *A, const float *v, float *coef, int rows, unsigned cols, float lr,
                                      int steps) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= unsigned(rows)) return;
  float a = 0.0f;
  for (int step = 0; step < steps; step++) {
    float g = 0.0f;
    for (unsigned j = 0; j < cols; j++) g += (a * v[j] - A[i * cols + j]) * v[j];
    a -= lr * g;
  }
  coef[i] = a;
}
