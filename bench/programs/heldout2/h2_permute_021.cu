// h2_permute_021: two layout changes, one element a thread. (1) a 3-D
// permute (0,2,1), `out[b][k][j] = in[b][j][k]`, of a B x J x K float
// tensor (64 x 512 x 512, 64 MB), blocks of 32 x 8 with blockIdx.z = b, k
// from threadIdx.x: coalesced reads, strided writes. (2) NHWC uint8 -> NCHW
// float with per-channel mean/std normalization from __constant__ memory,
// `out[((n*C + c)*H + h)*W + w] = (in[((n*H + h)*W + w)*C + c] / 255.0f -
// mean[c]) / stdv[c]`, C = 3 looped per thread, N = 32 images of 512 x 512
// (24 MB in, 96 MB out), blocks of 32 x 8 with blockIdx.z = n. One launch
// each. Timed: both kernels. Checked exactly (the host does the same
// correctly rounded division and subtraction).
#include "../common.h"

__constant__ float c_mean[3];
__constant__ float c_std[3];

__global__ void permute021(const float *in, float *out, int J, int K) {
  int k = blockIdx.x * blockDim.x + threadIdx.x;
  int j = blockIdx.y * blockDim.y + threadIdx.y;
  size_t base = (size_t)blockIdx.z * J * K;
  if (j < J && k < K) out[base + k * J + j] = in[base + j * K + k];
}

__global__ void nhwc_u8_to_nchw_f32(const unsigned char *in, float *out, int H, int W) {
  const int C = 3;
  int w = blockIdx.x * blockDim.x + threadIdx.x;
  int h = blockIdx.y * blockDim.y + threadIdx.y;
  int n = blockIdx.z;
  if (h < H && w < W) {
    for (int c = 0; c < C; c++) {
      float v = in[((size_t(n) * H + h) * W + w) * C + c];
      out[((size_t(n) * C + c) * H + h) * W + w] = (v / 255.0f - c_mean[c]) / c_std[c];
    }
  }
}

int main(int argc, char **argv) {
  const int B = argInt(argc, argv, 1, 64), J = argInt(argc, argv, 2, 512), K = argInt(argc, argv, 3, 512);
  const int N = argInt(argc, argv, 4, 32), H = argInt(argc, argv, 5, 512), W = argInt(argc, argv, 6, 512);
  const int C = 3;
  const float mean[3] = {0.485f, 0.456f, 0.406f}, stdv[3] = {0.229f, 0.224f, 0.225f};
  const size_t nt = size_t(B) * J * K, ni = size_t(N) * H * W * C;
  std::vector<float> t3(nt);
  fillFloats(t3, 2101);
  std::vector<unsigned char> img(ni);
  for (size_t k = 0; k < ni; k++) img[k] = (unsigned char)(1 + hashAt(2102, k) % 255u);
  CHECK(cudaMemcpyToSymbol(c_mean, mean, sizeof(mean)));
  CHECK(cudaMemcpyToSymbol(c_std, stdv, sizeof(stdv)));
  float *dt3 = toDevice(t3), *dperm, *dnchw;
  unsigned char *dimg = toDevice(img);
  CHECK(cudaMalloc(&dperm, nt * sizeof(float)));
  CHECK(cudaMalloc(&dnchw, ni * sizeof(float)));
  CHECK(cudaDeviceSynchronize());
  GpuTimer t;
  t.start();
  permute021<<<dim3(blocksFor(K, 32), blocksFor(J, 8), B), dim3(32, 8)>>>(dt3, dperm, J, K);
  CHECK_LAUNCH();
  nhwc_u8_to_nchw_f32<<<dim3(blocksFor(W, 32), blocksFor(H, 8), N), dim3(32, 8)>>>(dimg, dnchw, H, W);
  CHECK_LAUNCH();
  float ms = t.stop();
  std::vector<float> perm = fromDevice(dperm, nt), nchw = fromDevice(dnchw, ni);

  size_t bad1 = 0, bad2 = 0;
  for (size_t b = 0; b < size_t(B); b++)
    for (size_t j = 0; j < size_t(J); j++)
      for (size_t k = 0; k < size_t(K); k++)
        bad1 += !(perm[(b * K + k) * J + j] == t3[(b * J + j) * K + k]);
  for (size_t n = 0; n < size_t(N); n++)
    for (size_t h = 0; h < size_t(H); h++)
      for (size_t w = 0; w < size_t(W); w++)
        for (int c = 0; c < C; c++) {
          float v = img[((n * H + h) * W + w) * C + c];
          float want = (v / 255.0f - mean[c]) / stdv[c];
          bad2 += !(nchw[((n * C + c) * H + h) * W + w] == want);
        }
  if (bad1) std::fprintf(stderr, "permute021: %zu of %zu differ\n", bad1, nt);
  if (bad2) std::fprintf(stderr, "nhwc->nchw: %zu of %zu differ\n", bad2, ni);
  CHECK(cudaFree(dt3));
  CHECK(cudaFree(dperm));
  CHECK(cudaFree(dimg));
  CHECK(cudaFree(dnchw));
  return finish(ms, bad1 == 0 && bad2 == 0);
}
