// Kernels of the pack pass's differential tests (tests/gpu/Cases.cpp): a
// thread's adjacent loads (the same kernels as tests/lit/pack/Inputs/pack.cu).

extern "C" __global__ void quad(const unsigned char *in, int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned char *p = in + 4 * i;
  out[i] = p[0] + 2 * p[1] + 3 * p[2] + 4 * p[3];
}

extern "C" __global__ void dct_fast(const unsigned char *in, float *out, int w) {
  int u = threadIdx.x, v = threadIdx.y, bx = blockIdx.x * 8, by = blockIdx.y * 8;
  float sum = 0.f;
  for (int y = 0; y < 8; ++y)
    for (int x = 0; x < 8; ++x)
      sum += (in[(by + y) * w + bx + x] - 128.f) * __cosf((2 * x + 1) * u * 3.14159265f / 16) *
             __cosf((2 * y + 1) * v * 3.14159265f / 16);
  out[(by + v) * w + bx + u] = 0.25f * sum;
}

extern "C" __global__ void odd(const short *in, int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  const short *p = in + 4 * i + 1;
  out[i] = p[0] - p[1] + p[2] - p[3];
}

extern "C" __global__ void quad_6a(const unsigned char *in, int *out) {
  int i = threadIdx.x * gridDim.x + blockIdx.x;
  const unsigned char *p = in + 4 * i;
  out[i] = p[0] + p[1] + p[2] + p[3];
}
