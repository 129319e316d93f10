// h7_u8_s16_rowsums: small-integer rows summed into int, thread per row.
// (1) `unsigned char` rows, rows x cols = 12000 x 6000 (72 MB), blocks of
// 256, `int` row, a `size_t` row pointer, `sum += row[j]`; (2) signed
// `short` rows in [-1000, 1000] without 0, rows x cols = 8000 x 4500
// (72 MB), blocks of 192, `unsigned` index arithmetic `sum += a[r*cols +
// j]`. Row counts are not multiples of the blocks. One launch each. Timed:
// both. Checked: exactly (integer).
#include "../common.h"

__global__ void u8_row_sums(const unsigned char *data, int *sums, int rows, int cols) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < rows) {
    const unsigned char *row = data + (size_t)r * cols;
    int sum = 0;
    for (int j = 0; j < cols; j++) sum += row[j];
    sums[r] = sum;
  }
}

__global__ void s16_row_sums(const short *__restrict__ a, int *__restrict__ sums, unsigned rows, unsigned cols) {
  unsigned r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  int sum = 0;
  for (unsigned j = 0; j < cols; j++) sum += a[r * cols + j];
  sums[r] = sum;
}

int main(int argc, char **argv) {
  const int rows8 = argInt(argc, argv, 1, 12000), cols8 = argInt(argc, argv, 2, 6000);
  const unsigned rows16 = unsigned(argInt(argc, argv, 3, 8000)), cols16 = unsigned(argInt(argc, argv, 4, 4500));
  const size_t n8 = size_t(rows8) * cols8, n16 = size_t(rows16) * cols16;

  std::vector<unsigned char> a8(n8);
  for (size_t i = 0; i < n8; i++) a8[i] = (unsigned char)(1 + hashAt(7701, i) % 255u);
  std::vector<short> a16(n16);
  for (size_t i = 0; i < n16; i++) {
    int v = int(hashAt(7702, i) % 2000u) - 1000;
    a16[i] = short(v >= 0 ? v + 1 : v);
  }

  unsigned char *d_a8 = toDevice(a8);
  short *d_a16 = toDevice(a16);
  int *d_s8, *d_s16;
  CHECK(cudaMalloc(&d_s8, rows8 * sizeof(int)));
  CHECK(cudaMalloc(&d_s16, rows16 * sizeof(int)));
  CHECK(cudaDeviceSynchronize());

  GpuTimer t;
  t.start();
  u8_row_sums<<<(rows8 + 255) / 256, 256>>>(d_a8, d_s8, rows8, cols8);
  CHECK_LAUNCH();
  s16_row_sums<<<blocksFor(rows16, 192), 192>>>(d_a16, d_s16, rows16, cols16);
  CHECK_LAUNCH();
  float ms = t.stop();
  std::vector<int> s8 = fromDevice(d_s8, rows8), s16 = fromDevice(d_s16, rows16);

  std::vector<int> r8(rows8), r16(rows16);
  for (size_t r = 0; r < size_t(rows8); r++) {
    int s = 0;
    for (size_t j = 0; j < size_t(cols8); j++) s += a8[r * cols8 + j];
    r8[r] = s;
  }
  for (size_t r = 0; r < rows16; r++) {
    int s = 0;
    for (size_t j = 0; j < cols16; j++) s += a16[r * cols16 + j];
    r16[r] = s;
  }
  bool ok = checkExact("u8 row sums", s8.data(), r8.data(), rows8);
  ok = checkExact("s16 row sums", s16.data(), r16.data(), rows16) && ok;
  CHECK(cudaFree(d_a8));
  CHECK(cudaFree(d_a16));
  CHECK(cudaFree(d_s8));
  CHECK(cudaFree(d_s16));
  return finish(ms, ok);
}
