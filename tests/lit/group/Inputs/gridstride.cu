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
