// h2_transpose_complex: naive transposes of a complex (float2) rows x cols
// matrix (4096 x 4096, 128 MB), one element a thread, blocks of 16 x 16.
// (1) plain transpose `out[x*rows + y] = in[y*cols + x]` (x the input
// column, from threadIdx.x: coalesced reads, strided 8-byte writes);
// (2) conjugate transpose in the gather form `outH[y*rows + x] =
// make_float2(v.x, -v.y)` with `v = in[x*cols + y]` (x the output column:
// strided 8-byte reads, coalesced writes). One launch each. Timed: both
// kernels. Checked exactly.
#include "../common.h"

__global__ void transpose_c(const float2 *in, float2 *out, int rows, int cols) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < cols && y < rows) out[x * rows + y] = in[y * cols + x];
}

__global__ void conj_transpose_c(const float2 *in, float2 *outH, int rows, int cols) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;  // column of outH = row of in
  int y = blockIdx.y * blockDim.y + threadIdx.y;  // row of outH = column of in
  if (x < rows && y < cols) {
    float2 v = in[x * cols + y];
    outH[y * rows + x] = make_float2(v.x, -v.y);
  }
}

int main(int argc, char **argv) {
  const int rows = argInt(argc, argv, 1, 4096), cols = argInt(argc, argv, 2, 4096);
  const size_t n = size_t(rows) * cols;
  std::vector<float> re(n), im(n);
  fillFloats(re, 1901, -1.25f, -0.25f);
  fillFloats(im, 1902);
  std::vector<float2> in(n);
  for (size_t k = 0; k < n; k++) in[k] = make_float2(re[k], im[k]);
  float2 *din = toDevice(in), *dout, *doutH;
  CHECK(cudaMalloc(&dout, n * sizeof(float2)));
  CHECK(cudaMalloc(&doutH, n * sizeof(float2)));
  CHECK(cudaDeviceSynchronize());
  GpuTimer t;
  t.start();
  transpose_c<<<dim3(blocksFor(cols, 16), blocksFor(rows, 16)), dim3(16, 16)>>>(din, dout, rows, cols);
  CHECK_LAUNCH();
  conj_transpose_c<<<dim3(blocksFor(rows, 16), blocksFor(cols, 16)), dim3(16, 16)>>>(din, doutH, rows, cols);
  CHECK_LAUNCH();
  float ms = t.stop();
  std::vector<float2> out = fromDevice(dout, n), outH = fromDevice(doutH, n);

  size_t bad1 = 0, bad2 = 0;
  for (size_t r = 0; r < size_t(rows); r++)
    for (size_t c = 0; c < size_t(cols); c++) {
      const float2 v = in[r * cols + c], a = out[c * rows + r], h = outH[c * rows + r];
      bad1 += !(a.x == v.x && a.y == v.y);
      bad2 += !(h.x == v.x && h.y == -v.y);
    }
  if (bad1) std::fprintf(stderr, "transpose: %zu of %zu differ\n", bad1, n);
  if (bad2) std::fprintf(stderr, "conjugate transpose: %zu of %zu differ\n", bad2, n);
  CHECK(cudaFree(din));
  CHECK(cudaFree(dout));
  CHECK(cudaFree(doutH));
  return finish(ms, bad1 == 0 && bad2 == 0);
}
