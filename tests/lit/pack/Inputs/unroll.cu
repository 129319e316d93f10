// Inputs of the pack pass's loop-unrolling lit test (unroll.ptx is nvcc
// 13.0's output: nvcc -arch=sm_90 -ptx unroll.cu -o unroll.ptx, in this
// folder) and of its GPU differential cases (tests/gpu/cases/unroll.cu).
// Loops nvcc leaves rolled: the body calls cosf, whose slow path is a loop
// and several branches, so one iteration reads one short word.

// One row per thread, n bytes: unrolled by 4, one 4-byte load per four
// iterations (in and the pitch multiples of 4; any n: the rest one by one).
extern "C" __global__ void row_u8(const unsigned char *in, float *out, int n, int pitch, float sc) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned char *p = in + (size_t)row * pitch;
  float s = 0.0f;
  for (int x = 0; x < n; x++) s += p[x] * cosf(x * sc);
  out[row] = s;
}

// The same on 16-bit data: one 8-byte load per four iterations.
extern "C" __global__ void row_u16(const unsigned short *in, float *out, int n, int pitch, float sc) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned short *p = in + (size_t)row * pitch;
  float s = 0.0f;
  for (int x = 0; x < n; x++) s += p[x] * cosf(x * sc);
  out[row] = s;
}

// A start from a parameter: lo becomes a runtime condition (a multiple of 4).
extern "C" __global__ void row_from(const unsigned char *in, float *out, int lo, int n, int pitch, float sc) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned char *p = in + (size_t)row * pitch;
  float s = 0.0f;
  for (int x = lo; x < n; x++) s += p[x] * cosf(x * sc);
  out[row] = s;
}

// Refused: the programmer asked for no unrolling.
extern "C" __global__ void row_nounroll(const unsigned char *in, float *out, int n, int pitch, float sc) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned char *p = in + (size_t)row * pitch;
  float s = 0.0f;
#pragma unroll 1
  for (int x = 0; x < n; x++) s += p[x] * cosf(x * sc);
  out[row] = s;
}

// Refused: every iteration stores to global memory, which a later
// iteration's load could read.
extern "C" __global__ void row_store(const unsigned char *in, float *out, int n, int pitch, float sc) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned char *p = in + (size_t)row * pitch;
  for (int x = 0; x < n; x++) out[(size_t)row * pitch + x] = p[x] * cosf(x * sc);
}

// Not a candidate: stride 2 along the loop counter.
extern "C" __global__ void row_even(const unsigned char *in, float *out, int n, int pitch, float sc) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned char *p = in + (size_t)row * pitch;
  float s = 0.0f;
  for (int x = 0; x < n; x++) s += p[2 * x] * cosf(x * sc);
  out[row] = s;
}

// The paper's naive DCT: nvcc unrolls the row loop (a constant trip count),
// and cosf's branches lie between the eight loads of a row: they merge into
// one 8-byte load across the blocks, each unpacked where its load was.
extern "C" __global__ void dct_naive(const unsigned char *in, float *out, int w) {
  int u = threadIdx.x, v = threadIdx.y, bx = blockIdx.x * 8, by = blockIdx.y * 8;
  float sum = 0.f;
  for (int y = 0; y < 8; ++y)
    for (int x = 0; x < 8; ++x)
      sum += in[(by + y) * w + bx + x] * cosf((2 * x + 1) * u * 3.14159265f / 16) *
             cosf((2 * y + 1) * v * 3.14159265f / 16);
  out[(by + v) * w + bx + u] = sum;
}

// Not merged: a store between the loads of a row.
extern "C" __global__ void row_store8(const unsigned char *in, float *out, int w) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned char *p = in + (size_t)row * w;
  for (int x = 0; x < 8; x++) out[row * 8 + x] = p[x] * cosf(x * 0.3f);
}
