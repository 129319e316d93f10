// h11_colmajor_transpose_add: element-wise kernels over column-major data as
// the paper's Fig. 6-a writes them, the row index taken from threadIdx.x
// (a warp's accesses are a column length apart). (1) double, `int`: `c[x*ny
// + y] = a[x*ny + y] + b[x*ny + y]`, nx x ny = 4096 x 4096 (134 MB an
// array), 16x16 blocks; (2) int, `unsigned`, the column length a `#define`
// (NY_I 4096): `c[x*NY_I + y] = 3*a[x*NY_I + y] + b[x*NY_I + y]`, nxi x
// 4096 = 4096 x 4096 (67 MB an array), 32x4 blocks; (3) a naive
// transpose-add C = A^T + B in 32x8 blocks, float, `int`: A is R x K, B and C
// are K x R, `C[y*R + x] = A[x*K + y] + B[y*R + x]` with x from threadIdx.x
// (A read down its columns), R x K = 5000 x 4000 (80 MB an array; 5000 not a
// multiple of 32, 4000 a multiple of 8). Sizes: nx ny nxi R K (argv; NY_I
// compile-time). Each kernel launched once. Timed: the 3 launches. Checked:
// every element exactly.
#include "../common.h"

#define NY_I 4096

__global__ void colmajor_add_f64(const double *a, const double *b, double *c, int nx, int ny) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < nx && y < ny) c[x * ny + y] = a[x * ny + y] + b[x * ny + y];
}

__global__ void colmajor_axpy_i32(const int *a, const int *b, int *c, unsigned nx) {
  unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < nx && y < NY_I) c[x * NY_I + y] = 3 * a[x * NY_I + y] + b[x * NY_I + y];
}

__global__ void transpose_add(const float *A, const float *B, float *C, int R, int K) {
  int x = blockIdx.x * 32 + threadIdx.x;  // column of C, row of A
  int y = blockIdx.y * 8 + threadIdx.y;   // row of C, column of A
  if (x < R && y < K) C[y * R + x] = A[x * K + y] + B[y * R + x];
}

int main(int argc, char **argv) {
  const int nx = argInt(argc, argv, 1, 4096), ny = argInt(argc, argv, 2, 4096);
  const unsigned nxi = argInt(argc, argv, 3, 4096);
  const int R = argInt(argc, argv, 4, 5000), K = argInt(argc, argv, 5, 4000);
  const size_t nd = size_t(nx) * ny, ni = size_t(nxi) * NY_I, nt = size_t(R) * K;
  std::vector<double> a(nd), b(nd);
  for (size_t k = 0; k < nd; k++) {
    a[k] = 0.25 + double(hashAt(11801, k)) * (1.0 / 4294967296.0);
    b[k] = 0.25 + double(hashAt(11802, k)) * (1.0 / 4294967296.0);
  }
  std::vector<int> ai(ni), bi(ni);
  for (size_t k = 0; k < ni; k++) {
    ai[k] = int(hashAt(11803, k) % 2001) - 1000;
    bi[k] = int(hashAt(11804, k) % 2001) - 1000;
    if (ai[k] == 0) ai[k] = 7;
    if (bi[k] == 0) bi[k] = -5;
  }
  std::vector<float> A(nt), B(nt);
  fillFloats(A, 11805);
  fillFloats(B, 11806);

  double *d_a = toDevice(a), *d_b = toDevice(b), *d_c;
  int *d_ai = toDevice(ai), *d_bi = toDevice(bi), *d_ci;
  float *d_A = toDevice(A), *d_B = toDevice(B), *d_C;
  CHECK(cudaMalloc(&d_c, nd * sizeof(double)));
  CHECK(cudaMalloc(&d_ci, ni * sizeof(int)));
  CHECK(cudaMalloc(&d_C, nt * sizeof(float)));
  CHECK(cudaDeviceSynchronize());

  GpuTimer t;
  t.start();
  colmajor_add_f64<<<dim3(blocksFor(nx, 16), blocksFor(ny, 16)), dim3(16, 16)>>>(d_a, d_b, d_c, nx, ny);
  CHECK_LAUNCH();
  colmajor_axpy_i32<<<dim3(blocksFor(nxi, 32), blocksFor(NY_I, 4)), dim3(32, 4)>>>(d_ai, d_bi, d_ci, nxi);
  CHECK_LAUNCH();
  transpose_add<<<dim3(blocksFor(R, 32), blocksFor(K, 8)), dim3(32, 8)>>>(d_A, d_B, d_C, R, K);
  CHECK_LAUNCH();
  float ms = t.stop();
  std::vector<double> gc = fromDevice(d_c, nd);
  std::vector<int> gci = fromDevice(d_ci, ni);
  std::vector<float> gC = fromDevice(d_C, nt);

  std::vector<double> wc(nd);
  for (size_t k = 0; k < nd; k++) wc[k] = a[k] + b[k];
  std::vector<int> wci(ni);
  for (size_t k = 0; k < ni; k++) wci[k] = 3 * ai[k] + bi[k];
  std::vector<float> wC(nt);
  for (size_t y = 0; y < size_t(K); y++)
    for (size_t x = 0; x < size_t(R); x++) wC[y * R + x] = A[x * K + y] + B[y * R + x];
  bool ok = checkExact("colmajor_add_f64", gc.data(), wc.data(), nd);
  ok = checkExact("colmajor_axpy_i32", gci.data(), wci.data(), ni) && ok;
  ok = checkExact("transpose_add", gC.data(), wC.data(), nt) && ok;

  CHECK(cudaFree(d_a));
  CHECK(cudaFree(d_b));
  CHECK(cudaFree(d_c));
  CHECK(cudaFree(d_ai));
  CHECK(cudaFree(d_bi));
  CHECK(cudaFree(d_ci));
  CHECK(cudaFree(d_A));
  CHECK(cudaFree(d_B));
  CHECK(cudaFree(d_C));
  return finish(ms, ok);
}
