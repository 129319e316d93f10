// Two accumulators, one adding the other's running value (a prefix sum:
// `t += a; s += t`), in loops nvcc leaves rolled (`#pragma unroll 1`): each
// update reads t after t's own update in the same iteration. The lanes
// clones split such a loop as if s and t were independent sums, so each
// lane's s added its own partial t, not the prefix over the lanes before
// it: wrong results (tests/lit/rowwalk/prefix.test; the twentieth
// session's fourth offline probe found it, in the rules of every session
// before). Refused since: a chain's closing value may not be read again in
// the loop. (nvcc's default unroll by 4 reads t through links: refused
// before too.) The staged clones run the body as it is: exact.
//   nvcc -arch=sm_90 -O3 -ptx prefix.cu -o prefix.ptx   (nvcc 13.0)
extern "C" __global__ void pf_addadd(const int *A, int *y, int *z, int rows, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= rows) return;
  const int *p = A + (size_t)i * n, *e = p + n;
  int s = 5, t = 0;
#pragma unroll 1
  while (p != e) { t += *p++; s += t; }
  y[i] = s;
  z[i] = t;
}
extern "C" __global__ void pf_subsub(const int *A, int *y, int *z, int rows, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= rows) return;
  const int *p = A + (size_t)i * n, *e = p + n;
  int s = 5, t = 0;
#pragma unroll 1
  while (p != e) { t -= *p++; s -= t; }
  y[i] = s;
  z[i] = t;
}
extern "C" __global__ void pf_max(const int *A, int *y, int *z, int rows, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= rows) return;
  const int *p = A + (size_t)i * n, *e = p + n;
  int s = 5, t = 0;
#pragma unroll 1
  while (p != e) { t += *p++; s = max(s, t); }
  y[i] = s;
  z[i] = t;
}
extern "C" __global__ void pf_idx(const int *A, int *y, int *z, int rows, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= rows) return;
  int s = 5, t = 0;
#pragma unroll 1
  for (int j = 0; j != n; j++) { t += A[(size_t)i * n + j]; s += t; }
  y[i] = s;
  z[i] = t;
}
// Still split: two independent sums in one loop.
extern "C" __global__ void two_sums(const int *A, int *y, int *z, int rows, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= rows) return;
  int s = 5, t = 0;
#pragma unroll 1
  for (int j = 0; j != n; j++) { int a = A[(size_t)i * n + j]; t += a; s += a * 3; }
  y[i] = s;
  z[i] = t;
}
