// Sobel edge detection on an 8-bit grey image (van den Braak et al., SAMOS
// 2010, Table II row 4: 12.1 ms original on 1920x1080, 2.84 ms with the tool
// (four threads grouped so that their 8-bit accesses are grouped) and by
// hand, 4x).
//
// out(x,y) = min(255, |Gx| + |Gy|) with the 3x3 Sobel masks, for the interior
// pixels; the one-pixel border is 0.
//
// naive       one thread per pixel, blocks of 32x8 threads, a bounds guard
//             for the border (which the naive kernel does not write).
// hand_paper  four adjacent pixels per thread: three aligned 4-byte words of
//             the rows above, at and below, the neighbours' bytes, one
//             4-byte store (the paper's grouping of four threads).
// hand_best   sixteen pixels per thread: 16-byte loads and one 16-byte store.
//
// Sizes: 1920x1080 (the paper's) and 8192x8192 (64 MiB in, 64 MiB out).
#include "common.h"

extern "C" __global__ void sobel_naive(const unsigned char *in, unsigned char *out, int width, int height) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= 1 && x < width - 1 && y >= 1 && y < height - 1) {
    int gx = (in[(y - 1) * width + x + 1] + 2 * in[y * width + x + 1] + in[(y + 1) * width + x + 1]) -
             (in[(y - 1) * width + x - 1] + 2 * in[y * width + x - 1] + in[(y + 1) * width + x - 1]);
    int gy = (in[(y + 1) * width + x - 1] + 2 * in[(y + 1) * width + x] + in[(y + 1) * width + x + 1]) -
             (in[(y - 1) * width + x - 1] + 2 * in[(y - 1) * width + x] + in[(y - 1) * width + x + 1]);
    int g = abs(gx) + abs(gy);
    out[y * width + x] = g > 255 ? 255 : g;
  }
}

// Byte i of a K-byte window held in registers.
__device__ __forceinline__ int byteAt(const unsigned *w, int i) { return (w[i >> 2] >> (8 * (i & 3))) & 0xff; }

/// K adjacent pixels starting at x0 (x0 a multiple of K, K = 4 or 16) of row y.
template <int K>
__device__ __forceinline__ void sobelRun(const unsigned char *__restrict__ in, unsigned *res, int x0, int y, int width,
                                         int height) {
  // Rows y-1, y, y+1; window bytes 0..K+1 = pixels x0-1 .. x0+K.
  unsigned char p[3][K + 2];
#pragma unroll
  for (int r = 0; r < 3; r++) {
    int yy = min(max(y - 1 + r, 0), height - 1);
    const unsigned char *row = in + size_t(yy) * width;
    unsigned w[K / 4];
    if (K == 16) {
      uint4 v = __ldg(reinterpret_cast<const uint4 *>(row + x0));
      w[0] = v.x, w[1] = v.y, w[2] = v.z, w[3] = v.w;
    } else {
      w[0] = __ldg(reinterpret_cast<const unsigned *>(row + x0));
    }
#pragma unroll
    for (int i = 0; i < K; i++) p[r][i + 1] = byteAt(w, i);
    p[r][0] = x0 > 0 ? __ldg(row + x0 - 1) : 0;
    p[r][K + 1] = x0 + K < width ? __ldg(row + x0 + K) : 0;
  }
#pragma unroll
  for (int i = 0; i < K / 4; i++) res[i] = 0;
#pragma unroll
  for (int i = 0; i < K; i++) {
    int x = x0 + i;
    if (x >= 1 && x < width - 1 && y >= 1 && y < height - 1) {
      int gx = (p[0][i + 2] + 2 * p[1][i + 2] + p[2][i + 2]) - (p[0][i] + 2 * p[1][i] + p[2][i]);
      int gy = (p[2][i] + 2 * p[2][i + 1] + p[2][i + 2]) - (p[0][i] + 2 * p[0][i + 1] + p[0][i + 2]);
      int g = min(abs(gx) + abs(gy), 255);
      res[i >> 2] |= unsigned(g) << (8 * (i & 3));
    }
  }
}

extern "C" __global__ void sobel_hand_paper(const unsigned char *__restrict__ in, unsigned char *__restrict__ out,
                                            int width, int height) {
  int x0 = (blockIdx.x * blockDim.x + threadIdx.x) * 4;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x0 >= width || y >= height) return;
  unsigned res[1];
  sobelRun<4>(in, res, x0, y, width, height);
  *reinterpret_cast<unsigned *>(out + size_t(y) * width + x0) = res[0];
}

extern "C" __global__ void sobel_hand_best(const unsigned char *__restrict__ in, unsigned char *__restrict__ out,
                                           int width, int height) {
  int x0 = (blockIdx.x * blockDim.x + threadIdx.x) * 16;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x0 >= width || y >= height) return;
  unsigned res[4];
  sobelRun<16>(in, res, x0, y, width, height);
  *reinterpret_cast<uint4 *>(out + size_t(y) * width + x0) = make_uint4(res[0], res[1], res[2], res[3]);
}

int main(int argc, char **argv) {
  ex::Bench B(argc, argv, "sobel", "sobel_naive");
  const int sizes[][2] = {{1920, 1080}, {8192, 8192}};
  for (int si = 0; si < (B.small() ? 1 : 2); si++) {
    const int w = sizes[si][0], h = sizes[si][1];
    std::string size = ex::dims(w, h);
    if (!B.wantSize(size, si, 2)) continue;
    const size_t n = size_t(w) * h;
    std::vector<uint8_t> img(n), ref(n, 0), got;
    ex::fillBytes(img, 11);
    for (int y = 1; y < h - 1; y++)
      for (int x = 1; x < w - 1; x++) {
        auto P = [&](int xx, int yy) { return int(img[size_t(yy) * w + xx]); };
        int gx = (P(x + 1, y - 1) + 2 * P(x + 1, y) + P(x + 1, y + 1)) - (P(x - 1, y - 1) + 2 * P(x - 1, y) + P(x - 1, y + 1));
        int gy = (P(x - 1, y + 1) + 2 * P(x, y + 1) + P(x + 1, y + 1)) - (P(x - 1, y - 1) + 2 * P(x, y - 1) + P(x + 1, y - 1));
        ref[size_t(y) * w + x] = uint8_t(std::min(std::abs(gx) + std::abs(gy), 255));
      }
    ex::DevBuf<uint8_t> din(n), dout(n);
    din.upload(img);
    double bytes = 2.0 * n;
    auto reset = [&] { dout.zero(); };
    auto verify = [&] {
      dout.download(got);
      return ex::sameAs(got, ref, "edges");
    };
    const unsigned char *pin = din.p;
    unsigned char *pout = dout.p;
    int width = w, height = h;
    void *args[] = {&pin, &pout, &width, &height};
    dim3 blk(32, 8), grid(w / 32, h / 8);
    B.naive(size, bytes, [&] { sobel_naive<<<grid, blk>>>(pin, pout, width, height); }, grid, blk, args, reset, verify);
    B.hand(size, "hand_paper", bytes,
           [&] { sobel_hand_paper<<<dim3((w / 4 + 31) / 32, h / 8), blk>>>(pin, pout, width, height); }, reset, verify);
    B.hand(size, "hand_best", bytes,
           [&] { sobel_hand_best<<<dim3((w / 16 + 31) / 32, h / 8), blk>>>(pin, pout, width, height); }, reset, verify);
  }
  return B.exitCode();
}
