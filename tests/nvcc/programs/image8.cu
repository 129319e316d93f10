// 8-bit image filters as an image library would write them: a guarded
// per-pixel brighten, a 2-D invert with an (x, y) bounds test, a naive
// transpose, a 3x3 box blur. Sizes: 1920x1080 and odd ones; one launch on a
// pointer one byte past an allocation (clones that need alignment must not run).
// FLAGS: -O3
#include "common.h"

__global__ void brighten(const unsigned char *in, unsigned char *out, int n, int add) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int v = in[i] + add;
    out[i] = v > 255 ? 255 : v;
  }
}

__global__ void invert2d(const unsigned char *in, unsigned char *out, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < w && y < h) out[y * w + x] = 255 - in[y * w + x];
}

__global__ void transpose8(const unsigned char *in, unsigned char *out, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < w && y < h) out[x * h + y] = in[y * w + x];
}

__global__ void box3(const unsigned char *in, unsigned char *out, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y;
  if (x < 1 || x >= w - 1 || y < 1 || y >= h - 1) return;
  int s = 0;
  for (int dy = -1; dy <= 1; ++dy)
    for (int dx = -1; dx <= 1; ++dx) s += in[(y + dy) * w + x + dx];
  out[y * w + x] = (unsigned char)(s / 9);
}

static void runBrighten(int n, int block, size_t skew) {
  std::vector<unsigned char> in(n + skew);
  fill(in, n);
  unsigned char *din = toDevice(in), *dout;
  CHECK(cudaMalloc(&dout, n + skew));
  CHECK(cudaMemset(dout, 7, n + skew));
  brighten<<<(n + block - 1) / block, block>>>(din + skew, dout + skew, n, 40);
  CHECK(cudaGetLastError());
  std::vector<unsigned char> got = fromDevice(dout + skew, n), want(n);
  for (int i = 0; i < n; ++i) want[i] = (unsigned char)std::min(in[i + skew] + 40, 255);
  report(label("brighten n=%d block=%d skew=%zu", n, block, skew), got, want);
  CHECK(cudaFree(din));
  CHECK(cudaFree(dout));
}

static void run2d(int w, int h, dim3 block) {
  size_t n = size_t(w) * h;
  std::vector<unsigned char> in(n);
  fill(in, w + h);
  unsigned char *din = toDevice(in), *dinv, *dtr, *dbox;
  CHECK(cudaMalloc(&dinv, n));
  CHECK(cudaMalloc(&dtr, n));
  CHECK(cudaMalloc(&dbox, n));
  CHECK(cudaMemset(dbox, 0, n));
  dim3 grid((w + block.x - 1) / block.x, (h + block.y - 1) / block.y);
  invert2d<<<grid, block>>>(din, dinv, w, h);
  transpose8<<<grid, block>>>(din, dtr, w, h);
  box3<<<dim3((w + 255) / 256, h), 256>>>(din, dbox, w, h);
  CHECK(cudaGetLastError());
  std::vector<unsigned char> inv = fromDevice(dinv, n), tr = fromDevice(dtr, n), box = fromDevice(dbox, n);
  std::vector<unsigned char> winv(n), wtr(n), wbox(n, 0);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      winv[size_t(y) * w + x] = 255 - in[size_t(y) * w + x];
      wtr[size_t(x) * h + y] = in[size_t(y) * w + x];
      if (x >= 1 && x < w - 1 && y >= 1 && y < h - 1) {
        int s = 0;
        for (int dy = -1; dy <= 1; ++dy)
          for (int dx = -1; dx <= 1; ++dx) s += in[size_t(y + dy) * w + x + dx];
        wbox[size_t(y) * w + x] = (unsigned char)(s / 9);
      }
    }
  report(label("invert2d %dx%d block=%ux%u", w, h, block.x, block.y), inv, winv);
  report(label("transpose8 %dx%d block=%ux%u", w, h, block.x, block.y), tr, wtr);
  report(label("box3 %dx%d", w, h), box, wbox);
  CHECK(cudaFree(din));
  CHECK(cudaFree(dinv));
  CHECK(cudaFree(dtr));
  CHECK(cudaFree(dbox));
}

int main() {
  runBrighten(1920 * 1080, 256, 0);
  runBrighten(1920 * 1080 + 7, 256, 0);
  runBrighten(1000003, 128, 0);
  runBrighten(1 << 20, 256, 1);  // misaligned base pointers
  runBrighten(33, 64, 0);
  run2d(1920, 1080, dim3(32, 8));
  run2d(1024, 768, dim3(16, 16));
  run2d(1001, 333, dim3(32, 4));
  run2d(64, 64, dim3(64, 1));
  return 0;
}
