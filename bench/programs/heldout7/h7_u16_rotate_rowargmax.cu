// h7_u16_rotate_rowargmax: 16-bit images. (1) rotate an `unsigned short`
// image by 90 degrees clockwise, W x H = 6144 x 6000 (74 MB), 32 x 8
// blocks, `unsigned` indices, `out[x*H + (H - 1 - y)] = in[y*W + x]`;
// (2) row maximum and its first index, written as a branch (`if (v > best)
// { best = v; where = j; }`), thread per row, rows x cols = 9000 x 4000
// (72 MB), blocks of 96, `int` indices, results widened into int. One
// launch each. Timed: both. Checked: exactly.
#include "../common.h"

__global__ void rotate_cw_u16(const unsigned short *in, unsigned short *out, unsigned W, unsigned H) {
  unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < W && y < H) out[x * H + (H - 1 - y)] = in[y * W + x];
}

__global__ void row_argmax_u16(const unsigned short *img, int *maxv, int *maxi, int rows, int cols) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < rows) {
    int best = -1, where = -1;
    for (int j = 0; j < cols; j++) {
      int v = img[r * cols + j];
      if (v > best) {
        best = v;
        where = j;
      }
    }
    maxv[r] = best;
    maxi[r] = where;
  }
}

int main(int argc, char **argv) {
  const unsigned W = unsigned(argInt(argc, argv, 1, 6144)), H = unsigned(argInt(argc, argv, 2, 6000));
  const int rows = argInt(argc, argv, 3, 9000), cols = argInt(argc, argv, 4, 4000);
  const size_t np = size_t(W) * H, nm = size_t(rows) * cols;

  std::vector<unsigned short> img(np), m(nm);
  for (size_t i = 0; i < np; i++) img[i] = (unsigned short)(1 + hashAt(8201, i) % 65535u);
  for (size_t i = 0; i < nm; i++) m[i] = (unsigned short)(1 + hashAt(8202, i) % 60000u);

  unsigned short *d_img = toDevice(img), *d_rot, *d_m = toDevice(m);
  int *d_maxv, *d_maxi;
  CHECK(cudaMalloc(&d_rot, np * sizeof(unsigned short)));
  CHECK(cudaMalloc(&d_maxv, rows * sizeof(int)));
  CHECK(cudaMalloc(&d_maxi, rows * sizeof(int)));
  CHECK(cudaDeviceSynchronize());

  dim3 block(32, 8), grid((W + 31) / 32, (H + 7) / 8);
  GpuTimer t;
  t.start();
  rotate_cw_u16<<<grid, block>>>(d_img, d_rot, W, H);
  CHECK_LAUNCH();
  row_argmax_u16<<<(rows + 95) / 96, 96>>>(d_m, d_maxv, d_maxi, rows, cols);
  CHECK_LAUNCH();
  float ms = t.stop();
  std::vector<unsigned short> rot = fromDevice(d_rot, np);
  std::vector<int> maxv = fromDevice(d_maxv, rows), maxi = fromDevice(d_maxi, rows);

  std::vector<unsigned short> rref(np);
  for (size_t y = 0; y < H; y++)
    for (size_t x = 0; x < W; x++) rref[x * H + (H - 1 - y)] = img[y * W + x];
  std::vector<int> vref(rows), iref(rows);
  for (size_t r = 0; r < size_t(rows); r++) {
    int best = -1, where = -1;
    for (size_t j = 0; j < size_t(cols); j++)
      if (int(m[r * cols + j]) > best) best = m[r * cols + j], where = int(j);
    vref[r] = best;
    iref[r] = where;
  }
  bool ok = checkExact("u16 rotate cw", rot.data(), rref.data(), np);
  ok = checkExact("row max", maxv.data(), vref.data(), rows) && ok;
  ok = checkExact("row argmax", maxi.data(), iref.data(), rows) && ok;
  CHECK(cudaFree(d_img));
  CHECK(cudaFree(d_rot));
  CHECK(cudaFree(d_m));
  CHECK(cudaFree(d_maxv));
  CHECK(cudaFree(d_maxi));
  return finish(ms, ok);
}
