"""The CUDA C++ kernels of the Python tests and examples, written the way
RawKernel users write them (CuPy style: extern "C", plain pointers, int
indices). tests/python/test_nvrtc.py checks what ptx-opt makes of NVRTC's
PTX for them without a GPU; tests/python/test_gpu.py runs them."""

# One thread per row: y[i] = sum_j A[i*n+j] * x[j]. Consecutive threads read
# addresses n floats apart (uncoalesced); the rowwalk pass's staged clone
# reads the rows through shared memory, summing in the same order (exact).
ROWWALK = r'''
extern "C" __global__ void rowwalk(const float *A, const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float s = 0.0f;
    for (int j = 0; j < n; j++) s += A[i * n + j] * x[j];
    y[i] = s;
  }
}
'''

# A column-major matrix add with a 2-D grid whose x runs along the columns:
# element (row, col) is at col * rows + row, so consecutive threadIdx.x are
# `rows` floats apart (the paper's Fig. 6-a in two dimensions).
COLMAJOR_ADD = r'''
extern "C" __global__ void matadd_colmajor(const float *a, const float *b, float *c, int rows) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int i = col * rows + row;
  c[i] = a[i] + b[i];
}
'''
