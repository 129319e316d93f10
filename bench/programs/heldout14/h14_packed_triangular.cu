// h14_packed_triangular: triangular row walks, a thread per row, the row's
// length depending on the row. (1) tpmv_lower, BLAS tpmv on a lower
// triangle packed by rows (row i starts at i*(i+1)/2 and holds A[i][0..i]):
// `int` i and k, `size_t off = (size_t)i*(i + 1)/2; for (k = 0; k <= i;
// k++) s += AP[off + k]*x[k]`, float, n = 8192 (33.6 M packed, 134 MB),
// 128-thread blocks, `if (i < n)`, launched twice (two right-hand sides
// into two outputs); (2) tpmv_upper_d, the upper triangle packed by rows
// (row i starts at i*n - i*(i-1)/2 and holds A[i][i..n-1]): `long` i and
// k, `const double *row = AP + i*n - i*(i - 1)/2; for (k = i; k < n; k++) s
// += row[k - i]*x[k]`, double, n = 4096 (8.4 M packed, 67 MB), 64-thread
// blocks, early `return`; (3) close_pairs_upper, neighbour counting over
// the strict upper triangle of a full float distance matrix: `unsigned` i
// and j, `for (j = i + 1; j < n; j++) { d = D[i*n + j]; if (d < radius) {
// c++; s += d; } }`, outputs the count and the sum of the close distances,
// n = 8192 (268 MB stored, the upper half read), distances in [0.25, 1.25)
// and radius 0.5 (about a quarter close), a grid-stride loop over rows on 8
// blocks of 512 threads (two rows a thread: i and i + 4096). Sizes: nl nu
// nd (argv). Timed: the 4 launches. Checked against double CPU sums: (1)
// rtol 1e-3; (2) rtol 1e-9; (3) counts exact, sums rtol 1e-3.
#include "../common.h"

__global__ void tpmv_lower(const float *AP, const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    size_t off = (size_t)i * (i + 1) / 2;
    float s = 0.0f;
    for (int k = 0; k <= i; k++) s += AP[off + k] * x[k];
    y[i] = s;
  }
}

__global__ void tpmv_upper_d(const double *AP, const double *x, double *y, long n) {
  long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const double *row = AP + i * n - i * (i - 1) / 2;
  double s = 0.0;
  for (long k = i; k < n; k++) s += row[k - i] * x[k];
  y[i] = s;
}

__global__ void close_pairs_upper(const float *D, int *cnt, float *dsum, unsigned n, float radius) {
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    int c = 0;
    float s = 0.0f;
    for (unsigned j = i + 1; j < n; j++) {
      float d = D[i * n + j];
      if (d < radius) {
        c++;
        s += d;
      }
    }
    cnt[i] = c;
    dsum[i] = s;
  }
}

int main(int argc, char **argv) {
  const int nl = argInt(argc, argv, 1, 8192);
  const int nu = argInt(argc, argv, 2, 4096);
  const int nd = argInt(argc, argv, 3, 8192);
  const size_t npl = size_t(nl) * (nl + 1) / 2, npu = size_t(nu) * (nu + 1) / 2, ndd = size_t(nd) * nd;
  const float radius = 0.5f;

  std::vector<float> APl(npl), xa(nl), xb(nl);
  fillFloats(APl, 14601);
  fillFloats(xa, 14602);
  fillFloats(xb, 14603);
  std::vector<double> APu(npu), xu(nu);
  for (size_t k = 0; k < npu; k++) APu[k] = 0.25 + double(hashAt(14604, k) >> 8) * (1.0 / 16777216.0);
  for (int k = 0; k < nu; k++) xu[k] = 0.25 + double(hashAt(14605, k) >> 8) * (1.0 / 16777216.0);
  std::vector<float> D(ndd);
  fillFloats(D, 14606);

  float *d_APl = toDevice(APl), *d_xa = toDevice(xa), *d_xb = toDevice(xb), *d_ya, *d_yb;
  double *d_APu = toDevice(APu), *d_xu = toDevice(xu), *d_yu;
  float *d_D = toDevice(D), *d_dsum;
  int *d_cnt;
  CHECK(cudaMalloc(&d_ya, nl * sizeof(float)));
  CHECK(cudaMalloc(&d_yb, nl * sizeof(float)));
  CHECK(cudaMalloc(&d_yu, nu * sizeof(double)));
  CHECK(cudaMalloc(&d_cnt, nd * sizeof(int)));
  CHECK(cudaMalloc(&d_dsum, nd * sizeof(float)));
  CHECK(cudaDeviceSynchronize());

  GpuTimer t;
  t.start();
  tpmv_lower<<<blocksFor(nl, 128), 128>>>(d_APl, d_xa, d_ya, nl);
  CHECK_LAUNCH();
  tpmv_lower<<<blocksFor(nl, 128), 128>>>(d_APl, d_xb, d_yb, nl);
  CHECK_LAUNCH();
  tpmv_upper_d<<<blocksFor(nu, 64), 64>>>(d_APu, d_xu, d_yu, long(nu));
  CHECK_LAUNCH();
  close_pairs_upper<<<blocksFor(nd, 2 * 512), 512>>>(d_D, d_cnt, d_dsum, unsigned(nd), radius);
  CHECK_LAUNCH();
  float ms = t.stop();
  std::vector<float> gya = fromDevice(d_ya, nl), gyb = fromDevice(d_yb, nl);
  std::vector<double> gyu = fromDevice(d_yu, nu);
  std::vector<int> gcnt = fromDevice(d_cnt, nd);
  std::vector<float> gdsum = fromDevice(d_dsum, nd);

  std::vector<float> wya(nl), wyb(nl);
  for (size_t i = 0; i < size_t(nl); i++) {
    const size_t off = i * (i + 1) / 2;
    double sa = 0, sb = 0;
    for (size_t k = 0; k <= i; k++) {
      sa += double(APl[off + k]) * xa[k];
      sb += double(APl[off + k]) * xb[k];
    }
    wya[i] = float(sa);
    wyb[i] = float(sb);
  }
  bool ok = checkFloats("tpmv_lower a", gya.data(), wya.data(), nl, 1e-3);
  ok = checkFloats("tpmv_lower b", gyb.data(), wyb.data(), nl, 1e-3) && ok;

  size_t bad = 0;
  for (size_t i = 0; i < size_t(nu); i++) {
    const size_t off = i * nu - i * (i - 1) / 2;  // i = 0: off 0 (the product i*(i-1) is 0 before the division)
    double s = 0;
    for (size_t k = i; k < size_t(nu); k++) s += APu[off + (k - i)] * xu[k];
    if (!closeEnough(gyu[i], s, 1e-9, 1e-12)) {
      if (!bad) std::fprintf(stderr, "tpmv_upper_d: first bad at %zu: got %.17g want %.17g\n", i, gyu[i], s);
      ++bad;
    }
  }
  if (bad) std::fprintf(stderr, "tpmv_upper_d: %zu of %d differ\n", bad, nu);
  ok = ok && bad == 0;

  std::vector<int> wcnt(nd);
  std::vector<float> wdsum(nd);
  for (size_t i = 0; i < size_t(nd); i++) {
    int c = 0;
    double s = 0;
    for (size_t j = i + 1; j < size_t(nd); j++) {
      float d = D[i * nd + j];
      if (d < radius) {
        c++;
        s += d;
      }
    }
    wcnt[i] = c;
    wdsum[i] = float(s);
  }
  ok = checkExact("close_pairs_upper count", gcnt.data(), wcnt.data(), nd) && ok;
  ok = checkFloats("close_pairs_upper sum", gdsum.data(), wdsum.data(), nd, 1e-3) && ok;

  CHECK(cudaFree(d_APl));
  CHECK(cudaFree(d_xa));
  CHECK(cudaFree(d_xb));
  CHECK(cudaFree(d_ya));
  CHECK(cudaFree(d_yb));
  CHECK(cudaFree(d_APu));
  CHECK(cudaFree(d_xu));
  CHECK(cudaFree(d_yu));
  CHECK(cudaFree(d_D));
  CHECK(cudaFree(d_cnt));
  CHECK(cudaFree(d_dsum));
  return finish(ms, ok);
}
