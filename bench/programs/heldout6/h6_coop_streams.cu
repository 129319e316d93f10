// h6_coop_streams: launch paths. (1) a thread-per-row float sum (grid-stride
// over `int` rows, blocks of 256, `s += m[(size_t)r*cols + c]`), rows x cols
// = 32768 x 1024 (128 MB), launched once by cudaLaunchCooperativeKernel (no
// grid sync; the grid capped at the co-resident block count); (2) a
// column-major add `c[x*ld + y] = a[x*ld + y] + b[x*ld + y]` with x (the
// major index) from threadIdx.x, 16 x 16 blocks, on two independent X x Y =
// 4000 x 4100 problems (ld = Y; 66 MB a matrix), one a stream, launched in a
// loop of 5 iterations ping-ponging two buffers (dst = src + b, src starting
// as a). Timed: all 11 launches (the streams synchronized before the stop
// event). Checked exactly: adds in order.
#include "../common.h"

#include <algorithm>

__global__ void row_sum_coop(const float *m, float *out, int rows, int cols) {
  for (int r = blockIdx.x * blockDim.x + threadIdx.x; r < rows; r += gridDim.x * blockDim.x) {
    float s = 0.0f;
    for (int c = 0; c < cols; c++) s += m[(size_t)r * cols + c];
    out[r] = s;
  }
}

__global__ void add_colmajor(const float *a, const float *b, float *c, int X, int Y, int ld) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < X && y < Y) c[x * ld + y] = a[x * ld + y] + b[x * ld + y];
}

int main(int argc, char **argv) {
  int rows = argInt(argc, argv, 1, 32768), cols = argInt(argc, argv, 2, 1024);
  int X = argInt(argc, argv, 3, 4000), Y = argInt(argc, argv, 4, 4100), ld = Y;
  const int iters = 5;
  int dev = 0, coop = 0, nsm = 0, perSm = 0;
  CHECK(cudaGetDevice(&dev));
  CHECK(cudaDeviceGetAttribute(&coop, cudaDevAttrCooperativeLaunch, dev));
  CHECK(cudaDeviceGetAttribute(&nsm, cudaDevAttrMultiProcessorCount, dev));
  if (!coop) {
    std::fprintf(stderr, "device does not support cooperative launch\n");
    return 1;
  }
  CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&perSm, row_sum_coop, 256, 0));
  int coopBlocks = std::min((rows + 255) / 256, perSm * nsm);

  const size_t nm = size_t(rows) * cols, na = size_t(X) * ld;
  std::vector<float> m(nm);
  fillFloats(m, 1601);
  std::vector<float> ha[2], hb[2];
  float *da[2], *db[2], *dbuf[2][2];
  cudaStream_t st[2];
  for (int s = 0; s < 2; s++) {
    ha[s].resize(na);
    hb[s].resize(na);
    fillFloats(ha[s], 1610 + s);
    fillFloats(hb[s], 1620 + s, 0.001f, 0.01f);
    da[s] = toDevice(ha[s]);
    db[s] = toDevice(hb[s]);
    CHECK(cudaMalloc(&dbuf[s][0], na * sizeof(float)));
    CHECK(cudaMalloc(&dbuf[s][1], na * sizeof(float)));
    CHECK(cudaStreamCreate(&st[s]));
  }
  float *dm = toDevice(m), *drs;
  CHECK(cudaMalloc(&drs, size_t(rows) * sizeof(float)));
  CHECK(cudaDeviceSynchronize());

  dim3 block(16, 16), grid((X + 15) / 16, (Y + 15) / 16);
  GpuTimer t;
  t.start();
  void *args[] = {(void *)&dm, (void *)&drs, (void *)&rows, (void *)&cols};
  CHECK(cudaLaunchCooperativeKernel((void *)row_sum_coop, dim3(coopBlocks), dim3(256), args, 0, 0));
  for (int it = 0; it < iters; it++) {
    for (int s = 0; s < 2; s++) {
      const float *src = it == 0 ? da[s] : dbuf[s][it % 2];
      add_colmajor<<<grid, block, 0, st[s]>>>(src, db[s], dbuf[s][(it + 1) % 2], X, Y, ld);
      CHECK_LAUNCH();
    }
  }
  CHECK(cudaStreamSynchronize(st[0]));
  CHECK(cudaStreamSynchronize(st[1]));
  float ms = t.stop();
  std::vector<float> rs = fromDevice(drs, rows);
  std::vector<float> res[2] = {fromDevice(dbuf[0][iters % 2], na), fromDevice(dbuf[1][iters % 2], na)};

  std::vector<float> rref(rows);
  for (size_t r = 0; r < size_t(rows); r++) {
    float s = 0.0f;
    for (size_t c = 0; c < size_t(cols); c++) s += m[r * cols + c];
    rref[r] = s;
  }
  bool ok = checkExact("cooperative row sum", rs.data(), rref.data(), rows);
  for (int s = 0; s < 2; s++) {
    std::vector<float> ref(ha[s]);
    for (int it = 0; it < iters; it++)
      for (size_t i = 0; i < na; i++) ref[i] = ref[i] + hb[s][i];
    ok = checkExact(s ? "stream 1 colmajor add" : "stream 0 colmajor add", res[s].data(), ref.data(), na) && ok;
  }
  for (int s = 0; s < 2; s++) {
    CHECK(cudaStreamDestroy(st[s]));
    CHECK(cudaFree(da[s]));
    CHECK(cudaFree(db[s]));
    CHECK(cudaFree(dbuf[s][0]));
    CHECK(cudaFree(dbuf[s][1]));
  }
  CHECK(cudaFree(dm));
  CHECK(cudaFree(drs));
  return finish(ms, ok);
}
