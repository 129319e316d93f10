// Transposes and permutes of 1-D blocks whose grid walks the other axis
// (issue 30; docs/PASSES.md, transpose, "A block index for the second
// axis"): one element a thread, the thread's x from blockIdx.x * blockDim.x +
// threadIdx.x, the other index a block index (blockIdx.y or blockIdx.z), so
// no exchange of thread indices can help: the tiled clone takes 32 values
// of the block index a tile. Used by tests/lit/transpose/blockaxis.test,
// blockaxis-emu.test and the gpu-diff family "transpose blockaxis"
// (tests/gpu/cases/transpose_blockaxis.cu).
// nvcc -arch=sm_90 -O3 -ptx blockaxis.cu -o blockaxis.ptx

// A matrix transpose, one block row per matrix row: grid (ceil(W / b), H).
extern "C" __global__ void ba_rows_f32(const float *in, float *out, int W, int H) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y;
  if (x < W) out[x * H + y] = in[y * W + x];
}

// NCHW -> NHWC: grid (ceil(HW / b), C, N), the channel in blockIdx.y.
extern "C" __global__ void ba_nchw_nhwc_f32(const float *in, float *out, int C, int HW) {
  int hw = blockIdx.x * blockDim.x + threadIdx.x;
  int c = blockIdx.y, n = blockIdx.z;
  if (hw < HW) out[((size_t)n * HW + hw) * C + c] = in[((size_t)n * C + c) * HW + hw];
}

// The same with the channel in blockIdx.z and the image in blockIdx.y, bytes.
extern "C" __global__ void ba_nchw_nhwc_z_u8(const unsigned char *in, unsigned char *out, int C, int HW) {
  int hw = blockIdx.x * blockDim.x + threadIdx.x;
  int n = blockIdx.y, c = blockIdx.z;
  if (hw < HW) out[(n * HW + hw) * C + c] = in[(n * C + c) * HW + hw];
}

// The gather form: NHWC -> NCHW read along the channels (blockIdx.y), written along the plane.
extern "C" __global__ void ba_nhwc_nchw_gather_f32(const float *in, float *out, int C, int HW) {
  int hw = blockIdx.x * blockDim.x + threadIdx.x;
  int c = blockIdx.y, n = blockIdx.z;
  if (hw < HW) out[(n * C + c) * HW + hw] = in[(n * HW + hw) * C + c];
}

// Per-element work: a scale (a float widened), doubles.
extern "C" __global__ void ba_rows_scale_f64(const double *in, double *out, int W, int H, float s) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y;
  if (x < W) out[(size_t)x * H + y] = in[(size_t)y * W + x] * (double)s;
}

// ---- lookalikes, refused
// The row index mixes blockIdx.y and threadIdx.y (2-D blocks): a store
// along neither thread index nor a block index alone.
extern "C" __global__ void ba_mixed_y(const float *in, float *out, int W, int H) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * 2 + threadIdx.y;
  if (x < W && y < H) out[x * H + y] = in[y * W + x];
}
