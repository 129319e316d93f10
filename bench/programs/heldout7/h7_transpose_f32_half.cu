// h7_transpose_f32_half: two naive transposes, one launch each. (1) float,
// rows x cols = 4100 x 4200 (69 MB), 32 x 4 blocks, `int` indices,
// `out[x*rows + y] = in[y*cols + x]`; (2) __half, rows x cols = 6000 x 6100
// (73 MB), 16 x 8 blocks, `unsigned` indices, `__restrict__`, the same
// pattern. Neither size is a multiple of its block; both bounds-tested.
// Timed: both launches. Checked: exactly (data movement; halves compared by
// their bits).
#include "../common.h"

#include <cuda_fp16.h>
#include <cstring>

__global__ void transpose_naive(const float *in, float *out, int rows, int cols) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < cols && y < rows) out[x * rows + y] = in[y * cols + x];
}

__global__ void transpose_half(const __half *__restrict__ in, __half *__restrict__ out, unsigned rows,
                               unsigned cols) {
  unsigned col = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row < rows && col < cols) out[col * rows + row] = in[row * cols + col];
}

int main(int argc, char **argv) {
  const int rows = argInt(argc, argv, 1, 4100), cols = argInt(argc, argv, 2, 4200);
  const unsigned hrows = unsigned(argInt(argc, argv, 3, 6000)), hcols = unsigned(argInt(argc, argv, 4, 6100));
  const size_t n = size_t(rows) * cols, hn = size_t(hrows) * hcols;

  std::vector<float> a(n);
  fillFloats(a, 7101);
  // Half values in [0.25, 8), stored as their 16-bit patterns on the host.
  std::vector<unsigned short> h(hn);
  for (size_t i = 0; i < hn; i++) {
    __half v = __float2half(0.25f + float(hashAt(7102, i) >> 8) * (7.75f / 16777216.0f));
    std::memcpy(&h[i], &v, sizeof(v));
  }

  float *d_a = toDevice(a), *d_at;
  unsigned short *d_hbits = toDevice(h);
  __half *d_h = reinterpret_cast<__half *>(d_hbits), *d_ht;
  CHECK(cudaMalloc(&d_at, n * sizeof(float)));
  CHECK(cudaMalloc(&d_ht, hn * sizeof(__half)));
  CHECK(cudaDeviceSynchronize());

  dim3 b1(32, 4), g1((cols + 31) / 32, (rows + 3) / 4);
  dim3 b2(16, 8), g2((hcols + 15) / 16, (hrows + 7) / 8);
  GpuTimer t;
  t.start();
  transpose_naive<<<g1, b1>>>(d_a, d_at, rows, cols);
  CHECK_LAUNCH();
  transpose_half<<<g2, b2>>>(d_h, d_ht, hrows, hcols);
  CHECK_LAUNCH();
  float ms = t.stop();
  std::vector<float> at = fromDevice(d_at, n);
  std::vector<unsigned short> ht(hn);
  copyBack(ht.data(), d_ht, hn * sizeof(__half));

  std::vector<float> ref(n);
  for (size_t y = 0; y < size_t(rows); y++)
    for (size_t x = 0; x < size_t(cols); x++) ref[x * rows + y] = a[y * cols + x];
  std::vector<unsigned short> href(hn);
  for (size_t y = 0; y < hrows; y++)
    for (size_t x = 0; x < hcols; x++) href[x * hrows + y] = h[y * hcols + x];
  bool ok = checkExact("float transpose", at.data(), ref.data(), n);
  ok = checkExact("half transpose", ht.data(), href.data(), hn) && ok;
  CHECK(cudaFree(d_a));
  CHECK(cudaFree(d_at));
  CHECK(cudaFree(d_hbits));
  CHECK(cudaFree(d_ht));
  return finish(ms, ok);
}
