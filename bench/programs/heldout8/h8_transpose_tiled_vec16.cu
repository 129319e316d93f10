// h8_transpose_tiled_vec16: 16-byte elements, W x H = 2150 x 2000 (69 MB
// each), neither a multiple of 32, `<<<>>>` on the default stream. (1) the
// CUDA samples' transposeCoalesced made a template and bounds-tested,
// `template <class T>` with T = double2, `#define TILE_DIM 32`, `#define
// BLOCK_ROWS 8` (32 x 8 blocks), shared `T tile[TILE_DIM][TILE_DIM + 1]`,
// `int` indices; (2) the naive transpose of the same double2 matrix, 16 x 4
// blocks, `size_t` indices, `out[x*H + y] = in[y*W + x]`; (3) the naive
// transpose of an int4 matrix of the same shape, 8 x 32 blocks (x the
// column), `int` indices, `__restrict__`. Timed: the three launches.
// Checked: exactly ((1) and (2) equal the same host transpose).
#include "../common.h"

#include <cstring>

#define TILE_DIM 32
#define BLOCK_ROWS 8

template <class T>
__global__ void transposeCoalesced(T *odata, const T *idata, int width, int height) {
  __shared__ T tile[TILE_DIM][TILE_DIM + 1];
  int x = blockIdx.x * TILE_DIM + threadIdx.x;
  int y = blockIdx.y * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
    if (x < width && y + j < height) tile[threadIdx.y + j][threadIdx.x] = idata[(y + j) * width + x];
  __syncthreads();
  x = blockIdx.y * TILE_DIM + threadIdx.x;
  y = blockIdx.x * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
    if (x < height && y + j < width) odata[(y + j) * height + x] = tile[threadIdx.x][threadIdx.y + j];
}

__global__ void transpose_naive_d2(const double2 *in, double2 *out, size_t W, size_t H) {
  size_t x = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  size_t y = blockIdx.y * (size_t)blockDim.y + threadIdx.y;
  if (x < W && y < H) out[x * H + y] = in[y * W + x];
}

__global__ void transpose_naive_i4(const int4 *__restrict__ in, int4 *__restrict__ out, int W, int H) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < W && y < H) out[x * H + y] = in[y * W + x];
}

int main(int argc, char **argv) {
  const int W = argInt(argc, argv, 1, 2150), H = argInt(argc, argv, 2, 2000);
  const size_t n = size_t(W) * H;

  std::vector<double2> d(n);
  for (size_t k = 0; k < n; k++) {
    d[k].x = 0.25 + double(hashAt(8901, k)) * (1.0 / 4294967296.0);
    d[k].y = -0.25 - double(hashAt(8902, k)) * (1.0 / 4294967296.0);
  }
  std::vector<int4> iv(n);
  for (size_t k = 0; k < n; k++) {
    iv[k].x = int(hashAt(8903, k) | 1u);
    iv[k].y = int(hashAt(8904, k) | 1u);
    iv[k].z = int(hashAt(8905, k) | 1u);
    iv[k].w = int(hashAt(8906, k) | 1u);
  }
  double2 *d_d = toDevice(d), *d_t1, *d_t2;
  int4 *d_i = toDevice(iv), *d_t3;
  CHECK(cudaMalloc(&d_t1, n * sizeof(double2)));
  CHECK(cudaMalloc(&d_t2, n * sizeof(double2)));
  CHECK(cudaMalloc(&d_t3, n * sizeof(int4)));
  CHECK(cudaDeviceSynchronize());

  dim3 b1(TILE_DIM, BLOCK_ROWS), g1((W + TILE_DIM - 1) / TILE_DIM, (H + TILE_DIM - 1) / TILE_DIM);
  dim3 b2(16, 4), g2((W + 15) / 16, (H + 3) / 4);
  dim3 b3(8, 32), g3((W + 7) / 8, (H + 31) / 32);
  GpuTimer t;
  t.start();
  transposeCoalesced<double2><<<g1, b1>>>(d_t1, d_d, W, H);
  CHECK_LAUNCH();
  transpose_naive_d2<<<g2, b2>>>(d_d, d_t2, size_t(W), size_t(H));
  CHECK_LAUNCH();
  transpose_naive_i4<<<g3, b3>>>(d_i, d_t3, W, H);
  CHECK_LAUNCH();
  float ms = t.stop();
  // Compared as 64-bit words (double2) and 32-bit words (int4).
  std::vector<uint64_t> t1(2 * n), t2(2 * n);
  std::vector<uint32_t> t3(4 * n);
  copyBack(t1.data(), d_t1, n * sizeof(double2));
  copyBack(t2.data(), d_t2, n * sizeof(double2));
  copyBack(t3.data(), d_t3, n * sizeof(int4));

  std::vector<uint64_t> rdw(2 * n);
  std::vector<uint32_t> riw(4 * n);
  for (size_t y = 0; y < size_t(H); y++)
    for (size_t x = 0; x < size_t(W); x++) {
      size_t src = y * W + x, dst = x * H + y;
      std::memcpy(&rdw[2 * dst], &d[src], sizeof(double2));
      std::memcpy(&riw[4 * dst], &iv[src], sizeof(int4));
    }
  bool ok = checkExact("double2 tiled transpose", t1.data(), rdw.data(), 2 * n);
  ok = checkExact("double2 naive transpose", t2.data(), rdw.data(), 2 * n) && ok;
  ok = checkExact("int4 naive transpose", t3.data(), riw.data(), 4 * n) && ok;
  CHECK(cudaFree(d_d));
  CHECK(cudaFree(d_t1));
  CHECK(cudaFree(d_t2));
  CHECK(cudaFree(d_i));
  CHECK(cudaFree(d_t3));
  return finish(ms, ok);
}
