// Row walks through a 32-bit index that start past the row's first element
// (issue 29; RowWalkIndex.cpp, wideIndexIv): `for (unsigned j = 1; ...)
// a[r * cols + j]` (heldout8's nw row_max, a row sum seeded with its first
// element): nvcc forms each unrolled copy's index as (j + r*cols) + k, the
// sum of the counter and the invariant first, the constant last, which the
// staged clone refused until the twenty-fourth session ("the row register
// ... is not a 64-bit induction variable"). index32from1.test checks the
// clones, index32from1-emu.test runs them on the CPU, gpu-diff's "rowwalk
// from1" cases on the GPU (tests/gpu/cases/rowwalkfrom1.cu includes this
// file). Compiled with: nvcc -arch=sm_90 -O3 -ptx index32from1.cu -o index32from1.ptx

// heldout8's row_max (Needleman-Wunsch's score rows): a branchy maximum.
extern "C" __global__ void row_max(const int *score, int *out, unsigned rows, unsigned cols) {
  unsigned r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < rows) {
    int m = score[r * cols];
    for (unsigned j = 1; j < cols; j++) {
      int v = score[r * cols + j];
      if (v > m) m = v;
    }
    out[r] = m;
  }
}

// A float row sum seeded with its first element (the order kept: exact).
extern "C" __global__ void rowsum_from1(const float *a, float *out, unsigned rows, unsigned cols) {
  unsigned r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < rows) {
    float s = a[r * cols];
    for (unsigned j = 1; j < cols; j++) s += a[r * cols + j];
    out[r] = s;
  }
}

// A matrix-vector product past a leading column (`int` counter, unsigned row).
extern "C" __global__ void mv_from1(const float *A, const float *x, float *y, unsigned rows, unsigned n) {
  unsigned r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < rows) {
    float s = 0.0f;
    for (unsigned j = 1; j < n; j++) s += A[r * n + j] * x[j];
    y[r] = s;
  }
}

// Doubles from the third element.
extern "C" __global__ void rowsum_from2_f64(const double *a, double *out, unsigned rows, unsigned cols) {
  unsigned r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < rows) {
    double s = 0.0;
    for (unsigned j = 2; j < cols; j++) s += a[r * cols + j];
    out[r] = s;
  }
}

// A neighbour list walked by an unsigned atom index (heldout8's
// lj_force_rows, after SHOC's MD): each neighbour's position gathered, a
// guard on the distance inside the loop (a loop of several blocks).
extern "C" __global__ void neigh_force(float *force, const float4 *pos, int cnt, const int *neigh, float cutsq,
                                       int inum) {
  unsigned idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx < unsigned(inum)) {
    float4 ip = pos[idx];
    float f = 0.0f;
    for (int j = 0; j < cnt; j++) {
      int k = neigh[idx * cnt + j];
      float4 jp = pos[k];
      float dx = ip.x - jp.x, dy = ip.y - jp.y, dz = ip.z - jp.z;
      float r2 = dx * dx + dy * dy + dz * dz;
      if (r2 < cutsq) f += cutsq - r2;
    }
    force[idx] = f;
  }
}
