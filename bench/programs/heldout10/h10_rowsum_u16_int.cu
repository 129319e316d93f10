// h10_rowsum_u16_int: per-row sums of narrow integer matrices, a thread per
// row walking its row left to right with a register accumulator, blocks of
// 128. (1) uint16 -> uint32: R1 x C1 = 8192 x 4096 unsigned short (67 MB),
// `int r = blockIdx.x*blockDim.x + threadIdx.x; for (int j = 0; j < cols;
// j++) s += a[r*cols + j];` (the largest sum, 4096 * 65535, fits in 32
// bits); (2) int8 -> int: R2 x C2 = 8192 x 8192 signed char (67 MB), values
// in [-127, 127] without 0, the same loop with `unsigned` r, j and cols.
// Sizes: R1 C1 R2 C2 (argv). Each kernel launched once. Timed: the 2
// launches. Checked: every row sum, exactly (integer).
#include "../common.h"

__global__ void rowsum_u16(const unsigned short *a, unsigned *sums, int rows, int cols) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < rows) {
    unsigned s = 0;
    for (int j = 0; j < cols; j++) s += a[r * cols + j];
    sums[r] = s;
  }
}

__global__ void rowsum_i8(const signed char *a, int *sums, unsigned rows, unsigned cols) {
  unsigned r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < rows) {
    int s = 0;
    for (unsigned j = 0; j < cols; j++) s += a[r * cols + j];
    sums[r] = s;
  }
}

int main(int argc, char **argv) {
  const int R1 = argInt(argc, argv, 1, 8192), C1 = argInt(argc, argv, 2, 4096);
  const unsigned R2 = argInt(argc, argv, 3, 8192), C2 = argInt(argc, argv, 4, 8192);
  const size_t n1 = size_t(R1) * C1, n2 = size_t(R2) * C2;
  std::vector<unsigned short> a1(n1);
  for (size_t i = 0; i < n1; i++) a1[i] = (unsigned short)(1 + hashAt(10401, i) % 65535);
  std::vector<signed char> a2(n2);
  for (size_t i = 0; i < n2; i++) {
    uint32_t h = hashAt(10402, i);
    int v = 1 + int((h >> 1) % 127);
    a2[i] = (signed char)((h & 1) ? -v : v);
  }
  unsigned short *d_a1 = toDevice(a1);
  signed char *d_a2 = toDevice(a2);
  unsigned *d_s1;
  int *d_s2;
  CHECK(cudaMalloc(&d_s1, R1 * sizeof(unsigned)));
  CHECK(cudaMalloc(&d_s2, R2 * sizeof(int)));
  CHECK(cudaDeviceSynchronize());

  GpuTimer t;
  t.start();
  rowsum_u16<<<blocksFor(R1, 128), 128>>>(d_a1, d_s1, R1, C1);
  CHECK_LAUNCH();
  rowsum_i8<<<blocksFor(R2, 128), 128>>>(d_a2, d_s2, R2, C2);
  CHECK_LAUNCH();
  float ms = t.stop();
  std::vector<unsigned> g1 = fromDevice(d_s1, R1);
  std::vector<int> g2 = fromDevice(d_s2, R2);

  std::vector<unsigned> r1(R1);
  for (size_t r = 0; r < size_t(R1); r++) {
    unsigned s = 0;
    for (size_t j = 0; j < size_t(C1); j++) s += a1[r * C1 + j];
    r1[r] = s;
  }
  std::vector<int> r2(R2);
  for (size_t r = 0; r < R2; r++) {
    int s = 0;
    for (size_t j = 0; j < C2; j++) s += a2[r * C2 + j];
    r2[r] = s;
  }
  bool ok = checkExact("u16 row sums", g1.data(), r1.data(), R1);
  ok = checkExact("i8 row sums", g2.data(), r2.data(), R2) && ok;
  CHECK(cudaFree(d_a1));
  CHECK(cudaFree(d_a2));
  CHECK(cudaFree(d_s1));
  CHECK(cudaFree(d_s2));
  return finish(ms, ok);
}
