// h3_half_rows: __half (cuda_fp16.h) data. (1) one thread per row of a
// rows x cols half matrix (32768 x 1024, 64 MB), `float acc = 0; for (j = 0;
// j < cols; j++) acc += __half2float(row[j]); out[r] = acc` (1-D blocks of
// 256), launched twice; (2) a naive half transpose with 16 x 16 blocks and a
// bounds test, `out[x*height + y] = in[y*width + x]`, width x height = 8192 x
// 6144 (96 MB each way), launched twice. Timed: the 4 launches. Checked
// exactly (half -> float is exact; the sums in the same order).
#include <cuda_fp16.h>

#include <cstring>

#include "../common.h"

__global__ void halfRowSum(const __half *in, float *out, int rows, int cols) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < rows) {
    const __half *row = in + (size_t)r * cols;
    float acc = 0.0f;
    for (int j = 0; j < cols; j++) acc += __half2float(row[j]);
    out[r] = acc;
  }
}

__global__ void halfTranspose(const __half *in, __half *out, int width, int height) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < width && y < height) out[x * height + y] = in[y * width + x];
}

int main(int argc, char **argv) {
  const int rows = argInt(argc, argv, 1, 32768), cols = argInt(argc, argv, 2, 1024);
  const int width = argInt(argc, argv, 3, 8192), height = argInt(argc, argv, 4, 6144);
  const size_t nr = size_t(rows) * cols, nt = size_t(width) * height;
  std::vector<__half> m(nr), img(nt);
  std::vector<float> mf(nr);
  for (size_t k = 0; k < nr; k++) {
    m[k] = __float2half(0.25f + float(hashAt(4201, k) >> 8) * (1.0f / 16777216.0f));
    mf[k] = __half2float(m[k]);
  }
  for (size_t k = 0; k < nt; k++) img[k] = __float2half(0.5f + float(hashAt(4202, k) >> 8) * (1.0f / 16777216.0f));
  __half *dm = toDevice(m), *dimg = toDevice(img), *dimgT;
  float *dsum;
  CHECK(cudaMalloc(&dsum, size_t(rows) * sizeof(float)));
  CHECK(cudaMalloc(&dimgT, nt * sizeof(__half)));
  CHECK(cudaDeviceSynchronize());
  GpuTimer t;
  t.start();
  for (int it = 0; it < 2; it++) {
    halfRowSum<<<blocksFor(rows, 256), 256>>>(dm, dsum, rows, cols);
    CHECK_LAUNCH();
    halfTranspose<<<dim3(blocksFor(width, 16), blocksFor(height, 16)), dim3(16, 16)>>>(dimg, dimgT, width, height);
    CHECK_LAUNCH();
  }
  float ms = t.stop();
  std::vector<float> sum = fromDevice(dsum, rows);
  std::vector<__half> imgT = fromDevice(dimgT, nt);

  std::vector<float> ref(rows);
  for (size_t r = 0; r < size_t(rows); r++) {
    float acc = 0.0f;
    for (size_t j = 0; j < size_t(cols); j++) acc += mf[r * cols + j];
    ref[r] = acc;
  }
  bool ok = checkExact("halfRowSum", sum.data(), ref.data(), rows);
  size_t bad = 0;
  for (size_t y = 0; y < size_t(height); y++)
    for (size_t x = 0; x < size_t(width); x++)
      bad += std::memcmp(&imgT[x * height + y], &img[y * width + x], sizeof(__half)) != 0;
  if (bad) std::fprintf(stderr, "halfTranspose: %zu of %zu differ\n", bad, nt);
  CHECK(cudaFree(dm));
  CHECK(cudaFree(dimg));
  CHECK(cudaFree(dimgT));
  CHECK(cudaFree(dsum));
  return finish(ms, ok && bad == 0);
}
