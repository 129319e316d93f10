// Row walks whose loads along the row run under a guard on data loaded in
// the loop (masked rows), for the rowwalk pass's option rowwalk-masked
// (tests/lit/rowwalk/masked.test, masked-emu.test; RowWalkGuards.cpp).
// Compiled with
//   nvcc -arch=sm_90 -O3 -ptx masked.cu -o masked.ptx
// (nvcc 13.0). The same kernels run on the GPU in tests/gpu/cases/masked.cu
// (gpu-diff "rowwalk masked:"). Forms of the twelfth held-out batch's
// h12_masked_rows.

// A byte mask over A's row, with a threshold (the share of the row the
// guard lets through: t = 0 nearly all, t = 252 about 1 in 85).
extern "C" __global__ void masked_gemv_u8(const unsigned char *mask, const float *A, const float *x, float *y,
                                          int rows, int n, int t) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < rows) {
    float s = 0.0f;
    for (int j = 0; j < n; j++)
      if (mask[i * n + j] > t) s += A[i * n + j] * x[j];
    y[i] = s;
  }
}

// Non-zeros of P counted and dotted with Q (Q read only where P is not 0):
// integers, size_t indices.
extern "C" __global__ void sparse_pair_dot(const int *P, const int *Q, int *cnt, long long *dot, size_t rows,
                                           size_t cols) {
  size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < rows) {
    int c = 0;
    long long s = 0;
    for (size_t j = 0; j < cols; j++) {
      int p = P[i * cols + j];
      if (p != 0) {
        c++;
        s += (long long)p * Q[i * cols + j];
      }
    }
    cnt[i] = c;
    dot[i] = s;
  }
}

// Two ways on loaded data, a third row read on one of them: unsigned
// indices.
extern "C" __global__ void three_way_branch(const float *A, const float *B, const float *C, const float *x,
                                            float *out, unsigned rows, unsigned cols) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < rows) {
    float d = 0.0f;
    for (unsigned j = 0; j < cols; j++) {
      unsigned k = i * cols + j;
      float a = A[k], b = B[k];
      if (b > a)
        d += b - a;
      else
        d += C[k] * x[j];
    }
    out[i] = d;
  }
}
