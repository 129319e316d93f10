// h13_struct_params: kernels that take their pointers and sizes in a struct
// passed by value, as library code with a "params" block does, a thread per
// row. (1) gemv_struct(GemvArgs p), `struct GemvArgs { const float *A; const
// float *x; float *y; int rows; int cols; float alpha; }`: `y[i] = alpha *
// sum_j A[i*cols + j]*x[j]`, float, `int` row and column with a `size_t` row
// offset, 16384 x 4096 (268 MB), alpha = 0.5, 256-thread blocks, `if (i <
// p.rows)`; (2) rowsum_int(M, out, Dims d), `struct Dims { int rows; int
// cols; }`: an int row (+-1..100000) summed into a `long long`, `int`
// indices, 8192 x 4096 (134 MB), 128-thread blocks, `if (i < d.rows)`; (3)
// rowmax_padded(A, out, Tile t, rows), `struct Tile { int ld; int cols; }`:
// padded rows, ld = cols + 32, `m = fmaxf(m, A[i*ld + j])` over the first
// cols elements, float, `int` indices, 8192 x 4096 (ld 4128, 135 MB), the
// padding filled with 1000 (never read), 64-thread blocks, `if (i < rows)`.
// Sizes: grows gcols irows icols trows tcols (argv). Each kernel launched
// once. Timed: the 3 launches. Checked: (1) against double CPU sums,
// relative tolerance 1e-3 (fma contraction; positive values); (2), (3)
// exact.
#include "../common.h"

struct GemvArgs {
  const float *A;
  const float *x;
  float *y;
  int rows;
  int cols;
  float alpha;
};

struct Dims {
  int rows;
  int cols;
};

struct Tile {
  int ld;
  int cols;
};

__global__ void gemv_struct(GemvArgs p) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < p.rows) {
    size_t row = size_t(i) * p.cols;
    float s = 0.0f;
    for (int j = 0; j < p.cols; j++) s += p.A[row + j] * p.x[j];
    p.y[i] = p.alpha * s;
  }
}

__global__ void rowsum_int(const int *M, long long *out, Dims d) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < d.rows) {
    long long s = 0;
    for (int j = 0; j < d.cols; j++) s += M[i * d.cols + j];
    out[i] = s;
  }
}

__global__ void rowmax_padded(const float *A, float *out, Tile t, int rows) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < rows) {
    float m = -INFINITY;
    for (int j = 0; j < t.cols; j++) m = fmaxf(m, A[i * t.ld + j]);
    out[i] = m;
  }
}

int main(int argc, char **argv) {
  const int grows = argInt(argc, argv, 1, 16384), gcols = argInt(argc, argv, 2, 4096);
  const int irows = argInt(argc, argv, 3, 8192), icols = argInt(argc, argv, 4, 4096);
  const int trows = argInt(argc, argv, 5, 8192), tcols = argInt(argc, argv, 6, 4096);
  const int tld = tcols + 32;
  const size_t ng = size_t(grows) * gcols, ni = size_t(irows) * icols, nt = size_t(trows) * tld;
  const float alpha = 0.5f;

  std::vector<float> A(ng), x(gcols), T(nt);
  fillFloats(A, 13101);
  fillFloats(x, 13102);
  fillFloats(T, 13103);
  for (size_t i = 0; i < size_t(trows); i++)
    for (int j = tcols; j < tld; j++) T[i * tld + j] = 1000.0f;
  std::vector<int> M(ni);
  for (size_t k = 0; k < ni; k++) {
    uint32_t u = hashAt(13104, k);
    int v = 1 + int(u % 100000);
    M[k] = (u >> 20) & 1 ? -v : v;
  }

  float *d_A = toDevice(A), *d_x = toDevice(x), *d_y, *d_T = toDevice(T), *d_tmax;
  int *d_M = toDevice(M);
  long long *d_isum;
  CHECK(cudaMalloc(&d_y, grows * sizeof(float)));
  CHECK(cudaMalloc(&d_isum, irows * sizeof(long long)));
  CHECK(cudaMalloc(&d_tmax, trows * sizeof(float)));
  CHECK(cudaDeviceSynchronize());

  GemvArgs ga;
  ga.A = d_A;
  ga.x = d_x;
  ga.y = d_y;
  ga.rows = grows;
  ga.cols = gcols;
  ga.alpha = alpha;
  Dims dims = {irows, icols};
  Tile tile = {tld, tcols};

  GpuTimer t;
  t.start();
  gemv_struct<<<blocksFor(grows, 256), 256>>>(ga);
  CHECK_LAUNCH();
  rowsum_int<<<blocksFor(irows, 128), 128>>>(d_M, d_isum, dims);
  CHECK_LAUNCH();
  rowmax_padded<<<blocksFor(trows, 64), 64>>>(d_T, d_tmax, tile, trows);
  CHECK_LAUNCH();
  float ms = t.stop();
  std::vector<float> gy = fromDevice(d_y, grows);
  std::vector<long long> gisum = fromDevice(d_isum, irows);
  std::vector<float> gtmax = fromDevice(d_tmax, trows);

  std::vector<float> wy(grows), wtmax(trows);
  std::vector<long long> wisum(irows);
  for (size_t i = 0; i < size_t(grows); i++) {
    double s = 0;
    for (size_t j = 0; j < size_t(gcols); j++) s += double(A[i * gcols + j]) * x[j];
    wy[i] = float(double(alpha) * s);
  }
  for (size_t i = 0; i < size_t(irows); i++) {
    long long s = 0;
    for (size_t j = 0; j < size_t(icols); j++) s += M[i * icols + j];
    wisum[i] = s;
  }
  for (size_t i = 0; i < size_t(trows); i++) {
    float m = -INFINITY;
    for (size_t j = 0; j < size_t(tcols); j++) m = std::fmax(m, T[i * tld + j]);
    wtmax[i] = m;
  }
  bool ok = checkFloats("gemv_struct", gy.data(), wy.data(), grows, 1e-3);
  ok = checkExact("rowsum_int", gisum.data(), wisum.data(), irows) && ok;
  ok = checkExact("rowmax_padded", gtmax.data(), wtmax.data(), trows) && ok;

  float *fb[] = {d_A, d_x, d_y, d_T, d_tmax};
  for (float *p : fb) CHECK(cudaFree(p));
  CHECK(cudaFree(d_M));
  CHECK(cudaFree(d_isum));
  return finish(ms, ok);
}
