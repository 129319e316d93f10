// colmajor_add: C = A + B over 4096 x 4096 float stored so that the thread
// index x walks the slow dimension (`c[x*ny+y]`, x = blockIdx.x*blockDim.x +
// threadIdx.x): the uncoalesced matrix add of the paper (Fig. 6-a), blocks
// of 16 x 16, one launch. Timed: the kernel only. Checked exactly.
#include "common.h"

__global__ void matadd_colmajor(const float *a, const float *b, float *c, int nx, int ny) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < nx && y < ny) c[x * ny + y] = a[x * ny + y] + b[x * ny + y];
}

int main(int argc, char **argv) {
  const int nx = argInt(argc, argv, 1, 4096), ny = argInt(argc, argv, 2, 4096);
  const size_t n = size_t(nx) * ny;
  std::vector<float> a(n), b(n);
  fillFloats(a, 231);
  fillFloats(b, 232);
  float *da = toDevice(a), *db = toDevice(b), *dc;
  CHECK(cudaMalloc(&dc, n * sizeof(float)));
  GpuTimer t;
  t.start();
  matadd_colmajor<<<dim3(blocksFor(nx, 16), blocksFor(ny, 16)), dim3(16, 16)>>>(da, db, dc, nx, ny);
  CHECK_LAUNCH();
  float ms = t.stop();
  std::vector<float> c = fromDevice(dc, n), ref(n);
  for (size_t i = 0; i < n; i++) ref[i] = a[i] + b[i];
  return finish(ms, checkExact("c", c.data(), ref.data(), n));
}
