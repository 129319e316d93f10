// Row walks that leave the loop early (issue 29, item 3: early exits), one
// thread per row: the rowwalk pass's staged clone with early exits
// (RowWalkGuards.cpp, RowWalkStaged.cpp). nvcc 13 keeps these loops rolled
// (one element an iteration, `j < m`). Each warp checks that its rows'
// tiles lie in the allocation of the row's base pointer (the runtime passes
// its end), else it runs the original loop.
// Compiled: nvcc -arch=sm_90 -O3 -ptx exits.cu -o exits.ptx

// Sum up to the first zero (a sentinel), a 64-bit row offset and an int j.
extern "C" __global__ void exit_zero_f32(const float *a, float *y, int n, int m) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float s = 0.0f;
    for (int j = 0; j < m; j++) {
      float v = a[(long)i * m + j];
      if (v == 0.0f) break;
      s += v;
    }
    y[i] = s;
  }
}

// The same in 32-bit int index arithmetic (`a[i*m + j]`).
extern "C" __global__ void exit_zero_i32(const int *a, int *y, int n, int m) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int s = 0;
    for (int j = 0; j < m; j++) {
      int v = a[i * m + j];
      if (v == 0) break;
      s += v;
    }
    y[i] = s;
  }
}

// The first position of a key (another target than the loop's end: pos is
// set on the way out).
extern "C" __global__ void find_first_i32(const int *a, int *y, int n, int m, int key) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int pos = -1;
  for (int j = 0; j < m; j++)
    if (a[i * m + j] == key) {
      pos = j;
      break;
    }
  y[i] = pos;
}

// Two exits: a zero ends the row; a value over a limit returns early with a
// store of its own.
extern "C" __global__ void exit_two_f32(const float *a, float *y, int n, int m, float limit) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const float *row = a + (size_t)i * m;
  float s = 0.0f;
  for (int j = 0; j < m; j++) {
    float v = row[j];
    if (v == 0.0f) break;
    if (v > limit) {
      y[i] = -s;
      return;
    }
    s = s * 0.5f + v;
  }
  y[i] = s;
}

// A size_t counter, the row as base + 4 * (j + i*m) in 64 bits (refused
// until the thirty-third session; Planner::offsetAddress's scaled form).
extern "C" __global__ void exit_sizet_f32(const float *a, float *y, int n, size_t m) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float s = 0.0f;
  for (size_t j = 0; j < m; j++) {
    float v = a[i * m + j];
    if (v == 0.0f) break;
    s += v;
  }
  y[i] = s;
}

// Refused: the loop reads a row ahead through a pointer that is not a
// parameter (a pointer loaded from memory: its allocation cannot be asked).
extern "C" __global__ void exit_loaded_base(const float *const *rows, float *y, int n, int m) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const float *row = rows[i];
  float s = 0.0f;
  for (int j = 0; j < m; j++) {
    float v = row[j];
    if (v == 0.0f) break;
    s += v;
  }
  y[i] = s;
}
