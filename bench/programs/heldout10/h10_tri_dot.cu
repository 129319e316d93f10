// h10_tri_dot: lower-triangular matrix-vector product, float, y[i] =
// sum_{k <= i} L[i*n + k]*x[k], a thread per row, blocks of 128, `int`
// indices, register accumulator: `for (int k = 0; k <= i; k++) s +=
// L[i*n + k]*x[k]` (row i reads i+1 elements, so the rows' lengths differ
// from thread to thread). L is stored as a full n x n row-major matrix, n =
// 8192 (268 MB; the upper triangle is filled too but never read). Two
// right-hand sides, y1 = L x1 and y2 = L x2, one launch each. Sizes: n
// (argv). Timed: the 2 launches. Checked: every element of y1 and y2
// against a double CPU sum, relative tolerance 1e-3 (the device contracts
// into fma; inputs positive).
#include "../common.h"

__global__ void lower_tri_mv(const float *L, const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float s = 0.0f;
    for (int k = 0; k <= i; k++) s += L[i * n + k] * x[k];
    y[i] = s;
  }
}

int main(int argc, char **argv) {
  const int n = argInt(argc, argv, 1, 8192);
  std::vector<float> L(size_t(n) * n), x1(n), x2(n);
  fillFloats(L, 10801);
  fillFloats(x1, 10802);
  fillFloats(x2, 10803);
  float *d_L = toDevice(L), *d_x1 = toDevice(x1), *d_x2 = toDevice(x2), *d_y1, *d_y2;
  CHECK(cudaMalloc(&d_y1, n * sizeof(float)));
  CHECK(cudaMalloc(&d_y2, n * sizeof(float)));
  CHECK(cudaDeviceSynchronize());

  GpuTimer t;
  t.start();
  lower_tri_mv<<<blocksFor(n, 128), 128>>>(d_L, d_x1, d_y1, n);
  CHECK_LAUNCH();
  lower_tri_mv<<<blocksFor(n, 128), 128>>>(d_L, d_x2, d_y2, n);
  CHECK_LAUNCH();
  float ms = t.stop();
  std::vector<float> g1 = fromDevice(d_y1, n), g2 = fromDevice(d_y2, n);

  std::vector<float> r1(n), r2(n);
  for (size_t i = 0; i < size_t(n); i++) {
    double s1 = 0, s2 = 0;
    for (size_t k = 0; k <= i; k++) {
      s1 += double(L[i * n + k]) * x1[k];
      s2 += double(L[i * n + k]) * x2[k];
    }
    r1[i] = float(s1);
    r2[i] = float(s2);
  }
  bool ok = checkFloats("L x1", g1.data(), r1.data(), n, 1e-3);
  ok = checkFloats("L x2", g2.data(), r2.data(), n, 1e-3) && ok;
  CHECK(cudaFree(d_L));
  CHECK(cudaFree(d_x1));
  CHECK(cudaFree(d_x2));
  CHECK(cudaFree(d_y1));
  CHECK(cudaFree(d_y2));
  return finish(ms, ok);
}
