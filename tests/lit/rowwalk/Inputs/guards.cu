// Row walks with guards inside the loop (issue 29, item 3): the rowwalk
// pass's staged clone on loops of several blocks (RowWalkGuards.cpp).
// tests/lit/rowwalk/guards.test checks the clones and the refusals;
// tests/gpu/cases/rowwalkguards.cu runs them (tests/gpu/CasesRowWalkGuards.cpp);
// bench/rowwalk/guards.cu times them. Compiled with
//   nvcc -arch=sm_90 -O3 -ptx guards.cu -o guards.ptx
// (nvcc 13.0).

// Skip-zero (sparse rows stored dense): a branch around each element's
// product; the row load runs in every iteration.
extern "C" __global__ void skipzero_f32(const float *a, const float *x, float *y, int n, int m) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    const float *row = a + (long)i * m;
    float s = 0.0f;
    for (int j = 0; j < m; j++)
      if (row[j] != 0.0f) s += row[j] * x[j];
    y[i] = s;
  }
}

extern "C" __global__ void skipzero_i32(const int *a, const int *x, int *y, int n, int m) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    const int *row = a + (long)i * m;
    int s = 0;
    for (int j = 0; j < m; j++)
      if (row[j] != 0) s += row[j] * x[j];
    y[i] = s;
  }
}

// A max written as a branch that stays one (a load under it): mx and the
// x of the largest element.
extern "C" __global__ void branchmax_f32(const float *a, const float *x, float *y, int n, int m) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    const float *row = a + (long)i * m;
    float mx = -1e30f, best = 0.0f;
    for (int j = 0; j < m; j++) {
      float v = row[j];
      if (v > mx) {
        mx = v;
        best = x[j];
      }
    }
    y[i] = mx + best;
  }
}

extern "C" __global__ void branchmax_i32(const int *a, const int *x, int *y, int n, int m) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    const int *row = a + (long)i * m;
    int mx = -2147483647 - 1, best = 0;
    for (int j = 0; j < m; j++) {
      int v = row[j];
      if (v > mx) {
        mx = v;
        best = x[j];
      }
    }
    y[i] = mx ^ best;
  }
}

// A guard on x (the row load before it, in every iteration).
extern "C" __global__ void guardx_f32(const float *a, const float *x, const float *w, float *y, int n, int m) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float s = 0.0f;
    for (int j = 0; j < m; j++) {
      float v = a[(long)i * m + j];
      s += v;
      if (x[j] > 50.0f) s += v * w[j];
    }
    y[i] = s;
  }
}

// 32-bit unsigned index (issue 29 item 1 with a guard): a[i * m + j].
extern "C" __global__ void skipzero_u32(const float *a, const float *x, float *y, unsigned n, unsigned m) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float s = 0.0f;
    for (unsigned j = 0; j < m; j++)
      if (a[i * m + j] != 0.0f) s += a[i * m + j] * x[j];
    y[i] = s;
  }
}

// Pointer form: p walks the row to its end.
extern "C" __global__ void skipzero_ptr(const int *a, const int *x, int *y, int n, int m) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    const int *p = a + (size_t)i * m, *e = p + m;
    const int *q = x;
    int s = 0;
    for (; p != e; ++p, ++q)
      if (*p) s += *p * *q;
    y[i] = s;
  }
}

// A constant row length: the row register is the pointer minus 16 bytes.
extern "C" __global__ void skipzero_c4096(const float *a, const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    const float *row = a + (size_t)i * 4096;
    float s = 0.0f;
    for (int j = 0; j < 4096; j++)
      if (row[j] != 0.0f) s += row[j] * x[j];
    y[i] = s;
  }
}

// The row through a 64-bit offset plus a base register per element (int i
// * 4096 + j: `a` and `a + 4`): one row (Planner::siblingRow, the thirty-fourth
// session; refused before: the loads through each base did not cover a piece).
extern "C" __global__ void skipzero_i4096(const float *a, const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float s = 0.0f;
    for (int j = 0; j < 4096; j++)
      if (a[i * 4096 + j] != 0.0f) s += a[i * 4096 + j] * x[j];
    y[i] = s;
  }
}

// Refused: an early exit (the tiles would read the row past it).
extern "C" __global__ void earlyexit_f32(const float *a, float *y, int n, int m) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float s = 0.0f;
    for (int j = 0; j < m; j++) {
      float v = a[(long)i * m + j];
      if (v < 0.0f) break;
      s += v;
    }
    y[i] = s;
  }
}

// Refused: a store under the guard.
extern "C" __global__ void guardstore_f32(const float *a, float *y, int *hits, int n, int m) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float s = 0.0f;
    for (int j = 0; j < m; j++) {
      float v = a[(long)i * m + j];
      if (v < 0.0f) hits[j] = i;
      s += v;
    }
    y[i] = s;
  }
}

// Refused: the row is read only under the guard (the tiles would read
// elements the loop may not).
extern "C" __global__ void guardedrow_f32(const float *a, const float *x, float *y, int n, int m) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float s = 0.0f;
    for (int j = 0; j < m; j++)
      if (x[j] > 50.0f) s += a[(long)i * m + j];
    y[i] = s;
  }
}
