// Inputs of the group pass's per-thread local array lit test (local.ptx is
// nvcc 13.0's output: nvcc -arch=sm_90 -ptx local.cu -o local.ptx, in this
// folder) and of its GPU differential cases (tests/gpu/cases/local.cu). A
// private array indexed by data lives in a .local depot: each logical
// thread's own, so each replica of the group clone gets its own copy.

// A table of 16 bytes per thread, looked up by the input.
extern "C" __global__ void lut_local(const unsigned char *in, unsigned char *out, int s) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned char t[16];
#pragma unroll
  for (int j = 0; j < 16; j++) t[j] = (unsigned char)(j * s + i);
  out[i] = t[in[i] & 15];
}

// The same on 16-bit data behind a bounds guard; the table is written before
// the guard (the slow path writes it again, into the replica's own copy).
extern "C" __global__ void lut_local_guarded(const unsigned short *in, unsigned short *out, int s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  volatile unsigned short t[8];
#pragma unroll
  for (int j = 0; j < 8; j++) t[j] = (unsigned short)(j * s + (i & 7));
  if (i >= n) return;
  out[i] = t[in[i] & 7] + 1;
}
