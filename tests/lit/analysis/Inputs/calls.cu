// Index from a __noinline__ device function: the call's return value is
// read with ld.param from retval0 and must not be taken for a kernel
// parameter (issue 15, item 4). Regenerate calls.ptx with:
//   nvcc -arch=sm_90 -ptx -O3 calls.cu -o calls.ptx
__device__ __noinline__ int thread_index() { return blockIdx.x * blockDim.x + threadIdx.x; }
__device__ __noinline__ int scaled(int i, int k) { return i * k + 3; }

__global__ void call_index(const float *in, float *out) {
  int i = thread_index();
  out[i] = in[i] * 2.0f;
}
__global__ void call_args(const int *in, int *out, int k) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j = scaled(i, k);
  out[i] = in[j];
}
// A callee whose result is not affine (a loop sum): unknown, cause call.
__device__ __noinline__ int triangle(int n) {
  int s = 0;
  for (int j = 0; j < n; ++j) s += j;
  return s;
}
__global__ void call_loop(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[triangle(n) + i];
}
// Argument is thread dependent, callee returns it unchanged plus a
// parameter-derived constant: still %tid.x with stride 8 bytes.
__device__ __noinline__ long twice(long i) { return 2 * i; }
__global__ void call_long(const double *in, double *out) {
  long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
  out[i] = in[twice(i)];
}
