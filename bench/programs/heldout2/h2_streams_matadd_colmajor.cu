// h2_streams_matadd_colmajor: four independent column-major matrix adds
// C_k = A_k + B_k (k = 0..3) of rows x cols float (4096 x 4096, 64 MB a
// matrix, 768 MB in all), each on its own cudaStream_t. Element (i, j) is at
// j*rows + i, but the kernel takes the column j from threadIdx.x
// (`c[x*rows + y] = a[x*rows + y] + b[x*rows + y]`, x the column): the
// uncoalesced walk. Blocks of 16 x 16. One launch a stream. Timed: the four
// launches (the timer's events on the legacy default stream, which waits
// for the blocking streams). Checked exactly.
#include "../common.h"

__global__ void matadd_colmajor(const float *a, const float *b, float *c, int rows, int cols) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;  // column
  int y = blockIdx.y * blockDim.y + threadIdx.y;  // row
  if (x < cols && y < rows) c[x * rows + y] = a[x * rows + y] + b[x * rows + y];
}

int main(int argc, char **argv) {
  const int rows = argInt(argc, argv, 1, 4096), cols = argInt(argc, argv, 2, 4096);
  const int NS = 4;
  const size_t n = size_t(rows) * cols;
  std::vector<std::vector<float>> a(NS, std::vector<float>(n)), b(NS, std::vector<float>(n));
  float *da[NS], *db[NS], *dc[NS];
  cudaStream_t st[NS];
  for (int k = 0; k < NS; k++) {
    fillFloats(a[k], 2301 + 2 * k);
    fillFloats(b[k], 2302 + 2 * k);
    da[k] = toDevice(a[k]);
    db[k] = toDevice(b[k]);
    CHECK(cudaMalloc(&dc[k], n * sizeof(float)));
    CHECK(cudaStreamCreate(&st[k]));
  }
  CHECK(cudaDeviceSynchronize());
  dim3 block(16, 16), grid(blocksFor(cols, 16), blocksFor(rows, 16));
  GpuTimer t;
  t.start();
  for (int k = 0; k < NS; k++) {
    matadd_colmajor<<<grid, block, 0, st[k]>>>(da[k], db[k], dc[k], rows, cols);
    CHECK_LAUNCH();
  }
  for (int k = 0; k < NS; k++) CHECK(cudaStreamSynchronize(st[k]));
  float ms = t.stop();

  bool ok = true;
  for (int k = 0; k < NS; k++) {
    std::vector<float> c = fromDevice(dc[k], n);
    size_t bad = 0;
    for (size_t i = 0; i < n; i++) bad += !(c[i] == a[k][i] + b[k][i]);
    if (bad) {
      std::fprintf(stderr, "stream %d: %zu of %zu differ\n", k, bad, n);
      ok = false;
    }
    CHECK(cudaStreamDestroy(st[k]));
    CHECK(cudaFree(da[k]));
    CHECK(cudaFree(db[k]));
    CHECK(cudaFree(dc[k]));
  }
  return finish(ms, ok);
}
