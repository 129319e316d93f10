// h3_ushort_rows: histogram-of-rows style kernels over unsigned short rows
// (a 16-bit image or count matrix), one thread per row, rows of `cols` =
// 4096 shorts (runtime), 16384 rows (128 MB). (1) row sums into unsigned
// int: `unsigned int sum = 0; for (j = 0; j < cols; j++) sum += in[row*cols
// + j]; out[row] = sum` (1-D blocks of 128); (2) a per-row 4-bin histogram
// by the top two bits, `bins[(v >> 14)]++` unrolled into four unsigned
// counters (`c0 += (v >> 14) == 0` ...), written to hist[row*4 + b] (1-D
// blocks of 64). Each launched twice. Timed: the 4 launches. Checked exactly.
#include "../common.h"

__global__ void rowSumU16(const unsigned short *in, unsigned int *out, int rows, int cols) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= rows) return;
  unsigned int sum = 0;
  for (int j = 0; j < cols; j++) sum += in[row * cols + j];
  out[row] = sum;
}

__global__ void rowHist4U16(const unsigned short *in, unsigned int *hist, int rows, int cols) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < rows) {
    unsigned int c0 = 0, c1 = 0, c2 = 0, c3 = 0;
    const unsigned short *p = in + (size_t)row * cols;
    for (int j = 0; j < cols; j++) {
      unsigned int b = p[j] >> 14;
      c0 += (b == 0);
      c1 += (b == 1);
      c2 += (b == 2);
      c3 += (b == 3);
    }
    hist[row * 4 + 0] = c0;
    hist[row * 4 + 1] = c1;
    hist[row * 4 + 2] = c2;
    hist[row * 4 + 3] = c3;
  }
}

int main(int argc, char **argv) {
  const int rows = argInt(argc, argv, 1, 16384), cols = argInt(argc, argv, 2, 4096);
  const size_t n = size_t(rows) * cols;
  std::vector<unsigned short> in(n);
  for (size_t k = 0; k < n; k++) in[k] = (unsigned short)(1 + hashAt(3801, k) % 65535u);
  unsigned short *din = toDevice(in);
  unsigned int *dsum, *dhist;
  CHECK(cudaMalloc(&dsum, size_t(rows) * sizeof(unsigned int)));
  CHECK(cudaMalloc(&dhist, size_t(rows) * 4 * sizeof(unsigned int)));
  CHECK(cudaDeviceSynchronize());
  GpuTimer t;
  t.start();
  for (int it = 0; it < 2; it++) {
    rowSumU16<<<blocksFor(rows, 128), 128>>>(din, dsum, rows, cols);
    CHECK_LAUNCH();
    rowHist4U16<<<blocksFor(rows, 64), 64>>>(din, dhist, rows, cols);
    CHECK_LAUNCH();
  }
  float ms = t.stop();
  std::vector<unsigned int> sum = fromDevice(dsum, rows), hist = fromDevice(dhist, size_t(rows) * 4);

  std::vector<unsigned int> rsum(rows), rhist(size_t(rows) * 4, 0u);
  for (size_t r = 0; r < size_t(rows); r++) {
    unsigned int s = 0;
    for (size_t j = 0; j < size_t(cols); j++) {
      unsigned short v = in[r * cols + j];
      s += v;
      rhist[r * 4 + (v >> 14)]++;
    }
    rsum[r] = s;
  }
  bool ok = checkExact("rowSumU16", sum.data(), rsum.data(), rows);
  ok = checkExact("rowHist4U16", hist.data(), rhist.data(), size_t(rows) * 4) && ok;
  CHECK(cudaFree(din));
  CHECK(cudaFree(dsum));
  CHECK(cudaFree(dhist));
  return finish(ms, ok);
}
