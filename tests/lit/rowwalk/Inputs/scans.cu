// Scans along a row, a thread per row (issue 29; docs/PASSES.md, rowwalk,
// "Scans"): each iteration reads the element the previous iteration
// stored (`a[j] += a[j-1]`: nvcc reloads a[j-1], which it cannot keep in
// a register across the store through a pointer it does not know). The
// staged clone reads that element from the tile (iteration 0 of a tile:
// the previous tile's stage; tile 0: seeded from global memory). The
// pieces start one element past the row, so only the unaligned clone
// takes them; its write-back writes piece 0 and the 17th word by word.
// Variants: int, size_t and unsigned indices, 4- and 8-byte elements,
// integers and floats, a running maximum, a scan into another array, and
// lookalikes that stay refused. scans.test checks the clones, scans-emu.test
// runs them on the CPU, gpu-diff's "rowwalk scans" cases on the GPU
// (tests/gpu/cases/rowwalkscans.cu includes this file).
// Compiled with: nvcc -arch=sm_90 -O3 -ptx scans.cu -o scans.ptx

// heldout9's scan_rows: an int index, from j = 1.
extern "C" __global__ void scan_i32(int *a, int rows, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < rows)
    for (int j = 1; j < n; j++) a[i * n + j] += a[i * n + j - 1];
}

// A size_t index, floats (each sum rounded as the original rounds it).
extern "C" __global__ void scan_f32(float *a, size_t rows, size_t n) {
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (i < rows)
    for (size_t j = 1; j < n; j++) a[i * n + j] += a[i * n + j - 1];
}

// An unsigned index (nvcc recomputes each address from it).
extern "C" __global__ void scan_u32(unsigned *a, unsigned rows, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < rows)
    for (unsigned j = 1; j < n; j++) a[i * n + j] += a[i * n + j - 1];
}

// 8-byte elements.
extern "C" __global__ void scan_i64(long long *a, int rows, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < rows)
    for (int j = 1; j < n; j++) a[(size_t)i * n + j] += a[(size_t)i * n + j - 1];
}

extern "C" __global__ void scan_f64(double *a, int rows, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < rows)
    for (int j = 1; j < n; j++) a[(size_t)i * n + j] += a[(size_t)i * n + j - 1];
}

// A running maximum in place.
extern "C" __global__ void runmax_i32(int *a, int rows, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < rows)
    for (int j = 1; j < n; j++) a[i * n + j] = max(a[i * n + j], a[i * n + j - 1]);
}

// A scan into another array: s[j] = s[j-1] + x[j] (s read only where
// stored: not copied in; x and s in different allocations, a condition).
extern "C" __global__ void scanto_f32(const float *x, float *s, int rows, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < rows)
    for (int j = 1; j < n; j++) s[i * n + j] = s[i * n + j - 1] + x[i * n + j];
}

// A decaying scan (an exponential moving average in place).
extern "C" __global__ void ema_f32(float *a, int rows, int n, float k) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < rows)
    for (int j = 1; j < n; j++) a[i * n + j] = a[i * n + j] * k + a[i * n + j - 1] * (1.0f - k);
}

// Refused: reads the element two back (stored two iterations before).
extern "C" __global__ void scan2_i32(int *a, int rows, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < rows)
    for (int j = 2; j < n; j++) a[i * n + j] += a[i * n + j - 2];
}

// Refused: a stencil in place (reads the next element too).
extern "C" __global__ void smooth_i32(int *a, int rows, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < rows)
    for (int j = 1; j + 1 < n; j++) a[i * n + j] = a[i * n + j - 1] + a[i * n + j + 1];
}

// Refused: the scan's store under a guard on the data.
extern "C" __global__ void scanpos_i32(int *a, int rows, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < rows)
    for (int j = 1; j < n; j++)
      if (a[i * n + j] > 0) a[i * n + j] += a[i * n + j - 1];
}
