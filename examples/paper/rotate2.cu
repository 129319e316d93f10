// Image rotation 2: every output pixel is written once, with the input pixel
// it comes from (0 outside the input) (van den Braak et al., SAMOS 2010,
// Table II row 6: 3.40 ms original, 1.27 ms with the tool (four 8-bit writes
// grouped) and by hand, 3x).
//
// naive       one thread per output pixel (128-thread rows of blocks).
// hand_paper  four output pixels per thread, written as one 4-byte word.
// hand_best   sixteen output pixels per thread, one 16-byte store.
//
// Sizes: 1920x1080 (the paper's) and 8192x8192 (64 MiB in, 64 MiB out).
#include "common.h"
#include "rotate.h"

extern "C" __global__ void rotate2_naive(const unsigned char *in, unsigned char *out, int width, int height, int cs,
                                         int sn, int cx, int cy) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y;
  int xs, ys;
  rotInv(x, y, cs, sn, cx, cy, xs, ys);
  unsigned char p = 0;
  if (xs >= 0 && xs < width && ys >= 0 && ys < height) p = in[ys * width + xs];
  out[y * width + x] = p;
}

template <int K>
__device__ __forceinline__ void gather(const unsigned char *__restrict__ in, unsigned *w, int x0, int y, int width,
                                       int height, int cs, int sn, int cx, int cy) {
#pragma unroll
  for (int i = 0; i < K / 4; i++) w[i] = 0;
#pragma unroll
  for (int i = 0; i < K; i++) {
    int xs, ys;
    rotInv(x0 + i, y, cs, sn, cx, cy, xs, ys);
    if (xs >= 0 && xs < width && ys >= 0 && ys < height) w[i >> 2] |= unsigned(__ldg(in + ys * width + xs)) << (8 * (i & 3));
  }
}

extern "C" __global__ void rotate2_hand_paper(const unsigned char *__restrict__ in, unsigned char *__restrict__ out,
                                              int width, int height, int cs, int sn, int cx, int cy) {
  int x0 = (blockIdx.x * blockDim.x + threadIdx.x) * 4;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x0 >= width) return;
  unsigned w[1];
  gather<4>(in, w, x0, y, width, height, cs, sn, cx, cy);
  *reinterpret_cast<unsigned *>(out + size_t(y) * width + x0) = w[0];
}

extern "C" __global__ void rotate2_hand_best(const unsigned char *__restrict__ in, unsigned char *__restrict__ out,
                                             int width, int height, int cs, int sn, int cx, int cy) {
  int x0 = (blockIdx.x * blockDim.x + threadIdx.x) * 16;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x0 >= width) return;
  unsigned w[4];
  gather<16>(in, w, x0, y, width, height, cs, sn, cx, cy);
  *reinterpret_cast<uint4 *>(out + size_t(y) * width + x0) = make_uint4(w[0], w[1], w[2], w[3]);
}

int main(int argc, char **argv) {
  ex::Bench B(argc, argv, "rotate2", "rotate2_naive");
  const int sizes[][2] = {{1920, 1080}, {8192, 8192}};
  for (int si = 0; si < (B.small() ? 1 : 2); si++) {
    const int w = sizes[si][0], h = sizes[si][1];
    std::string size = ex::dims(w, h);
    if (!B.wantSize(size, si, 2)) continue;
    const size_t n = size_t(w) * h;
    Rot R = makeRot(w, h);
    std::vector<uint8_t> img(n), ref(n), got;
    ex::fillBytes(img, 17);
    size_t reads = 0;
    for (int y = 0; y < h; y++)
      for (int x = 0; x < w; x++) {
        int xs, ys;
        rotInv(x, y, R.cs, R.sn, R.cx, R.cy, xs, ys);
        bool in = xs >= 0 && xs < w && ys >= 0 && ys < h;
        reads += in;
        ref[size_t(y) * w + x] = in ? img[size_t(ys) * w + xs] : 0;
      }
    ex::DevBuf<uint8_t> din(n), dout(n);
    din.upload(img);
    double bytes = double(n) + double(reads);
    // Poison the output: every pixel must be written.
    auto reset = [&] { EX_CHECK(cudaMemset(dout.p, 0xA5, n)); };
    auto verify = [&] {
      dout.download(got);
      return ex::sameAs(got, ref, "rotated");
    };
    const unsigned char *pin = din.p;
    unsigned char *pout = dout.p;
    int width = w, height = h;
    void *args[] = {&pin, &pout, &width, &height, &R.cs, &R.sn, &R.cx, &R.cy};
    dim3 blk(128), grid(w / 128, h);
    B.naive(size, bytes, [&] { rotate2_naive<<<grid, blk>>>(pin, pout, width, height, R.cs, R.sn, R.cx, R.cy); }, grid,
            blk, args, reset, verify);
    B.hand(size, "hand_paper", bytes,
           [&] {
             rotate2_hand_paper<<<dim3(w / 4 / 32, h / 4), dim3(32, 4)>>>(pin, pout, width, height, R.cs, R.sn, R.cx, R.cy);
           },
           reset, verify);
    B.hand(size, "hand_best", bytes,
           [&] {
             rotate2_hand_best<<<dim3((w / 16 + 7) / 8, h / 8), dim3(8, 8)>>>(pin, pout, width, height, R.cs, R.sn, R.cx,
                                                                           R.cy);
           },
           reset, verify);
  }
  return B.exitCode();
}
