// h6_samples_transpose: the CUDA samples' `transpose` kernels on a 4096 x
// 4096 float matrix (64 MB), TILE_DIM 32, BLOCK_ROWS 8 (32 x 8 blocks, each
// thread moving TILE_DIM / BLOCK_ROWS = 4 elements): (1) transposeNaive,
// `odata[index_out + i] = idata[index_in + i*width]` for i += BLOCK_ROWS;
// (2) transposeCoalesced, through a __shared__ tile[TILE_DIM][TILE_DIM] (by
// hand, with its bank conflicts). Sizes must be multiples of TILE_DIM, as in
// the sample. Each launched twice (the sample's timing loop, same output).
// Timed: all 4 launches. Checked exactly.
#include "../common.h"

#define TILE_DIM 32
#define BLOCK_ROWS 8
#define NUM_REPS 2

__global__ void transposeNaive(float *odata, float *idata, int width, int height) {
  int xIndex = blockIdx.x * TILE_DIM + threadIdx.x;
  int yIndex = blockIdx.y * TILE_DIM + threadIdx.y;
  int index_in = xIndex + width * yIndex;
  int index_out = yIndex + height * xIndex;
  for (int i = 0; i < TILE_DIM; i += BLOCK_ROWS) {
    odata[index_out + i] = idata[index_in + i * width];
  }
}

__global__ void transposeCoalesced(float *odata, float *idata, int width, int height) {
  __shared__ float tile[TILE_DIM][TILE_DIM];
  int xIndex = blockIdx.x * TILE_DIM + threadIdx.x;
  int yIndex = blockIdx.y * TILE_DIM + threadIdx.y;
  int index_in = xIndex + (yIndex)*width;
  xIndex = blockIdx.y * TILE_DIM + threadIdx.x;
  yIndex = blockIdx.x * TILE_DIM + threadIdx.y;
  int index_out = xIndex + (yIndex)*height;
  for (int i = 0; i < TILE_DIM; i += BLOCK_ROWS) {
    tile[threadIdx.y + i][threadIdx.x] = idata[index_in + i * width];
  }
  __syncthreads();
  for (int i = 0; i < TILE_DIM; i += BLOCK_ROWS) {
    odata[index_out + i * height] = tile[threadIdx.x][threadIdx.y + i];
  }
}

int main(int argc, char **argv) {
  int size_x = argInt(argc, argv, 1, 4096), size_y = argInt(argc, argv, 2, 4096);
  if (size_x % TILE_DIM != 0 || size_y % TILE_DIM != 0) {
    std::fprintf(stderr, "Matrix size must be integral multiple of tile size\n");
    return 1;
  }
  const size_t mem_size = size_t(size_x) * size_y;
  std::vector<float> h_idata(mem_size);
  fillFloats(h_idata, 1001);
  float *d_idata = toDevice(h_idata), *d_naive, *d_coal;
  CHECK(cudaMalloc(&d_naive, mem_size * sizeof(float)));
  CHECK(cudaMalloc(&d_coal, mem_size * sizeof(float)));
  CHECK(cudaDeviceSynchronize());

  dim3 grid(size_x / TILE_DIM, size_y / TILE_DIM), threads(TILE_DIM, BLOCK_ROWS);
  GpuTimer t;
  t.start();
  for (int i = 0; i < NUM_REPS; i++) {
    transposeNaive<<<grid, threads>>>(d_naive, d_idata, size_x, size_y);
    CHECK_LAUNCH();
  }
  for (int i = 0; i < NUM_REPS; i++) {
    transposeCoalesced<<<grid, threads>>>(d_coal, d_idata, size_x, size_y);
    CHECK_LAUNCH();
  }
  float ms = t.stop();
  std::vector<float> naive = fromDevice(d_naive, mem_size), coal = fromDevice(d_coal, mem_size);

  // computeTransposeGold
  std::vector<float> gold(mem_size);
  for (int y = 0; y < size_y; ++y)
    for (int x = 0; x < size_x; ++x) gold[size_t(x) * size_y + y] = h_idata[size_t(y) * size_x + x];
  bool ok = checkExact("transposeNaive", naive.data(), gold.data(), mem_size);
  ok = checkExact("transposeCoalesced", coal.data(), gold.data(), mem_size) && ok;
  CHECK(cudaFree(d_idata));
  CHECK(cudaFree(d_naive));
  CHECK(cudaFree(d_coal));
  return finish(ms, ok);
}
