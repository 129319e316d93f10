// h3_transpose_naive_types: the naive-loop transpose (TILE_DIM = 32,
// BLOCK_ROWS = 8, blocks of 32 x 8, four elements a thread, no bounds test)
// as one template over the element type, width and height from gridDim:
// `odata[x*height + (y+j)] = idata[(y+j)*width + x]`. Instantiated for
// double, 4096 x 4096 (128 MB in, 128 MB out), launched 3 times, and for
// unsigned char, width x height = 16384 x 8192 (128 MB in, 128 MB out),
// launched 3 times. Sizes are rounded up to multiples of 32. Timed: all 6
// launches. Checked exactly.
#include "../common.h"

#define TILE_DIM 32
#define BLOCK_ROWS 8

template <typename T> __global__ void transposeNaive(T *odata, const T *idata) {
  int x = blockIdx.x * TILE_DIM + threadIdx.x;
  int y = blockIdx.y * TILE_DIM + threadIdx.y;
  int width = gridDim.x * TILE_DIM;
  int height = gridDim.y * TILE_DIM;

  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS) odata[x * height + (y + j)] = idata[(y + j) * width + x];
}

static int round32(int v) { return (v + TILE_DIM - 1) / TILE_DIM * TILE_DIM; }

template <typename T> static size_t checkTranspose(const std::vector<T> &in, const std::vector<T> &out, int w, int h) {
  size_t bad = 0;
  for (size_t y = 0; y < size_t(h); y++)
    for (size_t x = 0; x < size_t(w); x++) bad += !(out[x * h + y] == in[y * w + x]);
  return bad;
}

int main(int argc, char **argv) {
  const int nd = round32(argInt(argc, argv, 1, 4096));
  const int wb = round32(argInt(argc, argv, 2, 16384)), hb = round32(argInt(argc, argv, 3, 8192));
  const size_t sd = size_t(nd) * nd, sb = size_t(wb) * hb;
  std::vector<double> d(sd);
  for (size_t k = 0; k < sd; k++) d[k] = 0.5 + double(hashAt(3201, k)) * (1.0 / 4294967296.0);
  std::vector<unsigned char> u(sb);
  for (size_t k = 0; k < sb; k++) u[k] = (unsigned char)(1 + hashAt(3202, k) % 255u);
  double *dd = toDevice(d), *ddt;
  unsigned char *du = toDevice(u), *dut;
  CHECK(cudaMalloc(&ddt, sd * sizeof(double)));
  CHECK(cudaMalloc(&dut, sb));
  CHECK(cudaDeviceSynchronize());
  dim3 block(TILE_DIM, BLOCK_ROWS);
  GpuTimer t;
  t.start();
  for (int r = 0; r < 3; r++) {
    transposeNaive<double><<<dim3(nd / TILE_DIM, nd / TILE_DIM), block>>>(ddt, dd);
    CHECK_LAUNCH();
  }
  for (int r = 0; r < 3; r++) {
    transposeNaive<unsigned char><<<dim3(wb / TILE_DIM, hb / TILE_DIM), block>>>(dut, du);
    CHECK_LAUNCH();
  }
  float ms = t.stop();
  std::vector<double> dt = fromDevice(ddt, sd);
  std::vector<unsigned char> ut = fromDevice(dut, sb);

  size_t bad = checkTranspose(d, dt, nd, nd), bad2 = checkTranspose(u, ut, wb, hb);
  if (bad) std::fprintf(stderr, "transpose double: %zu of %zu differ\n", bad, sd);
  if (bad2) std::fprintf(stderr, "transpose uchar: %zu of %zu differ\n", bad2, sb);
  CHECK(cudaFree(dd));
  CHECK(cudaFree(ddt));
  CHECK(cudaFree(du));
  CHECK(cudaFree(dut));
  return finish(ms, bad == 0 && bad2 == 0);
}
