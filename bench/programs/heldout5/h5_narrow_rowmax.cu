// h5_narrow_rowmax: per-row maxima of narrow integers into int, one thread
// per row. (1) int8_t rows of a compile-time width, `template <int COLS>`,
// `int v = in[r*COLS + j]; if (v > best) best = v;` (32768 x 2048, 64 MB;
// blocks of 256); (2) uint16_t rows of a runtime width through a size_t row
// pointer, `best = max(best, (int)p[j])` after an early return (8192 x 4096,
// 64 MB; blocks of 64). Each row draws from its own value range so the maxima
// differ from row to row. One launch each. Timed: both. Checked exactly.
#include <algorithm>

#include "../common.h"

constexpr int kCols8 = 2048;

template <int COLS> __global__ void rowmax_i8(const int8_t *in, int *out, int rows) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < rows) {
    int best = -128;
    for (int j = 0; j < COLS; ++j) {
      int v = in[r * COLS + j];
      if (v > best) best = v;
    }
    out[r] = best;
  }
}

__global__ void rowmax_u16(const uint16_t *in, int *out, int rows, int cols) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  const uint16_t *p = in + (size_t)r * cols;
  int best = 0;
  for (int j = 0; j < cols; j++) best = max(best, (int)p[j]);
  out[r] = best;
}

int main(int argc, char **argv) {
  const int rows8 = argInt(argc, argv, 1, 32768);
  const int rows16 = argInt(argc, argv, 2, 8192), cols16 = argInt(argc, argv, 3, 4096);
  std::vector<int8_t> a8(size_t(rows8) * kCols8);
  std::vector<uint16_t> a16(size_t(rows16) * cols16);
  for (size_t r = 0; r < size_t(rows8); r++) {
    const uint32_t range = 60u + uint32_t(r % 160u);  // values in [-100, range - 100)
    for (size_t j = 0; j < kCols8; j++) {
      int v = int(hashAt(5301, r * kCols8 + j) % range) - 100;
      a8[r * kCols8 + j] = int8_t(v ? v : 1);
    }
  }
  for (size_t r = 0; r < size_t(rows16); r++) {
    const uint32_t range = 1000u + uint32_t((r * 7919u) % 64000u);
    for (size_t j = 0; j < size_t(cols16); j++) a16[r * cols16 + j] = uint16_t(1 + hashAt(5302, r * cols16 + j) % range);
  }
  int8_t *d8 = toDevice(a8);
  uint16_t *d16 = toDevice(a16);
  int *dm8, *dm16;
  CHECK(cudaMalloc(&dm8, size_t(rows8) * sizeof(int)));
  CHECK(cudaMalloc(&dm16, size_t(rows16) * sizeof(int)));
  CHECK(cudaDeviceSynchronize());

  GpuTimer t;
  t.start();
  rowmax_i8<kCols8><<<blocksFor(rows8, 256), 256>>>(d8, dm8, rows8);
  CHECK_LAUNCH();
  rowmax_u16<<<blocksFor(rows16, 64), 64>>>(d16, dm16, rows16, cols16);
  CHECK_LAUNCH();
  float ms = t.stop();
  std::vector<int> m8 = fromDevice(dm8, rows8), m16 = fromDevice(dm16, rows16);

  std::vector<int> ref8(rows8), ref16(rows16);
  for (size_t r = 0; r < size_t(rows8); r++) {
    int best = -128;
    for (size_t j = 0; j < kCols8; j++) best = std::max(best, int(a8[r * kCols8 + j]));
    ref8[r] = best;
  }
  for (size_t r = 0; r < size_t(rows16); r++) {
    int best = 0;
    for (size_t j = 0; j < size_t(cols16); j++) best = std::max(best, int(a16[r * cols16 + j]));
    ref16[r] = best;
  }
  bool ok = checkExact("int8 row max", m8.data(), ref8.data(), rows8);
  ok = checkExact("uint16 row max", m16.data(), ref16.data(), rows16) && ok;
  CHECK(cudaFree(d8));
  CHECK(cudaFree(d16));
  CHECK(cudaFree(dm8));
  CHECK(cudaFree(dm16));
  return finish(ms, ok);
}
