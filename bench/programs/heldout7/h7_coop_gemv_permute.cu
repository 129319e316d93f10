// h7_coop_gemv_permute: both kernels launched with
// cudaLaunchCooperativeKernel (no grid sync), each grid capped at the
// co-resident block count from cudaOccupancyMaxActiveBlocksPerMultiprocessor
// and walked grid-stride. (1) y += A*x, float, rows x cols = 18000 x 1000
// (72 MB), blocks of 256, `int` rows, `s = y[r]; s += A[r*cols + c] * x[c]`
// (y starts non-zero); (2) an int16 NHWC -> NCHW permute, N C H W = 8 96 216
// 216 (72 MB), blocks of 512, a flat `size_t` output index split with / and
// %. Timed: both launches. Checked: (1) exactly (fmaf in order, starting
// from y), (2) exactly.
#include "../common.h"

#include <algorithm>

__global__ void gemv_accumulate(const float *A, const float *x, float *y, int rows, int cols) {
  for (int r = blockIdx.x * blockDim.x + threadIdx.x; r < rows; r += blockDim.x * gridDim.x) {
    float s = y[r];
    for (int c = 0; c < cols; c++) s += A[r * cols + c] * x[c];
    y[r] = s;
  }
}

__global__ void nhwc_to_nchw_s16(const short *src, short *dst, size_t N, size_t C, size_t H, size_t W) {
  size_t total = N * C * H * W;
  size_t stride = (size_t)blockDim.x * gridDim.x;
  for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < total; i += stride) {
    size_t w = i % W;
    size_t h = (i / W) % H;
    size_t c = (i / (W * H)) % C;
    size_t n = i / (W * H * C);
    dst[i] = src[((n * H + h) * W + w) * C + c];
  }
}

int main(int argc, char **argv) {
  int rows = argInt(argc, argv, 1, 18000), cols = argInt(argc, argv, 2, 1000);
  size_t N = size_t(argInt(argc, argv, 3, 8)), C = size_t(argInt(argc, argv, 4, 96));
  size_t H = size_t(argInt(argc, argv, 5, 216)), W = size_t(argInt(argc, argv, 6, 216));
  int dev = 0, coop = 0, nsm = 0, perSm1 = 0, perSm2 = 0;
  CHECK(cudaGetDevice(&dev));
  CHECK(cudaDeviceGetAttribute(&coop, cudaDevAttrCooperativeLaunch, dev));
  CHECK(cudaDeviceGetAttribute(&nsm, cudaDevAttrMultiProcessorCount, dev));
  if (!coop) {
    std::fprintf(stderr, "device does not support cooperative launch\n");
    return 1;
  }
  CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&perSm1, gemv_accumulate, 256, 0));
  CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&perSm2, nhwc_to_nchw_s16, 512, 0));
  const size_t total = N * C * H * W, na = size_t(rows) * cols;
  int blocks1 = std::min((rows + 255) / 256, perSm1 * nsm);
  int blocks2 = int(std::min<size_t>((total + 511) / 512, size_t(perSm2) * nsm));

  std::vector<float> A(na), x(cols), y0(rows);
  fillFloats(A, 8101);
  fillFloats(x, 8102);
  fillFloats(y0, 8103, 1.0f, 2.0f);
  std::vector<short> src(total);
  for (size_t i = 0; i < total; i++) src[i] = short(1 + hashAt(8104, i) % 30000u);

  float *d_A = toDevice(A), *d_x = toDevice(x), *d_y = toDevice(y0);
  short *d_src = toDevice(src), *d_dst;
  CHECK(cudaMalloc(&d_dst, total * sizeof(short)));
  CHECK(cudaDeviceSynchronize());

  GpuTimer t;
  t.start();
  void *args1[] = {(void *)&d_A, (void *)&d_x, (void *)&d_y, (void *)&rows, (void *)&cols};
  CHECK(cudaLaunchCooperativeKernel((void *)gemv_accumulate, dim3(blocks1), dim3(256), args1, 0, 0));
  void *args2[] = {(void *)&d_src, (void *)&d_dst, (void *)&N, (void *)&C, (void *)&H, (void *)&W};
  CHECK(cudaLaunchCooperativeKernel((void *)nhwc_to_nchw_s16, dim3(blocks2), dim3(512), args2, 0, 0));
  float ms = t.stop();
  std::vector<float> y = fromDevice(d_y, rows);
  std::vector<short> dst = fromDevice(d_dst, total);

  std::vector<float> yref(rows);
  for (size_t r = 0; r < size_t(rows); r++) {
    float s = y0[r];
    for (size_t c = 0; c < size_t(cols); c++) s = std::fmaf(A[r * cols + c], x[c], s);
    yref[r] = s;
  }
  std::vector<short> pref(total);
  for (size_t n = 0; n < N; n++)
    for (size_t h = 0; h < H; h++)
      for (size_t w = 0; w < W; w++)
        for (size_t c = 0; c < C; c++) pref[((n * C + c) * H + h) * W + w] = src[((n * H + h) * W + w) * C + c];
  bool ok = checkExact("coop gemv", y.data(), yref.data(), rows);
  ok = checkExact("coop nhwc->nchw s16", dst.data(), pref.data(), total) && ok;
  CHECK(cudaFree(d_A));
  CHECK(cudaFree(d_x));
  CHECK(cudaFree(d_y));
  CHECK(cudaFree(d_src));
  CHECK(cudaFree(d_dst));
  return finish(ms, ok);
}
