// Transposes whose sizes or output come in struct arguments, and one with
// __launch_bounds__ (tests/lit/transpose/params-emu.test). nvcc reads two
// adjacent int fields of an 8-byte-aligned struct argument with one vector
// load (`ld.param.v2.u32 {%r6, %r7}, [p+8]`), which the affine analysis
// reads as the two words it loads (before the nineteenth session: an
// unknown address, no clone). Found by an offline probe of kernels written
// as descriptor structs.
//   nvcc -arch=sm_90 -O3 -ptx params.cu -o params.ptx   (nvcc 13.0)

// The output a {pointer, rows, cols} descriptor; its index through helpers.
struct Mat { float *p; int rows, cols; };
__device__ __forceinline__ int idx(int r, int c, int ld) { return r * ld + c; }
extern "C" __global__ void transpose_mat(const float *in, Mat out, int W, int H) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < W && y < H) out.p[idx(x, y, out.cols)] = in[idx(y, x, W)];
}

// The sizes an 8-byte-aligned {W, H} pair (nvcc 13.0 reads it with two
// scalar loads at +0 and +4).
struct __align__(8) Dims { int W, H; };
extern "C" __global__ void transpose_dims(const float *in, float *out, Dims d) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < d.W && y < d.H) out[x * d.H + y] = in[y * d.W + x];
}

// Four words {W, H, pitch in, pitch out} (four scalar loads), 16-bit elements.
struct __align__(16) Pitches { int W, H, ldi, ldo; };
extern "C" __global__ void transpose_pitches(const unsigned short *in, unsigned short *out, Pitches p) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < p.W && y < p.H) out[x * p.ldo + y] = in[y * p.ldi + x];
}

// __launch_bounds__: `.maxntid 256, 1, 1` between the parameters and the
// body (the 32 x 32 and 32 x 16 tiled clones, 1024 and 512 threads of the
// original's block, are not made: the blocks it can be launched with).
extern "C" __global__ void __launch_bounds__(256) transpose_bounded(const float *in, float *out, int W, int H) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < W && y < H) out[x * H + y] = in[y * W + x];
}
