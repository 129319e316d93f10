// Inputs of the pack pass's runtime-size lit test (runtime.ptx is nvcc
// 13.0's output: nvcc -arch=sm_90 -ptx runtime.cu -o runtime.ptx, in this
// folder) and of its GPU differential cases (tests/gpu/cases/pack.cu).
// Sizes that come from parameters: every refusal must say why.

// A tile whose edge B is a parameter (one thread per output, the tile's
// B x B pixels summed): nvcc unrolls the row loop by 4 itself, and the four
// loads of a pass merge into one 4-byte load when the image, its pitch w and
// B are multiples of 4 (the term B*w*%ctaid.y needs one of them: B's).
extern "C" __global__ void tile_sum(const unsigned char *in, float *out, int w, int B) {
  int u = threadIdx.x, v = threadIdx.y;
  int x0 = blockIdx.x * B, y0 = blockIdx.y * B;
  float s = 0.f;
  for (int y = 0; y < B; y++)
    for (int x = 0; x < B; x++) s += in[(y0 + y) * w + x0 + x] * (float)(u + v + 1);
  out[(y0 + v) * w + x0 + u] = s;
}

// Refused with a remark: a stride from a parameter, no neighbouring loads.
extern "C" __global__ void strided(const unsigned char *in, unsigned char *out, int n, int stride) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) out[i] = in[i] + 1;
}

// Refused with a remark: four neighbours whose first address holds a
// global's address (no parameter to check at launch).
__device__ unsigned char table[4096];
extern "C" __global__ void from_global(int *out, int off) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned char *p = table + 4 * i + off;
  out[i] = p[0] + p[1] + p[2] + p[3];
}

// A rolled loop over bytes every thread of the block reads alike (a
// broadcast): not unrolled by default (the uniform-bytes rule, as tile_sum),
// unrolled by 4 with --pack-uniform-bytes.
extern "C" __global__ void row_weights(const unsigned char *w, float *out, int n) {
  float s = 0.f;
#pragma unroll 1
  for (int x = 0; x < n; ++x) s += w[x] * (float)(threadIdx.x + x);
  out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}
