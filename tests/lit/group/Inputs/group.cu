// Inputs of the group pass's lit tests (Inputs/group.ptx is nvcc 13.0's output:
// nvcc -arch=sm_90 -ptx group.cu -o group.ptx, in this folder).

// Transformed.
extern "C" __global__ void add_char(const unsigned char *a, const unsigned char *b, unsigned char *c) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  c[i] = a[i] + b[i];
}
extern "C" __global__ void add_short_guarded(const short *a, short *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] * 3;
}
extern "C" __global__ void add_float(const float *a, const float *b, float *c) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  c[i] = a[i] + b[i];
}
extern "C" __global__ void add_double(const double *a, double *c) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  c[i] = a[i] * 2.0;
}
extern "C" __global__ void widen(const signed char *a, int *c) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  c[i] = a[i] * 1000;
}
// Fig. 6-a for 8-bit data: coalesce's swap and split clones are grouped.
extern "C" __global__ void matadd_6a_char(const char *a, const char *b, char *c) {
  int i = threadIdx.x * gridDim.x + blockIdx.x;
  c[i] = a[i] + b[i];
}

// Refused.
extern "C" __global__ void gridstride(const char *a, char *c, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) c[i] = a[i] + 1;
}
extern "C" __global__ void shifted(const char *a, char *c) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  c[i] = a[i + 1];
}
extern "C" __global__ void pitched(const char *a, char *c, int pitch) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
  c[y * pitch + x] = a[y * pitch + x] + 1;
}
struct Pixel { unsigned char r, g, b; };
extern "C" __global__ void aos(const Pixel *p, unsigned char *gray) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  gray[i] = (p[i].r + p[i].g + p[i].b) / 3;
}
extern "C" __global__ void store_then_guard(char *c, const char *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  c[i] = 1;
  if (a[i] > n) return;
  c[i] = n / (a[i] + 1000);
}
extern "C" __global__ void with_shared(const char *a, char *c) {
  __shared__ char s[256];
  s[threadIdx.x] = a[blockIdx.x * blockDim.x + threadIdx.x];
  __syncthreads();
  c[blockIdx.x * blockDim.x + threadIdx.x] = s[255 - threadIdx.x];
}
// A gather: the indices are read as 16-byte vectors, the gathered bytes stay
// per replica; the 8-bit store becomes 4 bytes.
extern "C" __global__ void gather(const char *a, const int *idx, char *c) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  c[i] = a[idx[i]];
}
// A misaligned store: refused (a split store would touch its neighbours).
extern "C" __global__ void shifted_store(const char *a, char *c) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  c[i + 1] = a[i];
}
// The row below: `a + (y+1)*w` has the lone term `w` (a 32-bit int), which
// the analysis must not take for the base pointer.
extern "C" __global__ void row_below(const char *a, char *c, int w) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
  c[y * w + x] = a[(y + 1) * w + x];
}
// An if-then region around a gather (rotation 2's shape): predicated per
// replica in the fast path.
extern "C" __global__ void cond_gather(const char *a, const int *idx, char *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j = idx[i];
  char v = 0;
  if (j >= 0 && j < n) v = a[j];
  c[i] = v;
}
// A constant stored: one register holds it for every replica.
extern "C" __global__ void fill(char *c, float *f) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  c[i] = 7;
  f[i] = 1.5f;
}
