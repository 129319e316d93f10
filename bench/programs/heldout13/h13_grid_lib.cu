// h13_grid_lib: kernels written the way library code (Caffe) writes them:
// the grid-stride loop macro `CUDA_KERNEL_LOOP(i, n)` (`int` index, `i +=
// blockDim.x * gridDim.x`) and launches of `GET_BLOCKS(n) = (n + 511) / 512`
// blocks of CAFFE_CUDA_NUM_THREADS = 512 threads, a thread per row.
// (1) row_l2norm: `CUDA_KERNEL_LOOP(r, rows) { float s = 0; for (int c = 0;
// c < cols; c++) { float v = X[(size_t)r*cols + c]; s += v*v; } norm[r] =
// sqrtf(s); }`, float, `int` rows/cols, a 16384 x 2048 matrix (128 MB),
// GET_BLOCKS(rows) x 512; (2) csr_spmv_d: scalar CSR SpMV in double inside
// CUDA_KERNEL_LOOP, `for (int j = rowptr[r]; j < rowptr[r+1]; j++) s +=
// val[j]*x[col[j]]`, `int` row pointers and columns, 262144 rows of 16..128
// non-zeros (hash-chosen, ~18.9 M; val 151 MB, col 75 MB), columns hashed
// over the row range, GET_BLOCKS(rows) x 512; (3) the same row_l2norm kernel
// launched a second time with a fixed small grid of 132 blocks of 256
// threads (33792 threads, so each thread handles several rows) on a second
// matrix 8192 x 4096 (128 MB). Sizes: ra ca nb rc cc (argv). Each launch
// once. Timed: the 3 launches. Checked: the norms against double CPU sums
// (relative tolerance 1e-3, fma contraction), the SpMV against a double CPU
// run (1e-9); values positive throughout.
#include "../common.h"

#define CUDA_KERNEL_LOOP(i, n) for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < (n); i += blockDim.x * gridDim.x)

#define CAFFE_CUDA_NUM_THREADS 512
inline int GET_BLOCKS(const int N) { return (N + CAFFE_CUDA_NUM_THREADS - 1) / CAFFE_CUDA_NUM_THREADS; }

__global__ void row_l2norm(const float *X, float *norm, int rows, int cols) {
  CUDA_KERNEL_LOOP(r, rows) {
    float s = 0;
    for (int c = 0; c < cols; c++) {
      float v = X[(size_t)r * cols + c];
      s += v * v;
    }
    norm[r] = sqrtf(s);
  }
}

__global__ void csr_spmv_d(const int *rowptr, const int *col, const double *val, const double *x, double *y,
                           int rows) {
  CUDA_KERNEL_LOOP(r, rows) {
    double s = 0.0;
    for (int j = rowptr[r]; j < rowptr[r + 1]; j++) s += val[j] * x[col[j]];
    y[r] = s;
  }
}

static bool checkDoubles(const char *what, const double *got, const double *want, size_t n, double rtol) {
  size_t bad = 0, first = 0;
  for (size_t i = 0; i < n; ++i)
    if (!closeEnough(got[i], want[i], rtol, 1e-12)) {
      if (!bad) first = i;
      ++bad;
    }
  if (bad)
    std::fprintf(stderr, "%s: %zu of %zu differ; first at %zu: got %.17g want %.17g\n", what, bad, n, first,
                 got[first], want[first]);
  return bad == 0;
}

static void normRef(const std::vector<float> &X, int rows, int cols, std::vector<float> &out) {
  out.resize(rows);
  for (int r = 0; r < rows; r++) {
    double s = 0;
    for (int c = 0; c < cols; c++) {
      double v = X[(size_t)r * cols + c];
      s += v * v;
    }
    out[r] = float(std::sqrt(s));
  }
}

int main(int argc, char **argv) {
  const int ra = argInt(argc, argv, 1, 16384), ca = argInt(argc, argv, 2, 2048);
  const int nb = argInt(argc, argv, 3, 262144);
  const int rc = argInt(argc, argv, 4, 8192), cc = argInt(argc, argv, 5, 4096);

  std::vector<float> xa((size_t)ra * ca), xc((size_t)rc * cc);
  fillFloats(xa, 13601);
  fillFloats(xc, 13602);

  std::vector<int> pb(nb + 1);
  pb[0] = 0;
  for (int i = 0; i < nb; i++) pb[i + 1] = pb[i] + 16 + int(hashAt(13603, i) % 113);
  const size_t nnzb = size_t(pb[nb]);
  std::vector<int> colb(nnzb);
  std::vector<double> valb(nnzb), xb(nb);
  for (size_t k = 0; k < nnzb; k++) {
    colb[k] = int(hashAt(13604, k) % uint32_t(nb));
    valb[k] = 0.25 + double(hashAt(13605, k)) * (1.0 / 4294967296.0);
  }
  for (int i = 0; i < nb; i++) xb[i] = 0.25 + double(hashAt(13606, i)) * (1.0 / 4294967296.0);

  float *d_xa = toDevice(xa), *d_xc = toDevice(xc), *d_na, *d_nc;
  int *d_pb = toDevice(pb), *d_colb = toDevice(colb);
  double *d_valb = toDevice(valb), *d_xb = toDevice(xb), *d_yb;
  CHECK(cudaMalloc(&d_na, ra * sizeof(float)));
  CHECK(cudaMalloc(&d_nc, rc * sizeof(float)));
  CHECK(cudaMalloc(&d_yb, nb * sizeof(double)));
  CHECK(cudaDeviceSynchronize());

  GpuTimer t;
  t.start();
  row_l2norm<<<GET_BLOCKS(ra), CAFFE_CUDA_NUM_THREADS>>>(d_xa, d_na, ra, ca);
  CHECK_LAUNCH();
  csr_spmv_d<<<GET_BLOCKS(nb), CAFFE_CUDA_NUM_THREADS>>>(d_pb, d_colb, d_valb, d_xb, d_yb, nb);
  CHECK_LAUNCH();
  row_l2norm<<<132, 256>>>(d_xc, d_nc, rc, cc);
  CHECK_LAUNCH();
  float ms = t.stop();
  std::vector<float> gna = fromDevice(d_na, ra);
  std::vector<double> gyb = fromDevice(d_yb, nb);
  std::vector<float> gnc = fromDevice(d_nc, rc);

  std::vector<float> wna, wnc;
  normRef(xa, ra, ca, wna);
  normRef(xc, rc, cc, wnc);
  std::vector<double> wyb(nb);
  for (int i = 0; i < nb; i++) {
    double s = 0;
    for (int j = pb[i]; j < pb[i + 1]; j++) s += valb[j] * xb[colb[j]];
    wyb[i] = s;
  }
  bool ok = checkFloats("row_l2norm", gna.data(), wna.data(), ra, 1e-3);
  ok = checkDoubles("csr_spmv_d", gyb.data(), wyb.data(), nb, 1e-9) && ok;
  ok = checkFloats("row_l2norm_132", gnc.data(), wnc.data(), rc, 1e-3) && ok;

  float *fb[] = {d_xa, d_xc, d_na, d_nc};
  for (float *p : fb) CHECK(cudaFree(p));
  CHECK(cudaFree(d_pb));
  CHECK(cudaFree(d_colb));
  double *db[] = {d_valb, d_xb, d_yb};
  for (double *p : db) CHECK(cudaFree(p));
  return finish(ms, ok);
}
