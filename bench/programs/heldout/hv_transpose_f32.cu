// hv_transpose_f32: two naive float transposes, one thread per element.
// (1) `out[x*H+y] = in[y*W+x]` over W x H = 8192 x 8192 (256 MB in, 256 MB
// out), blocks of 16 x 16, x the input column: coalesced reads, strided
// writes. (2) the gather form `out[y*rows+x] = in[x*cols+y]` over an odd
// rows x cols = 8191 x 8193 input, blocks of 32 x 8, x the output column:
// strided reads, coalesced writes. Both with `if (x < .. && y < ..)` guards,
// int indices. One launch each. Timed: both kernels. Checked exactly.
#include "../common.h"

__global__ void transpose_naive(const float *in, float *out, int W, int H) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < W && y < H) out[x * H + y] = in[y * W + x];
}

// in is rows x cols, out is cols x rows.
__global__ void transpose_gather(const float *in, float *out, int rows, int cols) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;  // row of in, column of out
  int y = blockIdx.y * blockDim.y + threadIdx.y;  // column of in, row of out
  if (x < rows && y < cols) out[y * rows + x] = in[x * cols + y];
}

int main(int argc, char **argv) {
  const int W = argInt(argc, argv, 1, 8192), H = argInt(argc, argv, 2, 8192);
  const int rows = argInt(argc, argv, 3, 8191), cols = argInt(argc, argv, 4, 8193);
  const size_t n1 = size_t(W) * H, n2 = size_t(rows) * cols;
  std::vector<float> in1(n1), in2(n2);
  fillFloats(in1, 361);
  fillFloats(in2, 362);
  float *din1 = toDevice(in1), *din2 = toDevice(in2), *dout1, *dout2;
  CHECK(cudaMalloc(&dout1, n1 * sizeof(float)));
  CHECK(cudaMalloc(&dout2, n2 * sizeof(float)));
  GpuTimer t;
  t.start();
  transpose_naive<<<dim3(blocksFor(W, 16), blocksFor(H, 16)), dim3(16, 16)>>>(din1, dout1, W, H);
  CHECK_LAUNCH();
  transpose_gather<<<dim3(blocksFor(rows, 32), blocksFor(cols, 8)), dim3(32, 8)>>>(din2, dout2, rows, cols);
  CHECK_LAUNCH();
  float ms = t.stop();
  std::vector<float> out1 = fromDevice(dout1, n1), out2 = fromDevice(dout2, n2);

  size_t bad1 = 0, bad2 = 0;
  for (size_t y = 0; y < size_t(H); y++)
    for (size_t x = 0; x < size_t(W); x++) bad1 += !(out1[x * H + y] == in1[y * W + x]);
  for (size_t r = 0; r < size_t(rows); r++)
    for (size_t c = 0; c < size_t(cols); c++) bad2 += !(out2[c * rows + r] == in2[r * cols + c]);
  if (bad1) std::fprintf(stderr, "transpose 1: %zu of %zu differ\n", bad1, n1);
  if (bad2) std::fprintf(stderr, "transpose 2: %zu of %zu differ\n", bad2, n2);
  return finish(ms, bad1 == 0 && bad2 == 0);
}
