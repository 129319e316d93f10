// h10_small_mix: three small launches whose whole data is tiny (under 1
// MB), each launched once: (1) a naive float transpose, H x W = 200 x 300
// -> 300 x 200, a thread per input element, 16 x 16 blocks, `int`,
// `out[x*H + y] = in[y*W + x]` (the sizes are not multiples of the block);
// (2) row sums of a 256 x 256 int matrix, a thread per row, blocks of 64,
// `int`, `for (int j = 0; j < cols; j++) s += a[r*cols + j]`; (3) a
// column-major element-wise add of two 128 x 128 float matrices, x (the
// slow index) from threadIdx.x, `c[x*ny + y] = a[x*ny + y] + b[x*ny + y]`,
// 16 x 16 blocks, `int`. Sizes: H W R C NX NY (argv). Timed: the 3
// launches. Checked: every element of the three outputs, exactly (the add
// is one float addition on both sides).
#include "../common.h"

__global__ void small_transpose(const float *in, float *out, int H, int W) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < W && y < H) out[x * H + y] = in[y * W + x];
}

__global__ void small_rowsum(const int *a, int *sums, int rows, int cols) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < rows) {
    int s = 0;
    for (int j = 0; j < cols; j++) s += a[r * cols + j];
    sums[r] = s;
  }
}

__global__ void colmajor_add(const float *a, const float *b, float *c, int nx, int ny) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < nx && y < ny) c[x * ny + y] = a[x * ny + y] + b[x * ny + y];
}

int main(int argc, char **argv) {
  const int H = argInt(argc, argv, 1, 200), W = argInt(argc, argv, 2, 300);
  const int R = argInt(argc, argv, 3, 256), C = argInt(argc, argv, 4, 256);
  const int NX = argInt(argc, argv, 5, 128), NY = argInt(argc, argv, 6, 128);
  const size_t nt = size_t(H) * W, nr = size_t(R) * C, na = size_t(NX) * NY;
  std::vector<float> tin(nt), aa(na), ab(na);
  fillFloats(tin, 11001);
  fillFloats(aa, 11002);
  fillFloats(ab, 11003);
  std::vector<int> m(nr);
  for (size_t i = 0; i < nr; i++) m[i] = 1 + int(hashAt(11004, i) % 100000);
  float *d_tin = toDevice(tin), *d_aa = toDevice(aa), *d_ab = toDevice(ab), *d_tout, *d_ac;
  int *d_m = toDevice(m), *d_sums;
  CHECK(cudaMalloc(&d_tout, nt * sizeof(float)));
  CHECK(cudaMalloc(&d_ac, na * sizeof(float)));
  CHECK(cudaMalloc(&d_sums, R * sizeof(int)));
  CHECK(cudaDeviceSynchronize());

  GpuTimer t;
  t.start();
  small_transpose<<<dim3((W + 15) / 16, (H + 15) / 16), dim3(16, 16)>>>(d_tin, d_tout, H, W);
  CHECK_LAUNCH();
  small_rowsum<<<blocksFor(R, 64), 64>>>(d_m, d_sums, R, C);
  CHECK_LAUNCH();
  colmajor_add<<<dim3((NX + 15) / 16, (NY + 15) / 16), dim3(16, 16)>>>(d_aa, d_ab, d_ac, NX, NY);
  CHECK_LAUNCH();
  float ms = t.stop();
  std::vector<float> gt = fromDevice(d_tout, nt), gc = fromDevice(d_ac, na);
  std::vector<int> gs = fromDevice(d_sums, R);

  std::vector<float> rt(nt), rc(na);
  for (size_t y = 0; y < size_t(H); y++)
    for (size_t x = 0; x < size_t(W); x++) rt[x * H + y] = tin[y * W + x];
  std::vector<int> rs(R);
  for (size_t r = 0; r < size_t(R); r++) {
    int s = 0;
    for (size_t j = 0; j < size_t(C); j++) s += m[r * C + j];
    rs[r] = s;
  }
  for (size_t i = 0; i < na; i++) rc[i] = aa[i] + ab[i];
  bool ok = checkExact("small transpose", gt.data(), rt.data(), nt);
  ok = checkExact("small row sums", gs.data(), rs.data(), R) && ok;
  ok = checkExact("colmajor add", gc.data(), rc.data(), na) && ok;
  CHECK(cudaFree(d_tin));
  CHECK(cudaFree(d_tout));
  CHECK(cudaFree(d_m));
  CHECK(cudaFree(d_sums));
  CHECK(cudaFree(d_aa));
  CHECK(cudaFree(d_ab));
  CHECK(cudaFree(d_ac));
  return finish(ms, ok);
}
