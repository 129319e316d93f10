// Row walks through __ldg (tests/lit/rowwalk/ldg.test, gpu-diff's "rowwalk
// ldg" cases): __ldg is inline asm (`ld.global.nc.f32 %f, [%rd35]`), so nvcc
// cannot fold the unrolled iteration's offsets into the address: each load
// reads a register `add.s64 %rd35, %rd50, 4` set in the loop, which the
// staged planner reads as the row register plus 4. nvcc 13 -arch=sm_90 -O3 -ptx.

// size_t indices, __restrict__, __ldg on both operands.
extern "C" __global__ void gemv_ldg(const float *__restrict__ A, const float *__restrict__ x, float *__restrict__ y,
                                    size_t rows, size_t cols) {
  size_t row = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (row < rows) {
    float s = 0.0f;
    for (size_t j = 0; j < cols; ++j) s += __ldg(&A[row * cols + j]) * __ldg(&x[j]);
    y[row] = s;
  }
}

// An int row sum through __ldg, int indices.
extern "C" __global__ void rowsum_ldg_int(const int *__restrict__ A, int *__restrict__ y, int rows, int cols) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < rows) {
    int s = 0;
    for (int j = 0; j < cols; ++j) s += __ldg(&A[(size_t)row * cols + j]);
    y[row] = s;
  }
}
