// Row walks nvcc does not unroll (tests/lit/rowwalk/nounroll.test, gpu-diff's
// "rowwalk nounroll" cases): one element an iteration, an `iv < bound` latch
// on a counter or a pointer; the staged clone's second try (Planner::run).
// nvcc 13 -arch=sm_90 -O3 -ptx.

extern "C" __global__ void rowsum_nounroll(const float *A, float *y, int rows, int cols) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  const float *row = A + (size_t)r * cols;
  float s = 0;
#pragma unroll 1
  for (int j = 0; j < cols; j++) s += row[j];
  y[r] = s;
}
extern "C" __global__ void rownorm_while(const float *A, float *norm, int rows, int cols) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < rows) {
    const float *p = A + (size_t)row * cols;
    const float *end = p + cols;
    float s = 0.0f;
    while (p < end) { s += *p * *p; ++p; }
    norm[row] = sqrtf(s);
  }
}
extern "C" __global__ void rowsum_ne_ptr(const float *A, float *y, int rows, int cols) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  float s = 0;
  for (const float *p = A + (size_t)r * cols, *e = p + cols; p != e; ++p) s += *p;
  y[r] = s;
}
