// Row walks whose row is read under a guard on indices only (issue 29,
// item 3; docs/PASSES.md, rowwalk, "Guards inside the loop"): the loop
// skips elements of the row by their position (`j % 3`, `j & 1`, a block
// of the row), so the staged clone's tiles read elements the loop does
// not; each warp checks that its tiles stay inside the row's allocation
// (its end a launch argument), else it runs the original loop. A guard on
// data loaded in the loop (`if (mask[j])`) is refused: it may skip most of
// the row. tests/lit/rowwalk/idxguards.test checks the clones,
// idxguards-emu.test runs them on the CPU, gpu-diff's "rowwalk idxguards"
// cases on the GPU (tests/gpu/cases/rowwalkidxguards.cu includes this file).
// Compiled with: nvcc -arch=sm_90 -O3 -ptx idxguards.cu -o idxguards.ptx

// Every third element skipped (ints: y[i] = sum of a[i][j], j % 3 != 0).
extern "C" __global__ void mod3_i32(const int *a, int *y, int n, int m) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int s = 0;
    for (int j = 0; j < m; j++)
      if (j % 3) s += a[(long)i * m + j];
    y[i] = s;
  }
}

// The odd columns of a float row times x (in order: exact).
extern "C" __global__ void odd_f32(const float *a, const float *x, float *y, int n, int m) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float s = 0.0f;
    for (int j = 0; j < m; j++)
      if (j & 1) s += a[(long)i * m + j] * x[j];
    y[i] = s;
  }
}

// Block Jacobi: the row's own 16 x 16 diagonal block skipped.
extern "C" __global__ void blockjacobi_f32(const float *a, const float *x, float *y, int n, int m) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float s = 0.0f;
    for (int j = 0; j < m; j++)
      if ((j >> 4) != (i >> 4)) s += a[(long)i * m + j] * x[j];
    y[i] = s;
  }
}

// One column in 16 (the sparsest guard on indices tried: the original
// reads one 32-byte sector in two, the tiles all of them).
extern "C" __global__ void every16_f32(const float *a, float *y, int n, int m) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float s = 0.0f;
    for (int j = 0; j < m; j++)
      if (j % 16 == 0) s += a[(long)i * m + j];
    y[i] = s;
  }
}

// Doubles, a 32-bit index.
extern "C" __global__ void mod3_f64(const double *a, double *y, int n, int m) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    double s = 0.0;
    for (int j = 0; j < m; j++)
      if (j % 3 != 1) s += a[i * m + j];
    y[i] = s;
  }
}

// A triangular matrix-vector product whose diagonal is implied (unit
// diagonal): `k == i` reads x alone, the rest of the row times x. nvcc
// unrolls the loop by 4 with an if/else per element and leaves the
// remainder loop with a jump latch (`@p bra out; bra.uni head`), which the
// planner's copy folds (clone::foldJumpLatches); the per-lane form (each
// row its own length) with the allocation checks.
extern "C" __global__ void trmv_unit_f32(const float *a, const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float s = 0.0f;
    for (int k = 0; k <= i; k++) s += (k == i) ? x[k] : a[i * n + k] * x[k];
    y[i] = s;
  }
}

// Unsigned 32-bit indices (the ninth held-out batch's row L1 norm): nvcc
// computes each unrolled element's index beside its guarded load, `(j + 1)
// + i*cols` widened, so the address is computed under the guard (in the
// load's block) from the counter plus a constant plus an invariant.
extern "C" __global__ void l1_skip3_u32(const float *M, float *norm, unsigned rows, unsigned cols) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < rows) {
    float s = 0.0f;
    for (unsigned j = 0; j < cols; j++)
      if (j % 3) s += fabsf(M[i * cols + j]);
    norm[i] = s;
  }
}

// Rows of bytes and shorts (the sixth offline probe): their staged clone
// reads 2 or 4 elements from the tile as one vector load, which must not
// take a guarded load (it sits at the first load of its window: a later
// element's guard let through read a stale register).
extern "C" __global__ void mod3_u8(const unsigned char *a, int *y, int n, int m) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int s = 0;
    for (int j = 0; j < m; j++)
      if (j % 3 != 1) s += a[(size_t)i * m + j];
    y[i] = s;
  }
}

extern "C" __global__ void mod3_s16(const short *a, int *y, int n, int m) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int s = 0;
    for (int j = 0; j < m; j++)
      if (j % 3) s += a[(size_t)i * m + j];
    y[i] = s;
  }
}

extern "C" __global__ void mod5_u8_f32(const unsigned char *a, float *y, int n, int m) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float s = 0.0f;
    for (int j = 0; j < m; j++)
      if (j % 5 != 0) s += a[i * m + j] * 0.5f;
    y[i] = s;
  }
}

// Refused: a mask read in the loop (it may skip most of the row).
extern "C" __global__ void mask_f32(const float *a, const int *mask, float *y, int n, int m) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float s = 0.0f;
    for (int j = 0; j < m; j++)
      if (mask[j]) s += a[(long)i * m + j];
    y[i] = s;
  }
}
