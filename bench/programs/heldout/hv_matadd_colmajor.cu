// hv_matadd_colmajor: C = A + B over nx x ny matrices stored with leading
// dimension ld, where the thread index x walks the slow dimension
// (`c[x*ld+y] = a[x*ld+y] + b[x*ld+y]`, x = blockIdx.x*blockDim.x +
// threadIdx.x): the uncoalesced matrix add. (1) int, 8192 x 8192, ld = ny,
// blocks of 16 x 16. (2) float, 8192 x 8192, ld = ny + 32 (padded; the
// padding is zeroed before and never written), blocks of 32 x 8. 256 MB an
// array. One launch each. Timed: both kernels. Checked exactly.
#include "../common.h"

__global__ void matadd_colmajor_int(const int *a, const int *b, int *c, int nx, int ny, int ld) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < nx && y < ny) c[x * ld + y] = a[x * ld + y] + b[x * ld + y];
}

__global__ void matadd_colmajor_float(const float *a, const float *b, float *c, int nx, int ny, int ld) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < nx && y < ny) c[x * ld + y] = a[x * ld + y] + b[x * ld + y];
}

int main(int argc, char **argv) {
  const int nx = argInt(argc, argv, 1, 8192), ny = argInt(argc, argv, 2, 8192);
  const int pad = argInt(argc, argv, 3, 32);
  const int ldi = ny, ldf = ny + pad;
  const size_t ni = size_t(nx) * ldi, nf = size_t(nx) * ldf;
  std::vector<int> ai(ni), bi(ni);
  for (size_t k = 0; k < ni; k++) {
    int u = int(hashAt(401, k) >> 2) - (1 << 29), v = int(hashAt(402, k) >> 2) - (1 << 29);
    ai[k] = u ? u : 1;
    bi[k] = v ? v : 1;
  }
  std::vector<float> af(nf), bf(nf);
  fillFloats(af, 403);
  fillFloats(bf, 404);
  int *dai = toDevice(ai), *dbi = toDevice(bi), *dci;
  float *daf = toDevice(af), *dbf = toDevice(bf), *dcf;
  CHECK(cudaMalloc(&dci, ni * sizeof(int)));
  CHECK(cudaMalloc(&dcf, nf * sizeof(float)));
  CHECK(cudaMemset(dcf, 0, nf * sizeof(float)));
  CHECK(cudaDeviceSynchronize());
  GpuTimer t;
  t.start();
  matadd_colmajor_int<<<dim3(blocksFor(nx, 16), blocksFor(ny, 16)), dim3(16, 16)>>>(dai, dbi, dci, nx, ny, ldi);
  CHECK_LAUNCH();
  matadd_colmajor_float<<<dim3(blocksFor(nx, 32), blocksFor(ny, 8)), dim3(32, 8)>>>(daf, dbf, dcf, nx, ny, ldf);
  CHECK_LAUNCH();
  float ms = t.stop();
  std::vector<int> ci = fromDevice(dci, ni);
  std::vector<float> cf = fromDevice(dcf, nf);

  size_t badi = 0, badf = 0;
  for (size_t k = 0; k < ni; k++) badi += ci[k] != ai[k] + bi[k];
  for (size_t x = 0; x < size_t(nx); x++)
    for (size_t y = 0; y < size_t(ldf); y++) {
      size_t k = x * ldf + y;
      badf += !(cf[k] == (y < size_t(ny) ? af[k] + bf[k] : 0.0f));
    }
  if (badi) std::fprintf(stderr, "int: %zu of %zu differ\n", badi, ni);
  if (badf) std::fprintf(stderr, "float: %zu of %zu differ\n", badf, nf);
  return finish(ms, badi == 0 && badf == 0);
}
