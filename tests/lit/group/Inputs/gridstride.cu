// Inputs of the group pass's grid-stride loop lit test (gridstride.ptx is
// nvcc 13.0's output: nvcc -arch=sm_90 -ptx gridstride.cu -o gridstride.ptx,
// in this folder) and of its GPU differential cases
// (tests/gpu/cases/gridstride.cu).

// 8-bit data, the step blockDim.x * gridDim.x (in logical threads).
extern "C" __global__ void gs_add_u8(const unsigned char *a, const unsigned char *b, unsigned char *c, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) c[i] = a[i] + b[i];
}

// 16-bit data, a clamp (selp) in the body.
extern "C" __global__ void gs_clamp_u16(const unsigned short *in, unsigned short *out, int n, int hi) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    int v = in[i];
    out[i] = (unsigned short)(v > hi ? hi : v);
  }
}

// Refused: the body branches (a division on one path only).
extern "C" __global__ void gs_branchy(const unsigned char *in, unsigned char *out, int n, int d) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    unsigned v = in[i];
    if (v > 100) v = v / d + 7;
    out[i] = (unsigned char)v;
  }
}

// Refused by default: 32-bit data only (grid-stride loops are grouped over
// 8- and 16-bit data; --group-k=4 forces it). The family harness's
// fillRandom<float> has this shape.
extern "C" __global__ void gs_scale_f32(const float *in, float *out, int n, float s) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) out[i] = in[i] * s;
}

// Refused by default: one store per 25 instructions (a 64-bit hash, the
// family harness's fillRandom<unsigned char>): grouping saves memory
// instructions, and the clone would hold the body 48 times; --group-k=16
// forces it.
extern "C" __global__ void gs_hash_u8(unsigned char *p, int n, unsigned seed) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    unsigned long long x = i * 0x9e3779b97f4a7c15ull + seed;
    x = (x ^ (x >> 33)) * 0xff51afd7ed558ccdull;
    x = (x ^ (x >> 33)) * 0xc4ceb9fe1a85ec53ull;
    unsigned h = (unsigned)(x ^ (x >> 33));
    p[i] = (unsigned char)(h % 251 + 1);
  }
}
