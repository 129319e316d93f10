// Kernels of the differential tests beyond the matrix add: a 2-D launch, a
// bounds-guarded kernel (n not a multiple of the block size) and a
// grid-stride loop (tests/gpu/gpu_diff.cpp).

// 2-D, column-major: consecutive threadIdx.x are ny elements apart.
extern "C" __global__ void add2d_colmajor(const float *a, const float *b, float *c, int ny) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  int i = x * ny + y;
  c[i] = a[i] + b[i];
}

// Bounds-guarded, coalesced: the last block is partly idle.
extern "C" __global__ void saxpy_guarded(const float *x, const float *y, float *out, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = a * x[i] + y[i];
}

// Bounds-guarded, uncoalesced (Fig. 6-a indexing with a guard).
extern "C" __global__ void matadd_guarded(const int *in1, const int *in2, int *out, int n) {
  int i = threadIdx.x * gridDim.x + blockIdx.x;
  if (i < n) out[i] = in1[i] + in2[i];
}

// Grid-stride loop: each thread handles every (blockDim.x*gridDim.x)-th element.
extern "C" __global__ void add_gridstride(const float *a, const float *b, float *c, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) c[i] = a[i] + b[i];
}

// Uncoalesced along threadIdx.x, unit stride along blockIdx.x, with a 2-D
// block: the remap clone's general path (a middle index of extent > 1).
extern "C" __global__ void matadd_blocky(const int *a, const int *b, int *c) {
  int t = threadIdx.y * blockDim.x + threadIdx.x;
  int i = t * gridDim.x + blockIdx.x;
  c[i] = a[i] + b[i];
}

// The indices are also data: every read of them, not only the address
// arithmetic, must see the logical values (the paper's consistency rule).
extern "C" __global__ void index_as_data(const int *a, int *out) {
  int i = threadIdx.x * gridDim.x + blockIdx.x;
  out[i] = a[i] * 3 + i + (int)threadIdx.x * 7 - (int)blockIdx.x;
}

// 64-bit indexing: the index is computed in 64 bits from the start.
extern "C" __global__ void matadd64(const float *a, const float *b, float *c) {
  size_t i = (size_t)threadIdx.x * gridDim.x + blockIdx.x;
  c[i] = a[i] + b[i];
}

// The index comes from an inlined helper.
__device__ __forceinline__ unsigned swizzle(unsigned t, unsigned b, unsigned nb) { return t * nb + b; }
extern "C" __global__ void helper_index(const short *a, short *c) {
  unsigned i = swizzle(threadIdx.x, blockIdx.x, gridDim.x);
  c[i] = a[i] + 1;
}

// Bounds-guarded short-word kernels (the group pass's slow path when n is not
// a multiple of k): 8-bit and 16-bit, with a second guard on a value read
// before any store.
extern "C" __global__ void scale_char_guarded(const unsigned char *in, unsigned char *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = (unsigned char)(in[i] * 3 + 1);
}
extern "C" __global__ void clamp_short_guarded(const short *in, const short *lim, short *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  short v = in[i], l = lim[i];
  out[i] = v > l ? l : (short)(v - 1);
}
// Mixed widths: 8-bit in, 32-bit out (k from the widest access: 4).
extern "C" __global__ void widen_char(const signed char *in, int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i] * 1000 - 7;
}
