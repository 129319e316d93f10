// h17_graph_rows: graphs and sparse matrices, a thread per vertex / row.
// (1) adj_scan, a dense adjacency matrix of uint8 flags (0 / 1, a per-row
// density of 1/16..1/256, not symmetric), 8192 x 8192 (64 MB): the degree
// `deg += a[i*n + j] != 0` and the first neighbour in one forward walk,
// then the last neighbour by a walk counting down `for (int j = n - 1; j >=
// 0; --j)` that leaves at the first flag (`break`): `int` i and j, n at
// run time, 224-thread blocks, `if (i < n)`; (2) ell_spmv_f, an ELLPACK
// SpMV in float stored row-major (each thread walks its own row of
// `col` / `val`), width 37 (odd) at run time, 1..37 entries a row then
// padding `col = -1` that ends the row (`if (c < 0) break;`), `s += val *
// x[c]` with x of 1M floats: `unsigned` i and k, 262144 rows (74 MB),
// 128-thread blocks, early `return`; (3) ell_spmv_i8<W>, an ELLPACK SpMV
// of int8 weights (+-1..127) against `int` x (+-1..1000), `int`
// accumulator, W = 24 a template parameter, padding holes (`col = -1`)
// anywhere in the row, skipped by `if (c >= 0)`, `const ... __restrict__`
// pointers: a `size_t` grid-stride loop over rows (384-thread blocks, a
// quarter of the blocks a thread per row would need: 4 rows a thread),
// 1048576 rows (120 MB). Sizes: n1 r2 w2 r3 (argv; W is compile-time).
// Timed: the 3 launches. Checked: (1) and (3) exactly; (2) against float
// in the same order on the host, rtol 1e-5.
#include "../common.h"

#define ELL_W 24

__global__ void adj_scan(const uint8_t *adj, int *degree, int *firstNb, int *lastNb, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int deg = 0, first = -1, last = -1;
    for (int j = 0; j < n; j++) {
      if (adj[i * n + j] != 0) {
        deg++;
        if (first < 0) first = j;
      }
    }
    for (int j = n - 1; j >= 0; --j) {
      if (adj[i * n + j]) {
        last = j;
        break;
      }
    }
    degree[i] = deg;
    firstNb[i] = first;
    lastNb[i] = last;
  }
}

__global__ void ell_spmv_f(const int *col, const float *val, const float *x, float *y, unsigned rows, unsigned w) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= rows) return;
  float s = 0.0f;
  for (unsigned k = 0; k < w; ++k) {
    int c = col[i * w + k];
    if (c < 0) break;
    s += val[i * w + k] * x[c];
  }
  y[i] = s;
}

template <int W>
__global__ void ell_spmv_i8(const int *__restrict__ col, const int8_t *__restrict__ val, const int *__restrict__ x,
                            int *__restrict__ y, size_t rows) {
  for (size_t r = blockIdx.x * (size_t)blockDim.x + threadIdx.x; r < rows; r += (size_t)blockDim.x * gridDim.x) {
    int acc = 0;
    for (int k = 0; k < W; ++k) {
      int c = col[r * W + k];
      if (c >= 0) acc += int(val[r * W + k]) * x[c];
    }
    y[r] = acc;
  }
}

int main(int argc, char **argv) {
  const int n1 = argInt(argc, argv, 1, 8192);
  const int r2 = argInt(argc, argv, 2, 262144);
  const int w2 = argInt(argc, argv, 3, 37);
  const int r3 = argInt(argc, argv, 4, 1048576);
  const int nx = 1 << 20;

  // (1) flags with a per-row density 1/16..1/256; a few rows empty.
  const size_t e1 = size_t(n1) * n1;
  std::vector<uint8_t> adj(e1);
  for (size_t i = 0; i < size_t(n1); i++) {
    uint32_t den = 16 + hashAt(17501, i) % 241u;
    bool empty = hashAt(17502, i) % 97u == 0;
    for (size_t j = 0; j < size_t(n1); j++) adj[i * n1 + j] = !empty && hashAt(17503, i * n1 + j) % den == 0;
  }

  // (2) 1..w2 entries a row, columns anywhere in x, then -1.
  const size_t e2 = size_t(r2) * w2;
  std::vector<int> col2(e2);
  std::vector<float> val2(e2), x2(nx);
  fillFloats(val2, 17504);
  fillFloats(x2, 17505);
  for (size_t i = 0; i < size_t(r2); i++) {
    int len = 1 + int(hashAt(17506, i) % uint32_t(w2));
    for (int k = 0; k < w2; k++) col2[i * w2 + k] = k < len ? int(hashAt(17507, i * w2 + k) % uint32_t(nx)) : -1;
  }

  // (3) W entries a row near the diagonal band of x, one in 6 a hole.
  const size_t e3 = size_t(r3) * ELL_W;
  std::vector<int> col3(e3), x3(nx);
  std::vector<int8_t> val3(e3);
  for (size_t i = 0; i < size_t(r3); i++)
    for (int k = 0; k < ELL_W; k++) {
      size_t q = i * ELL_W + k;
      uint32_t h = hashAt(17508, q);
      col3[q] = h % 6u == 0 ? -1 : int((i % size_t(nx) + (h >> 8) % 4096u) % size_t(nx));
      int v = 1 + int((h >> 3) % 127u);
      val3[q] = int8_t((h >> 20) & 1u ? -v : v);
    }
  for (int c = 0; c < nx; c++) {
    int v = 1 + int(hashAt(17509, c) % 1000u);
    x3[c] = hashAt(17510, c) & 1u ? -v : v;
  }

  uint8_t *d_adj = toDevice(adj);
  int *d_deg, *d_first, *d_last;
  CHECK(cudaMalloc(&d_deg, size_t(n1) * sizeof(int)));
  CHECK(cudaMalloc(&d_first, size_t(n1) * sizeof(int)));
  CHECK(cudaMalloc(&d_last, size_t(n1) * sizeof(int)));
  int *d_col2 = toDevice(col2);
  float *d_val2 = toDevice(val2), *d_x2 = toDevice(x2), *d_y2;
  CHECK(cudaMalloc(&d_y2, size_t(r2) * sizeof(float)));
  int *d_col3 = toDevice(col3), *d_x3 = toDevice(x3), *d_y3;
  int8_t *d_val3 = toDevice(val3);
  CHECK(cudaMalloc(&d_y3, size_t(r3) * sizeof(int)));
  CHECK(cudaDeviceSynchronize());

  GpuTimer t;
  t.start();
  adj_scan<<<blocksFor(n1, 224), 224>>>(d_adj, d_deg, d_first, d_last, n1);
  CHECK_LAUNCH();
  ell_spmv_f<<<blocksFor(r2, 128), 128>>>(d_col2, d_val2, d_x2, d_y2, unsigned(r2), unsigned(w2));
  CHECK_LAUNCH();
  ell_spmv_i8<ELL_W><<<blocksFor(r3, 384 * 4), 384>>>(d_col3, d_val3, d_x3, d_y3, size_t(r3));
  CHECK_LAUNCH();
  float ms = t.stop();
  std::vector<int> gdeg = fromDevice(d_deg, size_t(n1));
  std::vector<int> gfirst = fromDevice(d_first, size_t(n1));
  std::vector<int> glast = fromDevice(d_last, size_t(n1));
  std::vector<float> gy2 = fromDevice(d_y2, size_t(r2));
  std::vector<int> gy3 = fromDevice(d_y3, size_t(r3));

  // (1): the neighbour list of each row, then its size and ends.
  std::vector<int> wdeg(n1), wfirst(n1), wlast(n1), nbrs;
  for (size_t i = 0; i < size_t(n1); i++) {
    nbrs.clear();
    for (int j = 0; j < n1; j++)
      if (adj[i * n1 + j]) nbrs.push_back(j);
    wdeg[i] = int(nbrs.size());
    wfirst[i] = nbrs.empty() ? -1 : nbrs.front();
    wlast[i] = nbrs.empty() ? -1 : nbrs.back();
  }
  bool ok = checkExact("adj_scan degree", gdeg.data(), wdeg.data(), size_t(n1));
  ok = checkExact("adj_scan first", gfirst.data(), wfirst.data(), size_t(n1)) && ok;
  ok = checkExact("adj_scan last", glast.data(), wlast.data(), size_t(n1)) && ok;

  // (2)
  std::vector<float> wy2(r2);
  for (size_t i = 0; i < size_t(r2); i++) {
    float s = 0.0f;
    for (int k = 0; k < w2 && col2[i * w2 + k] >= 0; k++) s += val2[i * w2 + k] * x2[col2[i * w2 + k]];
    wy2[i] = s;
  }
  ok = checkFloats("ell_spmv_f", gy2.data(), wy2.data(), size_t(r2), 1e-5) && ok;

  // (3)
  std::vector<int> wy3(r3);
  for (size_t i = 0; i < size_t(r3); i++) {
    long long s = 0;
    for (int k = 0; k < ELL_W; k++) {
      size_t q = i * ELL_W + k;
      if (col3[q] >= 0) s += (long long)val3[q] * x3[col3[q]];
    }
    wy3[i] = int(s);
  }
  ok = checkExact("ell_spmv_i8", gy3.data(), wy3.data(), size_t(r3)) && ok;

  CHECK(cudaFree(d_adj));
  CHECK(cudaFree(d_deg));
  CHECK(cudaFree(d_first));
  CHECK(cudaFree(d_last));
  CHECK(cudaFree(d_col2));
  CHECK(cudaFree(d_val2));
  CHECK(cudaFree(d_x2));
  CHECK(cudaFree(d_y2));
  CHECK(cudaFree(d_col3));
  CHECK(cudaFree(d_val3));
  CHECK(cudaFree(d_x3));
  CHECK(cudaFree(d_y3));
  return finish(ms, ok);
}
