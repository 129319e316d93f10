// h12_csr_loopforms: scalar CSR, a thread per row, with the row loop written
// in other ways than the textbook `for`. (1) spmv_while: `int j =
// rowptr[row]; const int end = rowptr[row+1]; while (j < end) { acc +=
// val[j]*x[col[j]]; ++j; }`, float, `int`, 262144 rows of 16..176 non-zeros
// (~25.1 M, columns hashed over the row range; val + col 201 MB), 128-thread
// blocks, early `return` for rows past n; (2) spmv_unroll4: `row_start` /
// `row_end` locals and `#pragma unroll 4` on the loop, y += alpha*A*x,
// double values and x, `unsigned`, 131072 rows of 48..144 non-zeros (~12.6
// M, columns `(7*i + 131*k) % n`; vals 101 MB, columns 50 MB), 256-thread
// blocks, `if (row < n)`; (3) pagerank_pull: an adjacency-only CSR of
// in-edges, `for (e = row_start; e < row_end; e++) { u = in_src[e]; s +=
// rank[u] / (float)out_deg[u]; }`, `next[v] = (1 - d)/n + d*s` (d = 0.85),
// float, `int`, 2^20 vertices of in-degree 4..40 (~23 M edges, 92 MB),
// 96-thread blocks, `if (v < n)`, iterated from the host with rank/next
// ping-ponged. Sizes: n1 n2 nv iters (argv; 5 pagerank iterations). Timed:
// all launches (2 + iters). Checked: against double CPU runs, relative
// tolerance 1e-3 for the float results (fma contraction), 1e-9 for the
// double one; positive values throughout.
#include "../common.h"

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

__global__ void spmv_unroll4(const unsigned *rowptr, const unsigned *colidx, const double *vals, const double *x,
                             double *y, unsigned nrows, double alpha) {
  unsigned row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < nrows) {
    unsigned row_start = rowptr[row];
    unsigned row_end = rowptr[row + 1];
    double dot = 0.0;
#pragma unroll 4
    for (unsigned jj = row_start; jj < row_end; jj++) dot += vals[jj] * x[colidx[jj]];
    y[row] = alpha * dot + y[row];
  }
}

__global__ void pagerank_pull(const int *in_ptr, const int *in_src, const int *out_deg, const float *rank,
                              float *next, int n, float damp) {
  int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v < n) {
    int row_start = in_ptr[v], row_end = in_ptr[v + 1];
    float s = 0.0f;
    for (int e = row_start; e < row_end; e++) {
      int u = in_src[e];
      s += rank[u] / (float)out_deg[u];
    }
    next[v] = (1.0f - damp) / (float)n + damp * s;
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

int main(int argc, char **argv) {
  const int n1 = argInt(argc, argv, 1, 262144);
  const unsigned n2 = argInt(argc, argv, 2, 131072);
  const int nv = argInt(argc, argv, 3, 1 << 20), iters = argInt(argc, argv, 4, 5);
  const double alpha = 0.5;
  const float damp = 0.85f;

  std::vector<int> p1(n1 + 1);
  p1[0] = 0;
  for (int i = 0; i < n1; i++) p1[i + 1] = p1[i] + 16 + int(hashAt(12401, i) % 161);
  const size_t nnz1 = size_t(p1[n1]);
  std::vector<int> c1(nnz1);
  std::vector<float> v1(nnz1), x1(n1);
  for (size_t k = 0; k < nnz1; k++) c1[k] = int(hashAt(12402, k) % uint32_t(n1));
  fillFloats(v1, 12403);
  fillFloats(x1, 12404);

  std::vector<unsigned> p2(n2 + 1);
  p2[0] = 0;
  for (unsigned i = 0; i < n2; i++) p2[i + 1] = p2[i] + 48 + hashAt(12405, i) % 97;
  const size_t nnz2 = p2[n2];
  std::vector<unsigned> c2(nnz2);
  std::vector<double> v2(nnz2), x2(n2), y2(n2);
  for (unsigned i = 0; i < n2; i++)
    for (unsigned k = 0; k < p2[i + 1] - p2[i]; k++) c2[p2[i] + k] = unsigned((7ull * i + 131ull * k) % n2);
  for (size_t k = 0; k < nnz2; k++) v2[k] = 0.25 + double(hashAt(12406, k)) * (1.0 / 4294967296.0);
  for (unsigned i = 0; i < n2; i++) {
    x2[i] = 0.25 + double(hashAt(12407, i)) * (1.0 / 4294967296.0);
    y2[i] = 0.5 + double(hashAt(12408, i)) * (1.0 / 4294967296.0);
  }

  std::vector<int> inp(nv + 1), outdeg(nv, 0);
  inp[0] = 0;
  for (int v = 0; v < nv; v++) inp[v + 1] = inp[v] + 4 + int(hashAt(12409, v) % 37);
  const size_t ne = size_t(inp[nv]);
  std::vector<int> src(ne);
  for (size_t e = 0; e < ne; e++) {
    src[e] = int(hashAt(12410, e) % uint32_t(nv));
    outdeg[src[e]]++;
  }
  std::vector<float> rank0(nv, 1.0f / float(nv));

  int *d_p1 = toDevice(p1), *d_c1 = toDevice(c1);
  float *d_v1 = toDevice(v1), *d_x1 = toDevice(x1), *d_y1;
  unsigned *d_p2 = toDevice(p2), *d_c2 = toDevice(c2);
  double *d_v2 = toDevice(v2), *d_x2 = toDevice(x2), *d_y2 = toDevice(y2);
  int *d_inp = toDevice(inp), *d_src = toDevice(src), *d_outdeg = toDevice(outdeg);
  float *d_rank = toDevice(rank0), *d_next;
  CHECK(cudaMalloc(&d_y1, n1 * sizeof(float)));
  CHECK(cudaMalloc(&d_next, nv * sizeof(float)));
  CHECK(cudaDeviceSynchronize());

  GpuTimer t;
  t.start();
  spmv_while<<<blocksFor(n1, 128), 128>>>(d_p1, d_c1, d_v1, d_x1, d_y1, n1);
  CHECK_LAUNCH();
  spmv_unroll4<<<blocksFor(n2, 256), 256>>>(d_p2, d_c2, d_v2, d_x2, d_y2, n2, alpha);
  CHECK_LAUNCH();
  float *cur = d_rank, *nxt = d_next;
  for (int it = 0; it < iters; it++) {
    pagerank_pull<<<blocksFor(nv, 96), 96>>>(d_inp, d_src, d_outdeg, cur, nxt, nv, damp);
    CHECK_LAUNCH();
    std::swap(cur, nxt);
  }
  float ms = t.stop();
  std::vector<float> gy1 = fromDevice(d_y1, n1);
  std::vector<double> gy2 = fromDevice(d_y2, n2);
  std::vector<float> grank = fromDevice(cur, nv);

  std::vector<float> wy1(n1);
  for (int i = 0; i < n1; i++) {
    double s = 0;
    for (int j = p1[i]; j < p1[i + 1]; j++) s += double(v1[j]) * x1[c1[j]];
    wy1[i] = float(s);
  }
  std::vector<double> wy2(n2);
  for (unsigned i = 0; i < n2; i++) {
    double s = 0;
    for (unsigned j = p2[i]; j < p2[i + 1]; j++) s += v2[j] * x2[c2[j]];
    wy2[i] = alpha * s + y2[i];
  }
  std::vector<double> r(nv, 1.0 / double(nv)), rn(nv);
  for (int it = 0; it < iters; it++) {
    for (int v = 0; v < nv; v++) {
      double s = 0;
      for (int e = inp[v]; e < inp[v + 1]; e++) s += r[src[e]] / double(outdeg[src[e]]);
      rn[v] = (1.0 - double(damp)) / double(nv) + double(damp) * s;
    }
    std::swap(r, rn);
  }
  std::vector<float> wrank(nv);
  for (int v = 0; v < nv; v++) wrank[v] = float(r[v]);
  bool ok = checkFloats("spmv_while", gy1.data(), wy1.data(), n1, 1e-3);
  ok = checkDoubles("spmv_unroll4", gy2.data(), wy2.data(), n2, 1e-9) && ok;
  ok = checkFloats("pagerank_pull", grank.data(), wrank.data(), nv, 1e-3, 1e-12) && ok;

  CHECK(cudaFree(d_p2));
  CHECK(cudaFree(d_c2));
  int *ib[] = {d_p1, d_c1, d_inp, d_src, d_outdeg};
  for (int *p : ib) CHECK(cudaFree(p));
  float *fb[] = {d_v1, d_x1, d_y1, d_rank, d_next};
  for (float *p : fb) CHECK(cudaFree(p));
  double *db[] = {d_v2, d_x2, d_y2};
  for (double *p : db) CHECK(cudaFree(p));
  return finish(ms, ok);
}
