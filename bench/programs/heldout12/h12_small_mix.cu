// h12_small_mix: six of this batch's shapes on tiny inputs (every array
// under 1 MB), each launched once, so that a launch is a few blocks and the
// data fits in cache many times over. (1) syrk_lower_rows: nested row walks,
// `for (j = 0; j <= i; j++) { s = 0; for (k) s += A[i*m + k]*A[j*m + k];
// C[i*n + j] = alpha*s + beta*C[i*n + j]; }`, float, `int`, n x m = 192 x 48
// (C 147 KB), 64-thread blocks; (2) spmv_while over a CSR with one row in 8
// empty and the others 8..64 non-zeros, float, `int`, 2048 rows (~64 K
// non-zeros, 256 KB a array), 128-thread blocks; (3) row_softmax, three
// walks, `unsigned`, 128 x 512 float in [0.25, 8.25) (256 KB), 96-thread
// blocks; (4) u8 rows summed into `unsigned` above a per-row threshold,
// `size_t`, 512 x 1024 (512 KB), 256-thread blocks; (5) a grid-stride row
// dot, `size_t`, 1000 x 200 float (800 KB), one block of 256 threads (3 or
// 4 rows a thread); (6) upper-triangular `for (size_t k = i; k < n; k++) s
// += U[i*n + k]*x[k]`, double, n = 320 (800 KB), 64-thread blocks with no
// guard (5 blocks exactly). Sizes fixed. Timed: the 6 launches. Checked: (1),
// (2), (3), (5) against double CPU results, relative tolerance 1e-3 (fma
// contraction, expf); (4) exact; (6) relative tolerance 1e-9.
#include "../common.h"

__global__ void syrk_lower_rows(const float *A, float *C, int n, int m, float alpha, float beta) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    for (int j = 0; j <= i; j++) {
      float s = 0.0f;
      for (int k = 0; k < m; k++) s += A[i * m + k] * A[j * m + k];
      C[i * n + j] = alpha * s + beta * C[i * n + j];
    }
  }
}

__global__ void spmv_while(const int *rowptr, const int *col, const float *val, const float *x, float *y, int n) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= n) return;
  int j = rowptr[row];
  const int end = rowptr[row + 1];
  float acc = 0.0f;
  while (j < end) {
    acc += val[j] * x[col[j]];
    ++j;
  }
  y[row] = acc;
}

__global__ void row_softmax(const float *X, float *Y, unsigned rows, unsigned cols) {
  unsigned r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < rows) {
    float m = -INFINITY;
    for (unsigned j = 0; j < cols; j++) m = fmaxf(m, X[r * cols + j]);
    float s = 0.0f;
    for (unsigned j = 0; j < cols; j++) s += expf(X[r * cols + j] - m);
    float inv = 1.0f / s;
    for (unsigned j = 0; j < cols; j++) Y[r * cols + j] = expf(X[r * cols + j] - m) * inv;
  }
}

__global__ void u8_above_thresh(const unsigned char *img, const unsigned char *thr, unsigned *sum, size_t height,
                                size_t width) {
  size_t y = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (y < height) {
    unsigned s = 0;
    for (size_t x = 0; x < width; x++)
      if (img[y * width + x] > thr[y]) s += img[y * width + x];
    sum[y] = s;
  }
}

__global__ void rowdot_gridstride(const float *A, const float *x, float *y, size_t rows, size_t cols) {
  for (size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < rows; i += size_t(gridDim.x) * blockDim.x) {
    float s = 0.0f;
    for (size_t j = 0; j < cols; j++) s += A[i * cols + j] * x[j];
    y[i] = s;
  }
}

__global__ void trmv_upper_d(const double *U, const double *x, double *y, size_t n) {
  size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  double s = 0.0;
  for (size_t k = i; k < n; k++) s += U[i * n + k] * x[k];
  y[i] = s;
}

int main() {
  const int sn = 192, sm = 48;
  const float alpha = 1.5f, beta = 0.5f;
  const int cn = 2048;
  const unsigned xr = 128, xc = 512;
  const size_t ih = 512, iw = 1024;
  const size_t gr = 1000, gc = 200;
  const size_t tn = 320;

  std::vector<float> A(size_t(sn) * sm), C(size_t(sn) * sn);
  fillFloats(A, 13001);
  fillFloats(C, 13002);
  std::vector<int> rp(cn + 1);
  rp[0] = 0;
  for (int i = 0; i < cn; i++) {
    uint32_t h = hashAt(13003, i);
    rp[i + 1] = rp[i] + (h % 8 == 0 ? 0 : 8 + int((h >> 3) % 57));
  }
  const size_t nnz = size_t(rp[cn]);
  std::vector<int> col(nnz);
  std::vector<float> val(nnz), cx(cn);
  for (size_t k = 0; k < nnz; k++) col[k] = int(hashAt(13004, k) % cn);
  fillFloats(val, 13005);
  fillFloats(cx, 13006);
  std::vector<float> X(size_t(xr) * xc);
  fillFloats(X, 13007, 0.25f, 8.25f);
  std::vector<unsigned char> img(ih * iw), thr(ih);
  for (size_t k = 0; k < img.size(); k++) img[k] = (unsigned char)(1 + hashAt(13008, k) % 255);
  for (size_t y = 0; y < ih; y++) thr[y] = (unsigned char)(16 + hashAt(13009, y) % 224);
  std::vector<float> G(gr * gc), gx(gc);
  fillFloats(G, 13010);
  fillFloats(gx, 13011);
  std::vector<double> U(tn * tn), ux(tn);
  for (size_t k = 0; k < U.size(); k++) U[k] = 0.25 + double(hashAt(13012, k)) * (1.0 / 4294967296.0);
  for (size_t k = 0; k < tn; k++) ux[k] = 0.25 + double(hashAt(13013, k)) * (1.0 / 4294967296.0);

  float *d_A = toDevice(A), *d_C = toDevice(C), *d_val = toDevice(val), *d_cx = toDevice(cx), *d_cy;
  int *d_rp = toDevice(rp), *d_col = toDevice(col);
  float *d_X = toDevice(X), *d_Y, *d_G = toDevice(G), *d_gx = toDevice(gx), *d_gy;
  unsigned char *d_img = toDevice(img), *d_thr = toDevice(thr);
  unsigned *d_isum;
  double *d_U = toDevice(U), *d_ux = toDevice(ux), *d_uy;
  CHECK(cudaMalloc(&d_cy, cn * sizeof(float)));
  CHECK(cudaMalloc(&d_Y, X.size() * sizeof(float)));
  CHECK(cudaMalloc(&d_isum, ih * sizeof(unsigned)));
  CHECK(cudaMalloc(&d_gy, gr * sizeof(float)));
  CHECK(cudaMalloc(&d_uy, tn * sizeof(double)));
  CHECK(cudaDeviceSynchronize());

  GpuTimer t;
  t.start();
  syrk_lower_rows<<<blocksFor(sn, 64), 64>>>(d_A, d_C, sn, sm, alpha, beta);
  CHECK_LAUNCH();
  spmv_while<<<blocksFor(cn, 128), 128>>>(d_rp, d_col, d_val, d_cx, d_cy, cn);
  CHECK_LAUNCH();
  row_softmax<<<blocksFor(xr, 96), 96>>>(d_X, d_Y, xr, xc);
  CHECK_LAUNCH();
  u8_above_thresh<<<blocksFor(long(ih), 256), 256>>>(d_img, d_thr, d_isum, ih, iw);
  CHECK_LAUNCH();
  rowdot_gridstride<<<1, 256>>>(d_G, d_gx, d_gy, gr, gc);
  CHECK_LAUNCH();
  trmv_upper_d<<<unsigned(tn / 64), 64>>>(d_U, d_ux, d_uy, tn);
  CHECK_LAUNCH();
  float ms = t.stop();
  std::vector<float> gC = fromDevice(d_C, C.size()), gcy = fromDevice(d_cy, cn), gY = fromDevice(d_Y, X.size());
  std::vector<unsigned> gisum = fromDevice(d_isum, ih);
  std::vector<float> ggy = fromDevice(d_gy, gr);
  std::vector<double> guy = fromDevice(d_uy, tn);

  std::vector<float> wC(C);
  for (size_t i = 0; i < size_t(sn); i++)
    for (size_t j = 0; j <= i; j++) {
      double s = 0;
      for (size_t k = 0; k < size_t(sm); k++) s += double(A[i * sm + k]) * A[j * sm + k];
      wC[i * sn + j] = float(double(alpha) * s + double(beta) * C[i * sn + j]);
    }
  std::vector<float> wcy(cn);
  for (int i = 0; i < cn; i++) {
    double s = 0;
    for (int j = rp[i]; j < rp[i + 1]; j++) s += double(val[j]) * cx[col[j]];
    wcy[i] = float(s);
  }
  std::vector<float> wY(X.size());
  std::vector<double> e(xc);
  for (size_t r = 0; r < xr; r++) {
    double m = X[r * xc];
    for (size_t j = 1; j < xc; j++) m = std::fmax(m, double(X[r * xc + j]));
    double s = 0;
    for (size_t j = 0; j < xc; j++) s += (e[j] = std::exp(double(X[r * xc + j]) - m));
    for (size_t j = 0; j < xc; j++) wY[r * xc + j] = float(e[j] / s);
  }
  std::vector<unsigned> wisum(ih);
  for (size_t y = 0; y < ih; y++) {
    unsigned s = 0;
    for (size_t x = 0; x < iw; x++)
      if (img[y * iw + x] > thr[y]) s += img[y * iw + x];
    wisum[y] = s;
  }
  std::vector<float> wgy(gr);
  for (size_t i = 0; i < gr; i++) {
    double s = 0;
    for (size_t j = 0; j < gc; j++) s += double(G[i * gc + j]) * gx[j];
    wgy[i] = float(s);
  }
  bool ok = checkFloats("syrk_lower_rows", gC.data(), wC.data(), wC.size(), 1e-3);
  ok = checkFloats("spmv_while", gcy.data(), wcy.data(), cn, 1e-3) && ok;
  ok = checkFloats("row_softmax", gY.data(), wY.data(), wY.size(), 1e-3, 1e-12) && ok;
  ok = checkExact("u8_above_thresh", gisum.data(), wisum.data(), ih) && ok;
  ok = checkFloats("rowdot_gridstride", ggy.data(), wgy.data(), gr, 1e-3) && ok;
  size_t bad = 0;
  for (size_t i = 0; i < tn; i++) {
    double s = 0;
    for (size_t k = i; k < tn; k++) s += U[i * tn + k] * ux[k];
    if (!closeEnough(guy[i], s, 1e-9, 1e-12)) {
      if (!bad) std::fprintf(stderr, "trmv_upper_d: first bad at %zu: got %.17g want %.17g\n", i, guy[i], s);
      ++bad;
    }
  }
  ok = ok && bad == 0;

  float *fb[] = {d_A, d_C, d_val, d_cx, d_cy, d_X, d_Y, d_G, d_gx, d_gy};
  for (float *p : fb) CHECK(cudaFree(p));
  CHECK(cudaFree(d_rp));
  CHECK(cudaFree(d_col));
  CHECK(cudaFree(d_img));
  CHECK(cudaFree(d_thr));
  CHECK(cudaFree(d_isum));
  double *db[] = {d_U, d_ux, d_uy};
  for (double *p : db) CHECK(cudaFree(p));
  return finish(ms, ok);
}
