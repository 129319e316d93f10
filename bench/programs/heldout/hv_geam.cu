// hv_geam: (1) C = alpha A^T + beta B (cuBLAS geam's shape, written
// naively), A n x m, B and C m x n float, 8192 x 8192 (256 MB each), one
// thread per element of C, blocks of 16 x 16, x the column of C:
// `C[y*n+x] = alpha*A[x*m+y] + beta*B[y*n+x]` (A read strided). (2) an 8-bit
// W x H = 8192 x 8192 image to a transposed float image with a scale,
// `out[x*H+y] = in[y*W+x] * (1/255.f)`, blocks of 32 x 8 (writes strided).
// One launch each. Timed: both kernels. Checked: (1) relative 1e-3 (the
// device contracts into fma), (2) exactly.
#include <algorithm>
#include <cstring>

#include "../common.h"

__global__ void geam_kernel(const float *A, const float *B, float *C, int m, int n, float alpha, float beta) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < n && y < m) C[y * n + x] = alpha * A[x * m + y] + beta * B[y * n + x];
}

__global__ void u8_to_float_t(const unsigned char *in, float *out, int W, int H) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < W && y < H) out[x * H + y] = in[y * W + x] * (1 / 255.f);
}

int main(int argc, char **argv) {
  const int m = argInt(argc, argv, 1, 8192), n = argInt(argc, argv, 2, 8192);
  const int W = argInt(argc, argv, 3, 8192), H = argInt(argc, argv, 4, 8192);
  const float alpha = 1.5f, beta = 0.75f;
  const size_t mn = size_t(m) * n, wh = size_t(W) * H;
  std::vector<float> A(mn), B(mn);
  fillFloats(A, 391);
  fillFloats(B, 392);
  std::vector<unsigned char> img(wh);
  for (size_t i = 0; i < wh; i += 4) {
    uint32_t w = hashAt(393, i / 4) | 0x01010101u;  // no zero pixel
    std::memcpy(&img[i], &w, std::min<size_t>(4, wh - i));
  }
  float *dA = toDevice(A), *dB = toDevice(B), *dC, *dF;
  unsigned char *dimg = toDevice(img);
  CHECK(cudaMalloc(&dC, mn * sizeof(float)));
  CHECK(cudaMalloc(&dF, wh * sizeof(float)));
  GpuTimer t;
  t.start();
  geam_kernel<<<dim3(blocksFor(n, 16), blocksFor(m, 16)), dim3(16, 16)>>>(dA, dB, dC, m, n, alpha, beta);
  CHECK_LAUNCH();
  u8_to_float_t<<<dim3(blocksFor(W, 32), blocksFor(H, 8)), dim3(32, 8)>>>(dimg, dF, W, H);
  CHECK_LAUNCH();
  float ms = t.stop();
  std::vector<float> C = fromDevice(dC, mn), F = fromDevice(dF, wh);

  std::vector<float> ref(mn);
  for (size_t y = 0; y < size_t(m); y++)
    for (size_t x = 0; x < size_t(n); x++) ref[y * n + x] = alpha * A[x * m + y] + beta * B[y * n + x];
  bool ok = checkFloats("C", C.data(), ref.data(), mn, 1e-3);
  size_t bad = 0;
  for (size_t y = 0; y < size_t(H); y++)
    for (size_t x = 0; x < size_t(W); x++) bad += !(F[x * H + y] == img[y * W + x] * (1 / 255.f));
  if (bad) std::fprintf(stderr, "u8 -> float: %zu of %zu differ\n", bad, wh);
  return finish(ms, ok && bad == 0);
}
