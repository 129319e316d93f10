// Transposes for the transpose pass (tests/lit/transpose). Compiled with
//   nvcc -arch=sm_90 -O3 -ptx transpose.cu -o transpose.ptx
// (nvcc 13.0). The same kernels run on the GPU in tests/gpu/cases
// (transpose.cu) and in bench/transpose. Every kernel is launched with 2-D
// blocks and a 2-D grid covering a W x H input (x along W, y along H).

// The naive transpose: a W x H row-major input (W columns), an H x W output.
// The load is coalesced along threadIdx.x, the store strided along it.
template <typename T> __device__ void transposeNaive(const T *in, T *out, int W, int H) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < W && y < H) out[x * H + y] = in[y * W + x];
}
extern "C" __global__ void transpose_f32(const float *in, float *out, int W, int H) { transposeNaive(in, out, W, H); }
extern "C" __global__ void transpose_f64(const double *in, double *out, int W, int H) { transposeNaive(in, out, W, H); }
extern "C" __global__ void transpose_i32(const int *in, int *out, int W, int H) { transposeNaive(in, out, W, H); }
extern "C" __global__ void transpose_i16(const short *in, short *out, int W, int H) { transposeNaive(in, out, W, H); }
extern "C" __global__ void transpose_i8(const char *in, char *out, int W, int H) { transposeNaive(in, out, W, H); }

// The reverse: the load strided along threadIdx.x, the store coalesced.
extern "C" __global__ void transpose_gather_f32(const float *in, float *out, int W, int H) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < W && y < H) out[y * W + x] = in[x * H + y];
}

// Per-element work between the load and the store.
extern "C" __global__ void transpose_scale_f32(const float *in, float *out, int W, int H, float s) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < W && y < H) out[x * H + y] = in[y * W + x] * s;
}
// out = A^T + B: B read at the store's (coalesced) position.
extern "C" __global__ void transpose_add_f32(const float *A, const float *B, float *out, int W, int H) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < W && y < H) out[x * H + y] = A[y * W + x] + B[x * H + y];
}
// A type conversion: bytes in, floats out.
extern "C" __global__ void transpose_u8_f32(const unsigned char *in, float *out, int W, int H, float s) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < W && y < H) out[x * H + y] = in[y * W + x] * s;
}
// 90-degree rotations (clockwise) of a W x H image into an H x W one.
extern "C" __global__ void rotate90_u8(const unsigned char *in, unsigned char *out, int W, int H) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < W && y < H) out[x * H + (H - 1 - y)] = in[y * W + x];
}
extern "C" __global__ void rotate90_u32(const unsigned *in, unsigned *out, int W, int H) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < W && y < H) out[x * H + (H - 1 - y)] = in[y * W + x];
}

// ---- lookalikes that must be refused
// In place: it reads the array it writes (a square matrix).
extern "C" __global__ void transpose_inplace(float *a, int N) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < N && y < N) a[x * N + y] = a[y * N + x];
}
// Threads read their neighbours' elements too.
extern "C" __global__ void transpose_neighbours(const float *in, float *out, int W, int H) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x + 1 < W && y < H) out[x * H + y] = in[y * W + x] + in[y * W + x + 1];
}
// An atomic store.
extern "C" __global__ void transpose_atomic(const float *in, float *out, int W, int H) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < W && y < H) atomicAdd(&out[x * H + y], in[y * W + x]);
}
// Already tiled through shared memory (32 x 8 threads, 4 rows each).
extern "C" __global__ void transpose_shared(const float *in, float *out, int W, int H) {
  __shared__ float tile[32][33];
  int x = blockIdx.x * 32 + threadIdx.x;
  int y = blockIdx.y * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8)
    if (x < W && y + j < H) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * W + x];
  __syncthreads();
  x = blockIdx.y * 32 + threadIdx.x;
  y = blockIdx.x * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8)
    if (x < H && y + j < W) out[(y + j) * H + x] = tile[threadIdx.x][threadIdx.y + j];
}
// A copy: already coalesced on both sides.
extern "C" __global__ void copy_f32(const float *in, float *out, int W, int H) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < W && y < H) out[y * W + x] = in[y * W + x];
}

// ---- more shapes of the same pattern
// A 32-bit RGBA image rotated (uchar4: nvcc loads it as one u32).
extern "C" __global__ void rotate90_rgba(const uchar4 *__restrict__ in, uchar4 *__restrict__ out, int W, int H) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < W && y < H) out[x * H + (H - 1 - y)] = in[y * W + x];
}
// 16-byte elements: float4 (ld.global.nc.v4.u32).
extern "C" __global__ void transpose_f4(const float4 *__restrict__ in, float4 *__restrict__ out, int W, int H) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < W && y < H) out[x * H + y] = in[y * W + x];
}
// 64-bit indices.
extern "C" __global__ void transpose_f32_size_t(const float *__restrict__ in, float *__restrict__ out, size_t W,
                                                size_t H) {
  size_t x = blockIdx.x * blockDim.x + threadIdx.x;
  size_t y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < W && y < H) out[x * H + y] = in[y * W + x];
}
// NCHW -> NHWC: planes of HW pixels, C channels, image n = blockIdx.z.
extern "C" __global__ void nchw_to_nhwc(const float *in, float *out, int C, int HW) {
  int hw = blockIdx.x * blockDim.x + threadIdx.x;
  int c = blockIdx.y * blockDim.y + threadIdx.y;
  size_t n = blockIdx.z;
  if (hw < HW && c < C) out[n * C * HW + hw * C + c] = in[n * C * HW + c * HW + hw];
}
// It reads the element it writes (out += in^T): refused.
extern "C" __global__ void transpose_accumulate(const float *in, float *out, int W, int H) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < W && y < H) out[x * H + y] += in[y * W + x];
}
// NHWC -> NCHW: the channels in x (the load coalesced along them), the
// plane in y (the store unit-stride along it), image n = blockIdx.z.
extern "C" __global__ void nhwc_to_nchw(const float *in, float *out, int C, int HW) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  int hw = blockIdx.y * blockDim.y + threadIdx.y;
  size_t n = blockIdx.z;
  if (hw < HW && c < C) out[n * C * HW + c * HW + hw] = in[n * C * HW + hw * C + c];
}
// It reads %laneid: the clones would see another thread's lane; refused.
extern "C" __global__ void transpose_laneid(const float *in, float *out, int W, int H) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  unsigned lane;
  asm("mov.u32 %0, %%laneid;" : "=r"(lane));
  if (x < W && y < H) out[x * H + y] = in[y * W + x] + float(lane);
}
// It reads %clock (a special register the clones do not rename): refused.
extern "C" __global__ void transpose_clock(const float *in, float *out, int W, int H) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < W && y < H) out[x * H + y] = in[y * W + x] + float(clock() & 1);
}
// It reads %nsmid, a special register the clones do not rename (only the
// thread and block indices and extents are): refused.
extern "C" __global__ void transpose_nsmid(const float *in, float *out, int W, int H) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  unsigned n;
  asm("mov.u32 %0, %%nsmid;" : "=r"(n));
  if (x < W && y < H) out[x * H + y] = in[y * W + x] + float(n);
}
