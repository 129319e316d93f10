// Values that differ by path but are the same for every thread (issue 15,
// items 1 and 4); tests/lit/analysis/uniform.test checks the strides derived
// by hand. Regenerate uniform.ptx with:
//   nvcc -arch=sm_90 -ptx -O3 uniform.cu -o uniform.ptx

// A runtime trip count: nvcc unrolls by 4 and adds a remainder loop whose
// counter starts at 0 or at the main loop's exit value. Thread i walks row i.
__global__ void rowsum(const float *a, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0;
  for (int k = 0; k < n; ++k) s += a[i * n + k];
  out[i] = s;
}
// The same on ints.
__global__ void rowsum_int(const int *a, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int s = 0;
  for (int k = 0; k < n; ++k) s += a[i * n + k];
  out[i] = s;
}
// Column walk behind a bounds guard (an early return): coalesced in
// %tid.x in both loops, m floats per step of k.
__global__ void colsum(const float *a, float *out, int n, int m) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j >= m) return;
  float s = 0;
  for (int k = 0; k < n; ++k) s += a[k * m + j];
  out[j] = s;
}
// A constant trip count: fully unrolled, no remainder.
__global__ void rowsum_const(const float *a, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0;
  for (int k = 0; k < 8; ++k) s += a[i * 8 + k];
  out[i] = s;
}
// A trip count that depends on the thread: the remainder start differs by
// thread, so the second loop's accesses stay unknown; the loop reports it.
__global__ void triangle(const float *a, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0;
  for (int k = 0; k < i; ++k) s += a[k * n + i];
  out[i] = s;
}
// A trip count from the block index: the same within a block only.
__global__ void perblock(const float *a, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0;
  for (int k = 0; k < (int)blockIdx.x; ++k) s += a[k * n + i];
  out[i] = s;
}
// Uniform values the polynomial cannot write: n / 3 and n & -4 as offsets.
__global__ void offsets(const int *a, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i + (n & -4)] = a[i + n / 3];
}
// A select on a uniform condition and a min with a uniform operand.
__global__ void select_uniform(const float *a, float *out, int n, int flag) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int off = flag ? n : 2 * n;
  int lim = min(n, 4096);
  out[i] = a[i + off] + a[i + lim];
}
// A select on the thread: not uniform, unknown.
__global__ void select_thread(const float *a, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int off = (threadIdx.x & 1) ? n : 2 * n;
  out[i] = a[i + off];
}
