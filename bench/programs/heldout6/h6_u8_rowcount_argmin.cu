// h6_u8_rowcount_argmin: per-row statistics of an `unsigned char` matrix,
// rows x cols = 20000 x 4096 (82 MB), one thread per row, `unsigned`
// indices: (1) a histogram-like count of the bytes above a threshold,
// `if (row[j] > thresh) count++` into int (blocks of 512, grid not a
// multiple); (2) the row's argmin (first index of the smallest byte), row
// from a 32 x 4 block flattened as `(blockIdx.x*blockDim.y + threadIdx.y) *
// blockDim.x + threadIdx.x`. One launch each. Timed: both. Checked exactly.
#include "../common.h"

__global__ void count_above(const unsigned char *data, int *counts, unsigned rows, unsigned cols,
                            unsigned char thresh) {
  unsigned r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  const unsigned char *row = data + (size_t)r * cols;
  int count = 0;
  for (unsigned j = 0; j < cols; j++)
    if (row[j] > thresh) count++;
  counts[r] = count;
}

__global__ void row_argmin(const unsigned char *data, int *argmin, unsigned rows, unsigned cols) {
  unsigned r = (blockIdx.x * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
  if (r < rows) {
    unsigned best = 256, bestIdx = 0;
    for (unsigned j = 0; j < cols; j++) {
      unsigned v = data[r * cols + j];
      if (v < best) {
        best = v;
        bestIdx = j;
      }
    }
    argmin[r] = (int)bestIdx;
  }
}

int main(int argc, char **argv) {
  const unsigned rows = unsigned(argInt(argc, argv, 1, 20000)), cols = unsigned(argInt(argc, argv, 2, 4096));
  const unsigned char thresh = (unsigned char)argInt(argc, argv, 3, 200);
  const size_t n = size_t(rows) * cols;
  std::vector<unsigned char> h(n);
  for (size_t i = 0; i < n; i++) h[i] = (unsigned char)(1 + hashAt(1301, i) % 255u);
  unsigned char *d_data = toDevice(h);
  int *d_counts, *d_argmin;
  CHECK(cudaMalloc(&d_counts, rows * sizeof(int)));
  CHECK(cudaMalloc(&d_argmin, rows * sizeof(int)));
  CHECK(cudaDeviceSynchronize());

  dim3 ab(32, 4), ag((rows + 127) / 128);
  GpuTimer t;
  t.start();
  count_above<<<blocksFor(rows, 512), 512>>>(d_data, d_counts, rows, cols, thresh);
  CHECK_LAUNCH();
  row_argmin<<<ag, ab>>>(d_data, d_argmin, rows, cols);
  CHECK_LAUNCH();
  float ms = t.stop();
  std::vector<int> counts = fromDevice(d_counts, rows), amin = fromDevice(d_argmin, rows);

  std::vector<int> cref(rows), aref(rows);
  for (size_t r = 0; r < rows; r++) {
    const unsigned char *p = h.data() + r * cols;
    int c = 0;
    unsigned best = 256, bi = 0;
    for (unsigned j = 0; j < cols; j++) {
      c += p[j] > thresh;
      if (p[j] < best) best = p[j], bi = j;
    }
    cref[r] = c;
    aref[r] = int(bi);
  }
  bool ok = checkExact("count above", counts.data(), cref.data(), rows);
  ok = checkExact("row argmin", amin.data(), aref.data(), rows) && ok;
  CHECK(cudaFree(d_data));
  CHECK(cudaFree(d_counts));
  CHECK(cudaFree(d_argmin));
  return finish(ms, ok);
}
