// Header-free CUDA for clang: compiled with
//   clang-14 -x cuda --cuda-device-only -nocudainc -nocudalib --cuda-gpu-arch=sm_80 -S
#define __global__ __attribute__((global))
#define __device__ __attribute__((device))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))

__device__ static inline unsigned tid_x() { return __nvvm_read_ptx_sreg_tid_x(); }
__device__ static inline unsigned ntid_x() { return __nvvm_read_ptx_sreg_ntid_x(); }
__device__ static inline unsigned ctaid_x() { return __nvvm_read_ptx_sreg_ctaid_x(); }
__device__ static inline unsigned nctaid_x() { return __nvvm_read_ptx_sreg_nctaid_x(); }

// Paper kernel: uncoalesced matrix add.
__global__ void matAddInt(int *c, const int *a, const int *b) {
  unsigned i = tid_x() * nctaid_x() + ctaid_x();
  c[i] = a[i] + b[i];
}

__global__ void matAddChar(char *c, const char *a, const char *b) {
  unsigned i = tid_x() * nctaid_x() + ctaid_x();
  c[i] = a[i] + b[i];
}

__global__ void saxpy(int n, float alpha, const float *__restrict__ x,
                      float *__restrict__ y) {
  for (int i = ctaid_x() * ntid_x() + tid_x(); i < n; i += ntid_x() * nctaid_x())
    y[i] = alpha * x[i] + y[i];
}

__constant__ float coeffs[4];

__global__ void blockSum(const float *in, float *out, int n) {
  __shared__ float s[256];
  unsigned t = tid_x();
  unsigned i = ctaid_x() * ntid_x() + t;
  s[t] = (i < (unsigned)n ? in[i] : 0.f) * coeffs[t & 3];
  __syncthreads();
  for (unsigned k = ntid_x() / 2; k > 0; k >>= 1) {
    if (t < k) s[t] += s[t + k];
    __syncthreads();
  }
  if (t == 0) out[ctaid_x()] = s[0];
}

__device__ __attribute__((noinline)) int clampi(int v, int lo, int hi) {
  return v < lo ? lo : (v > hi ? hi : v);
}

__global__ void clampKernel(int *v, int n) {
  int i = ctaid_x() * ntid_x() + tid_x();
  if (i < n) v[i] = clampi(v[i], -100, 100);
}
