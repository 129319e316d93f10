// h3_nchw_nhwc: NCHW -> NHWC layout permutes of batches of 224 x 224 images,
// one element a thread, 3-D grids with blockIdx.z = n, blockIdx.y = c and
// blockIdx.x over the H*W plane: `out[(n*HW + hw)*C + c] = in[(n*C + c)*HW +
// hw]` (coalesced reads, writes strided by C). float with 1-D blocks of 256:
// C = 3, N = 128 (77 MB each way) and C = 32, N = 16 (103 MB); uint8 with
// 1-D blocks of 128, w from blockIdx.x, blockIdx.y = c*H + h, blockIdx.z = n:
// C = 3, N = 512 (77 MB) and C = 32, N = 64 (103 MB). C, H, W runtime.
// Four launches. Timed: all four. Checked exactly.
#include "../common.h"

__global__ void nchw_to_nhwc_f32(const float *in, float *out, int C, int HW) {
  int hw = blockIdx.x * blockDim.x + threadIdx.x;
  int c = blockIdx.y;
  int n = blockIdx.z;
  if (hw < HW) out[((size_t)n * HW + hw) * C + c] = in[((size_t)n * C + c) * HW + hw];
}

__global__ void nchw_to_nhwc_u8(const unsigned char *in, unsigned char *out, int C, int H, int W) {
  int w = blockIdx.x * blockDim.x + threadIdx.x;
  int h = blockIdx.y % H;
  int c = blockIdx.y / H;
  int n = blockIdx.z;
  if (w < W) out[(((size_t)n * H + h) * W + w) * C + c] = in[(((size_t)n * C + c) * H + h) * W + w];
}

template <class T> static size_t checkNHWC(const std::vector<T> &in, const std::vector<T> &out, int N, int C, int HW) {
  size_t bad = 0;
  for (size_t n = 0; n < size_t(N); n++)
    for (size_t c = 0; c < size_t(C); c++)
      for (size_t p = 0; p < size_t(HW); p++) bad += !(out[(n * HW + p) * C + c] == in[(n * C + c) * HW + p]);
  return bad;
}

int main(int argc, char **argv) {
  const int H = argInt(argc, argv, 1, 224), W = argInt(argc, argv, 2, 224), HW = H * W;
  const int Cs[2] = {argInt(argc, argv, 3, 3), argInt(argc, argv, 4, 32)};
  const int Nf[2] = {argInt(argc, argv, 5, 128), argInt(argc, argv, 6, 16)};
  const int Nu[2] = {argInt(argc, argv, 7, 512), argInt(argc, argv, 8, 64)};
  std::vector<float> fin[2], fout[2];
  std::vector<unsigned char> uin[2], uout[2];
  float *dfin[2], *dfout[2];
  unsigned char *duin[2], *duout[2];
  for (int k = 0; k < 2; k++) {
    fin[k].resize(size_t(Nf[k]) * Cs[k] * HW);
    fillFloats(fin[k], 4001 + k);
    uin[k].resize(size_t(Nu[k]) * Cs[k] * HW);
    for (size_t i = 0; i < uin[k].size(); i++) uin[k][i] = (unsigned char)(1 + hashAt(4003 + k, i) % 255u);
    dfin[k] = toDevice(fin[k]);
    duin[k] = toDevice(uin[k]);
    CHECK(cudaMalloc(&dfout[k], fin[k].size() * sizeof(float)));
    CHECK(cudaMalloc(&duout[k], uin[k].size()));
  }
  CHECK(cudaDeviceSynchronize());
  GpuTimer t;
  t.start();
  for (int k = 0; k < 2; k++) {
    nchw_to_nhwc_f32<<<dim3(blocksFor(HW, 256), Cs[k], Nf[k]), 256>>>(dfin[k], dfout[k], Cs[k], HW);
    CHECK_LAUNCH();
    nchw_to_nhwc_u8<<<dim3(blocksFor(W, 128), H * Cs[k], Nu[k]), 128>>>(duin[k], duout[k], Cs[k], H, W);
    CHECK_LAUNCH();
  }
  float ms = t.stop();
  size_t bad = 0;
  for (int k = 0; k < 2; k++) {
    fout[k] = fromDevice(dfout[k], fin[k].size());
    uout[k] = fromDevice(duout[k], uin[k].size());
    size_t bf = checkNHWC(fin[k], fout[k], Nf[k], Cs[k], HW), bu = checkNHWC(uin[k], uout[k], Nu[k], Cs[k], HW);
    if (bf) std::fprintf(stderr, "nchw_to_nhwc_f32 C=%d: %zu differ\n", Cs[k], bf);
    if (bu) std::fprintf(stderr, "nchw_to_nhwc_u8 C=%d: %zu differ\n", Cs[k], bu);
    bad += bf + bu;
    CHECK(cudaFree(dfin[k]));
    CHECK(cudaFree(dfout[k]));
    CHECK(cudaFree(duin[k]));
    CHECK(cudaFree(duout[k]));
  }
  return finish(ms, bad == 0);
}
