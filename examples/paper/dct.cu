// 2-D DCT of 8x8 blocks of an 8-bit image (van den Braak et al., SAMOS 2010,
// section I and Table II row 3: 3.0 s original, 0.75 s with the tool (inner
// loop unrolled four times, four 8-bit reads grouped), 48 ms by hand (62x:
// sixteen 8-bit reads grouped and the texture cache)).
//
// naive       the paper's basic GPU version: one thread per coefficient
//             F(u,v) (a block of 8x8 threads per 8x8 tile), summing all 64
//             pixels of its tile and recomputing both cosines for each.
// hand_paper  what the paper did by hand: the same thread layout, the cosines
//             from a table (in shared memory), each row of 8 pixels read as
//             one 8-byte vector through the read-only (texture) cache.
// hand_best   separable DCT: 256 threads per 64x8 strip (eight tiles); the
//             pixels go through shared memory, a row pass and a column pass
//             with the table (16 multiply-adds per coefficient instead of 64).
//
// Output: float coefficients, F(u,v) = 1/4 C(u) C(v) sum_xy p(x,y)
// cos((2x+1)u pi/16) cos((2y+1)v pi/16), stored where the tile's pixels are.
// Sizes: 1920x1080 (the paper's image size for Sobel and the rotations) and
// 4096x4096 (16 MiB in, 64 MiB out).
#include <cmath>

#include "common.h"

#define DCT_PI 3.14159265358979f

extern "C" __global__ void dct_naive(const unsigned char *in, float *out, int width) {
  int u = threadIdx.x, v = threadIdx.y;
  int x0 = blockIdx.x * 8, y0 = blockIdx.y * 8;
  float sum = 0.0f;
  for (int y = 0; y < 8; y++)
    for (int x = 0; x < 8; x++)
      sum += in[(y0 + y) * width + x0 + x] * cosf((2 * x + 1) * u * DCT_PI / 16) * cosf((2 * y + 1) * v * DCT_PI / 16);
  float cu = u == 0 ? 0.70710678f : 1.0f;
  float cv = v == 0 ? 0.70710678f : 1.0f;
  out[(y0 + v) * width + x0 + u] = 0.25f * cu * cv * sum;
}

// coef[u][x] = 1/2 C(u) cos((2x+1) u pi / 16), so F = sum coef[v][y] coef[u][x] p.
// (Set with cudaMemcpyToSymbol for the nvcc-built module; the --jit module
// has its own copy, unset, which only the hand kernels would read.)
__constant__ float c_coef[8][8];

extern "C" __global__ void dct_hand_paper(const unsigned char *__restrict__ in, float *__restrict__ out, int width) {
  __shared__ float coef[8][9];  // padded: lanes reading coef[u][x] for eight u hit eight banks
  int u = threadIdx.x, v = threadIdx.y;
  coef[v][u] = c_coef[v][u];
  __syncthreads();
  int x0 = blockIdx.x * 8, y0 = blockIdx.y * 8;
  float sum = 0.0f;
#pragma unroll
  for (int y = 0; y < 8; y++) {
    uint2 row = __ldg(reinterpret_cast<const uint2 *>(in + (y0 + y) * width + x0));
    float r = 0.0f;
#pragma unroll
    for (int x = 0; x < 8; x++) {
      unsigned w = x < 4 ? row.x : row.y;
      r += float((w >> (8 * (x & 3))) & 0xff) * coef[u][x];
    }
    sum += r * coef[v][y];
  }
  out[(y0 + v) * width + x0 + u] = sum;
}

extern "C" __global__ void __launch_bounds__(256) dct_hand_best(const unsigned char *__restrict__ in,
                                                                  float *__restrict__ out, int width) {
  __shared__ float pix[8][65];
  __shared__ float tmp[8][65];
  __shared__ float coef[8][9];  // padded, as in dct_hand_paper
  int tx = threadIdx.x, ty = threadIdx.y;  // block (64, 4): each thread two rows
  if (ty == 0) coef[tx >> 3][tx & 7] = c_coef[tx >> 3][tx & 7];
  int x = blockIdx.x * 64 + tx, y0 = blockIdx.y * 8;
  pix[ty][tx] = in[(y0 + ty) * width + x];
  pix[ty + 4][tx] = in[(y0 + ty + 4) * width + x];
  __syncthreads();
  int u = tx & 7, base = tx & ~7;
#pragma unroll
  for (int r = 0; r < 2; r++) {
    int y = ty + 4 * r;
    float s = 0.0f;
#pragma unroll
    for (int k = 0; k < 8; k++) s += pix[y][base + k] * coef[u][k];
    tmp[y][tx] = s;
  }
  __syncthreads();
#pragma unroll
  for (int r = 0; r < 2; r++) {
    int v = ty + 4 * r;
    float s = 0.0f;
#pragma unroll
    for (int k = 0; k < 8; k++) s += tmp[k][tx] * c_coef[v][k];
    out[(y0 + v) * width + x] = s;
  }
}

int main(int argc, char **argv) {
  ex::Bench B(argc, argv, "dct", "dct_naive");
  float coef[8][8];
  double dcoef[8][8];
  for (int u = 0; u < 8; u++)
    for (int x = 0; x < 8; x++) {
      dcoef[u][x] = 0.5 * (u == 0 ? std::sqrt(0.5) : 1.0) * std::cos((2 * x + 1) * u * M_PI / 16);
      coef[u][x] = float(dcoef[u][x]);
    }
  EX_CHECK(cudaMemcpyToSymbol(c_coef, coef, sizeof coef));
  const int sizes[][2] = {{1920, 1080}, {4096, 4096}};
  for (int si = 0; si < (B.small() ? 1 : 2); si++) {
    const int w = B.small() ? 256 : sizes[si][0], h = B.small() ? 128 : sizes[si][1];
    std::string size = ex::dims(w, h);
    if (!B.wantSize(size, si, 2)) continue;
    const size_t n = size_t(w) * h;
    std::vector<uint8_t> img(n);
    ex::fillBytes(img, 7);
    // CPU reference in double, separable.
    std::vector<float> ref(n), got;
    std::vector<double> rowT(n);
    for (int y = 0; y < h; y++)
      for (int x = 0; x < w; x++) {
        int b = x & ~7, u = x & 7;
        double s = 0;
        for (int k = 0; k < 8; k++) s += img[size_t(y) * w + b + k] * dcoef[u][k];
        rowT[size_t(y) * w + x] = s;
      }
    for (int y = 0; y < h; y++)
      for (int x = 0; x < w; x++) {
        int b = y & ~7, v = y & 7;
        double s = 0;
        for (int k = 0; k < 8; k++) s += rowT[size_t(b + k) * w + x] * dcoef[v][k];
        ref[size_t(y) * w + x] = float(s);
      }
    ex::DevBuf<uint8_t> din(n);
    ex::DevBuf<float> dout(n);
    din.upload(img);
    double bytes = double(n) * (1 + sizeof(float));
    auto reset = [&] { dout.zero(); };
    auto verify = [&] {
      dout.download(got);
      return ex::closeTo(got, ref, 0.05, 1e-4, "coefficients");
    };
    const unsigned char *pin = din.p;
    float *pout = dout.p;
    int width = w;
    void *args[] = {&pin, &pout, &width};
    dim3 tiles(w / 8, h / 8), t8(8, 8);
    B.naive(size, bytes, [&] { dct_naive<<<tiles, t8>>>(pin, pout, width); }, tiles, t8, args, reset, verify);
    B.hand(size, "hand_paper", bytes, [&] { dct_hand_paper<<<tiles, t8>>>(pin, pout, width); }, reset, verify);
    B.hand(size, "hand_best", bytes, [&] { dct_hand_best<<<dim3(w / 64, h / 8), dim3(64, 4)>>>(pin, pout, width); },
           reset, verify);
  }
  return B.exitCode();
}
