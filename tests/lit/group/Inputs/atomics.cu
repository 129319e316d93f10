// Inputs of the group pass's atomics lit test (atomics.ptx is nvcc 13.0's
// output: nvcc -arch=sm_90 -ptx atomics.cu -o atomics.ptx, in this folder)
// and of its GPU differential cases (tests/gpu/cases/atomics.cu). An atomic
// whose result is unused is a reduction into memory, not communication: it
// stays per logical thread in the group clone.

// A counter at one address, inside an if-then region, and a copy.
extern "C" __global__ void count_above(const unsigned char *in, unsigned char *out, unsigned *count, int n,
                                       unsigned t) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned char c = in[i];
  out[i] = c + 1;
  if (c > t) atomicAdd(count, 1u);
}

// The largest value and the bits seen, at fixed addresses.
extern "C" __global__ void max_or(const unsigned short *in, unsigned short *out, unsigned *mx, unsigned *bits) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned short c = in[i];
  out[i] = c >> 1;
  atomicMax(mx, (unsigned)c);
  atomicOr(bits, 1u << (c & 31));
}

// A histogram: data-dependent addresses, grouped with --group-gathers only.
extern "C" __global__ void hist(const unsigned char *in, unsigned char *out, unsigned *bins, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned char c = in[i];
  out[i] = c ^ 0x5a;
  atomicAdd(&bins[c], 1u);
}

// Refused: the atomic's old value is used (threads see each other's updates).
extern "C" __global__ void ticket(const unsigned char *in, unsigned char *out, unsigned *next) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned char c = in[i];
  unsigned old = atomicAdd(next, 1u);
  out[i] = c ^ (unsigned char)old;
}
