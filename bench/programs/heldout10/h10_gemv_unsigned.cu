// h10_gemv_unsigned: dense matrix-vector products, float, a thread per row
// with a register accumulator, 256-thread blocks. (1) y = A x with A of
// M1 x N1 = 8192 x 4096 (134 MB), `unsigned` r, j, n: `for (unsigned j = 0;
// j < n; j++) acc += A[r*n + j]*x[j]`; (2) y2 = B x2 with B of M2 x N2 =
// 4096 x 8192 (134 MB), the same loop with `int` indices, a second kernel.
// Each thread walks its own row (the warp's loads are strided by the row
// length). Sizes: M1 N1 M2 N2 (argv). Each kernel launched once. Timed:
// the 2 launches. Checked: every element of y and y2 against a double CPU
// sum, relative tolerance 1e-3 (the device contracts the multiply-add into
// fma; the inputs are positive, so the sums do not cancel).
#include "../common.h"

__global__ void gemv_rows_u(const float *A, const float *x, float *y, unsigned m, unsigned n) {
  unsigned r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < m) {
    float acc = 0.0f;
    for (unsigned j = 0; j < n; j++) acc += A[r * n + j] * x[j];
    y[r] = acc;
  }
}

__global__ void gemv_rows_i(const float *B, const float *x, float *y, int m, int n) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < m) {
    float acc = 0.0f;
    for (int j = 0; j < n; j++) acc += B[r * n + j] * x[j];
    y[r] = acc;
  }
}

static void cpuGemv(const std::vector<float> &A, const std::vector<float> &x, std::vector<float> &y, size_t m,
                    size_t n) {
  for (size_t r = 0; r < m; r++) {
    double acc = 0;
    for (size_t j = 0; j < n; j++) acc += double(A[r * n + j]) * x[j];
    y[r] = float(acc);
  }
}

int main(int argc, char **argv) {
  const unsigned M1 = argInt(argc, argv, 1, 8192), N1 = argInt(argc, argv, 2, 4096);
  const int M2 = argInt(argc, argv, 3, 4096), N2 = argInt(argc, argv, 4, 8192);
  std::vector<float> A(size_t(M1) * N1), x1(N1), B(size_t(M2) * N2), x2(N2);
  fillFloats(A, 10501);
  fillFloats(x1, 10502);
  fillFloats(B, 10503);
  fillFloats(x2, 10504);
  float *d_A = toDevice(A), *d_x1 = toDevice(x1), *d_B = toDevice(B), *d_x2 = toDevice(x2), *d_y1, *d_y2;
  CHECK(cudaMalloc(&d_y1, M1 * sizeof(float)));
  CHECK(cudaMalloc(&d_y2, M2 * sizeof(float)));
  CHECK(cudaDeviceSynchronize());

  GpuTimer t;
  t.start();
  gemv_rows_u<<<blocksFor(M1, 256), 256>>>(d_A, d_x1, d_y1, M1, N1);
  CHECK_LAUNCH();
  gemv_rows_i<<<blocksFor(M2, 256), 256>>>(d_B, d_x2, d_y2, M2, N2);
  CHECK_LAUNCH();
  float ms = t.stop();
  std::vector<float> g1 = fromDevice(d_y1, M1), g2 = fromDevice(d_y2, M2);

  std::vector<float> r1(M1), r2(M2);
  cpuGemv(A, x1, r1, M1, N1);
  cpuGemv(B, x2, r2, M2, N2);
  bool ok = checkFloats("y = A x (unsigned)", g1.data(), r1.data(), M1, 1e-3);
  ok = checkFloats("y2 = B x2 (int)", g2.data(), r2.data(), M2, 1e-3) && ok;
  CHECK(cudaFree(d_A));
  CHECK(cudaFree(d_x1));
  CHECK(cudaFree(d_B));
  CHECK(cudaFree(d_x2));
  CHECK(cudaFree(d_y1));
  CHECK(cudaFree(d_y2));
  return finish(ms, ok);
}
