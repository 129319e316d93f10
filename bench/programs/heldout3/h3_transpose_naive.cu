// h3_transpose_naive: the CUDA samples' / NVIDIA blog's naive transpose of a
// float matrix, TILE_DIM = 32, BLOCK_ROWS = 8, blocks of 32 x 8, each thread
// copying TILE_DIM / BLOCK_ROWS = 4 elements down its tile column:
// (1) square, width from gridDim: `for (j = 0; j < TILE_DIM; j += BLOCK_ROWS)
// odata[x*width + (y+j)] = idata[(y+j)*width + x]`, 8192 x 8192 (256 MB in,
// 256 MB out), launched 4 times (the blog's repetitions); (2) the same loop
// with the bounds test inside it, `if (x < width && y+j < height)`, over a
// width x height = 8000 x 6000 matrix (6000 not a multiple of 32; 192 MB in,
// 192 MB out), launched 2 times. Timed: all 6 launches. Checked exactly.
#include "../common.h"

#define TILE_DIM 32
#define BLOCK_ROWS 8

__global__ void transposeNaive(float *odata, const float *idata) {
  int x = blockIdx.x * TILE_DIM + threadIdx.x;
  int y = blockIdx.y * TILE_DIM + threadIdx.y;
  int width = gridDim.x * TILE_DIM;

  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS) odata[x * width + (y + j)] = idata[(y + j) * width + x];
}

__global__ void transposeNaiveGuarded(float *odata, const float *idata, int width, int height) {
  int x = blockIdx.x * TILE_DIM + threadIdx.x;
  int y = blockIdx.y * TILE_DIM + threadIdx.y;

  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
    if (x < width && (y + j) < height) odata[x * height + (y + j)] = idata[(y + j) * width + x];
}

int main(int argc, char **argv) {
  int n = argInt(argc, argv, 1, 8192);
  n = (n + TILE_DIM - 1) / TILE_DIM * TILE_DIM;  // the square kernel has no guard
  const int width = argInt(argc, argv, 2, 8000), height = argInt(argc, argv, 3, 6000);
  const size_t ns = size_t(n) * n, nr = size_t(width) * height;
  std::vector<float> a(ns), b(nr);
  fillFloats(a, 3101);
  fillFloats(b, 3102);
  float *da = toDevice(a), *db = toDevice(b), *dat, *dbt;
  CHECK(cudaMalloc(&dat, ns * sizeof(float)));
  CHECK(cudaMalloc(&dbt, nr * sizeof(float)));
  CHECK(cudaDeviceSynchronize());
  dim3 block(TILE_DIM, BLOCK_ROWS);
  dim3 gridS(n / TILE_DIM, n / TILE_DIM);
  dim3 gridR(blocksFor(width, TILE_DIM), blocksFor(height, TILE_DIM));
  GpuTimer t;
  t.start();
  for (int r = 0; r < 4; r++) {
    transposeNaive<<<gridS, block>>>(dat, da);
    CHECK_LAUNCH();
  }
  for (int r = 0; r < 2; r++) {
    transposeNaiveGuarded<<<gridR, block>>>(dbt, db, width, height);
    CHECK_LAUNCH();
  }
  float ms = t.stop();
  std::vector<float> at = fromDevice(dat, ns), bt = fromDevice(dbt, nr);

  size_t bad = 0;
  for (size_t y = 0; y < size_t(n); y++)
    for (size_t x = 0; x < size_t(n); x++) bad += !(at[x * n + y] == a[y * n + x]);
  if (bad) std::fprintf(stderr, "transposeNaive: %zu of %zu differ\n", bad, ns);
  size_t bad2 = 0;
  for (size_t y = 0; y < size_t(height); y++)
    for (size_t x = 0; x < size_t(width); x++) bad2 += !(bt[x * height + y] == b[y * width + x]);
  if (bad2) std::fprintf(stderr, "transposeNaiveGuarded: %zu of %zu differ\n", bad2, nr);
  CHECK(cudaFree(da));
  CHECK(cudaFree(db));
  CHECK(cudaFree(dat));
  CHECK(cudaFree(dbt));
  return finish(ms, bad == 0 && bad2 == 0);
}
