// hv_bytes_hist_rows: per-row sums, one thread per row: an 8-bit image of
// rows x width (8192 x 4096, 32 MB) summed into unsigned int (`s +=
// img[r*width+c]`, runtime width, blocks of 256), and a short matrix of
// rows x kShortCols (8192 x 4096, 64 MB) summed into int (compile-time row
// length, blocks of 128). One launch each. Timed: both kernels. Checked
// exactly.
#include <algorithm>
#include <cstring>

#include "../common.h"

__global__ void row_sum_u8(const unsigned char *img, unsigned int *sums, int rows, int width) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < rows) {
    unsigned int s = 0;
    for (int c = 0; c < width; c++) s += img[r * width + c];
    sums[r] = s;
  }
}

constexpr int kShortCols = 4096;

__global__ void row_sum_s16(const short *v, int *sums, int rows) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < rows) {
    int s = 0;
    for (int c = 0; c < kShortCols; c++) s += v[r * kShortCols + c];
    sums[r] = s;
  }
}

int main(int argc, char **argv) {
  const int rows = argInt(argc, argv, 1, 8192), width = argInt(argc, argv, 2, 4096);
  const size_t n8 = size_t(rows) * width, n16 = size_t(rows) * kShortCols;
  std::vector<unsigned char> img(n8);
  for (size_t i = 0; i < n8; i += 4) {
    uint32_t w = hashAt(351, i / 4) | 0x01010101u;  // no zero pixel
    std::memcpy(&img[i], &w, std::min<size_t>(4, n8 - i));
  }
  std::vector<short> v(n16);
  for (size_t i = 0; i < n16; i++) {
    short s = short(hashAt(352, i) & 0xFFFFu);
    v[i] = s ? s : short(1);
  }
  unsigned char *dimg = toDevice(img);
  short *dv = toDevice(v);
  unsigned int *dsum8;
  int *dsum16;
  CHECK(cudaMalloc(&dsum8, size_t(rows) * sizeof(unsigned int)));
  CHECK(cudaMalloc(&dsum16, size_t(rows) * sizeof(int)));
  GpuTimer t;
  t.start();
  row_sum_u8<<<blocksFor(rows, 256), 256>>>(dimg, dsum8, rows, width);
  CHECK_LAUNCH();
  row_sum_s16<<<blocksFor(rows, 128), 128>>>(dv, dsum16, rows);
  CHECK_LAUNCH();
  float ms = t.stop();
  std::vector<unsigned int> sum8 = fromDevice(dsum8, rows);
  std::vector<int> sum16 = fromDevice(dsum16, rows);

  std::vector<unsigned int> ref8(rows);
  std::vector<int> ref16(rows);
  for (int r = 0; r < rows; r++) {
    unsigned int s = 0;
    for (int c = 0; c < width; c++) s += img[size_t(r) * width + c];
    ref8[r] = s;
    int t16 = 0;
    for (int c = 0; c < kShortCols; c++) t16 += v[size_t(r) * kShortCols + c];
    ref16[r] = t16;
  }
  bool ok = checkExact("u8 sums", sum8.data(), ref8.data(), rows);
  ok = checkExact("s16 sums", sum16.data(), ref16.data(), rows) && ok;
  return finish(ms, ok);
}
