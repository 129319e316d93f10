// Row walks whose constant trip count is not a multiple of nvcc's unroll
// factor (rotated loops: clone::peelRotatedLoops; tests/lit/rowwalk/rotated.test,
// gpu-diff's "rowwalk rotated" cases). nvcc 13 -arch=sm_90 -O3 -ptx.

// `s = row[0]; for (j = 1; j < 2048; j++)`: 2047 iterations.
extern "C" __global__ void rowsum_from1_c2048(const float *A, float *y, int rows) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  const float *row = A + (size_t)r * 2048;
  float s = row[0];
  for (int j = 1; j < 2048; j++) s += row[j];
  y[r] = s;
}

// Max and argmax, the first element taken before the loop (ties keep the first).
extern "C" __global__ void rowmax_c2048(const int *A, int *maxv, int *argmax, int rows) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  const int *row = A + (size_t)r * 2048;
  int best = row[0], arg = 0;
  for (int j = 1; j < 2048; j++) {
    int v = row[j];
    if (v > best) {
      best = v;
      arg = j;
    }
  }
  maxv[r] = best;
  argmax[r] = arg;
}

extern "C" __global__ void rowmaxf_c4096(const float *A, float *maxv, int *argmax, int rows) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  const float *row = A + (size_t)r * 4096;
  float best = row[0];
  int arg = 0;
  for (int j = 1; j < 4096; j++) {
    float v = row[j];
    if (v > best) {
      best = v;
      arg = j;
    }
  }
  maxv[r] = best;
  argmax[r] = arg;
}

// A matrix-vector product with the first product taken before the loop.
extern "C" __global__ void mv_from1_c2048(const float *A, const float *x, float *y, int rows) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  const float *row = A + (size_t)r * 2048;
  float s = row[0] * x[0];
  for (int j = 1; j < 2048; j++) s += row[j] * x[j];
  y[r] = s;
}

// Integers: the lanes clones are not given the peeled loop (staged only).
extern "C" __global__ void rowsum_from1_int_c1024(const int *A, int *y, int rows) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  const int *row = A + (size_t)r * 1024;
  int s = row[0];
  for (int j = 1; j < 1024; j++) s += row[j];
  y[r] = s;
}

// 2047 iterations from j = 0 of rows of 2048: the loop's first block reads
// the row through `%rd5 = %rd15 - 8`, set in the previous iteration's
// second block (or the peeled copy of it): read as [%rd15+4].
extern "C" __global__ void rowsum_2047_of_2048(const float *A, float *y, int rows) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  const float *row = A + (size_t)r * 2048;
  float s = 0;
  for (int j = 0; j < 2047; j++) s += row[j];
  y[r] = s;
}

// The same on rows of 2047 (8188 bytes apart): no warp's rows are all
// 16-byte aligned, so no staged clone.
extern "C" __global__ void rowsum_c2047(const float *A, float *y, int rows) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  const float *row = A + (size_t)r * 2047;
  float s = 0;
  for (int j = 0; j < 2047; j++) s += row[j];
  y[r] = s;
}

// Two rows of 1001 of each 1024 floats (a product): the first block's loads
// go through registers the second sets to `row - 4`: read as [row+-4].
extern "C" __global__ void dot_rows_c1001(const float *A, const float *B, float *y, int rows) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  float s = 0;
  for (int j = 0; j < 1001; j++) s += A[(size_t)r * 1024 + j] * B[(size_t)r * 1024 + j];
  y[r] = s;
}
