// Inputs of the pack pass's latch-form lit test (latch.ptx is nvcc 13.0's
// output: nvcc -arch=sm_90 -ptx latch.cu -o latch.ptx, in this folder) and of
// its GPU differential cases (tests/gpu/cases/latch.cu). The loops nvcc
// leaves rolled, in the latch forms it writes besides `setp.lt`.

// `x != n`: the latch is `add; setp.ne.s32 p, x, n; @p bra`.
extern "C" __global__ void row_ne(const unsigned char *in, float *out, unsigned n, int pitch, float sc) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned char *p = in + (size_t)row * pitch;
  float s = 0.0f;
  for (unsigned x = 0; x != n; x++) s += p[x] * cosf(x * sc);
  out[row] = s;
}

// A counter that counts down while the pointer goes up: nvcc tests the old
// value (`add t, i, -1; setp.gt.s32 p, i, 1; mov i, t; @p bra`).
extern "C" __global__ void row_down(const unsigned char *in, float *out, int n, int pitch, float sc) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned char *p = in + (size_t)row * pitch;
  float s = 0.0f;
  for (int i = n; i > 0; i--, p++) s += *p * cosf(i * sc);
  out[row] = s;
}

// `#pragma unroll 1` on plain arithmetic over 16-bit data: one 8-byte load
// per four iterations on the clone (a Horner sum: the order stays).
extern "C" __global__ void row_nounroll_u16(const unsigned short *in, float *out, int n, int pitch, float sc) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned short *p = in + (size_t)row * pitch;
  float s = 0.0f;
#pragma unroll 1
  for (int x = 0; x < n; x++) s = s * sc + p[x];
  out[row] = s;
}

// Refused with a remark: the counter steps by a parameter.
extern "C" __global__ void row_step(const unsigned char *in, float *out, int n, int pitch, int step, float sc) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned char *p = in + (size_t)row * pitch;
  float s = 0.0f;
#pragma unroll 1
  for (int x = 0; x < n; x += step) s += p[x] * sc;
  out[row] = s;
}
