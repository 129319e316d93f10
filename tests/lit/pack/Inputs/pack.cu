// Inputs of the pack pass's lit tests (pack.ptx is nvcc 13.0's output:
// nvcc -arch=sm_90 -ptx pack.cu -o pack.ptx, in this folder).

// Four bytes per thread: one 4-byte load.
extern "C" __global__ void quad(const unsigned char *in, int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned char *p = in + 4 * i;
  out[i] = p[0] + 2 * p[1] + 3 * p[2] + 4 * p[3];
}
// The paper's DCT with the hardware cosine: nvcc unrolls the row loop, the
// eight pixels of a row become one 8-byte load (the pitch a multiple of 8).
extern "C" __global__ void dct_fast(const unsigned char *in, float *out, int w) {
  int u = threadIdx.x, v = threadIdx.y, bx = blockIdx.x * 8, by = blockIdx.y * 8;
  float sum = 0.f;
  for (int y = 0; y < 8; ++y)
    for (int x = 0; x < 8; ++x)
      sum += (in[(by + y) * w + bx + x] - 128.f) * __cosf((2 * x + 1) * u * 3.14159265f / 16) *
             __cosf((2 * y + 1) * v * 3.14159265f / 16);
  out[(by + v) * w + bx + u] = 0.25f * sum;
}
// Four shorts at an odd element offset: the first address is not a multiple
// of 8; two 4-byte loads at offsets 2..5 and 6..9 bytes... only where aligned.
extern "C" __global__ void odd(const short *in, int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  const short *p = in + 4 * i + 1;
  out[i] = p[0] - p[1] + p[2] - p[3];
}
// A store between the loads: they may not move across it.
extern "C" __global__ void store_between(unsigned char *buf, int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned char *p = buf + 4 * i;
  int a = p[0] + p[1];
  p[1] = 0;
  out[i] = a + p[2] + p[3];
}
// Coalesce clones this one first: pack leaves it to them.
extern "C" __global__ void quad_6a(const unsigned char *in, int *out) {
  int i = threadIdx.x * gridDim.x + blockIdx.x;
  const unsigned char *p = in + 4 * i;
  out[i] = p[0] + p[1] + p[2] + p[3];
}
