// h15_block2d_rows: the row index taken from threadIdx.y, and rows picked
// through an index array. (1) slice_sumsq, 2D blocks of (32, 8): `int i =
// blockIdx.x*blockDim.y + threadIdx.y` is the row and threadIdx.x picks a
// contiguous slice of it (`w = n / blockDim.x`, the last slice takes the
// remainder), `s += A[i*n + j]*A[i*n + j]` over the slice, one partial
// per (row, slice) written to `part[i*blockDim.x + threadIdx.x]` (the
// first stage of a row-norm), float, `int` indices, 16384 x 2048 (128 MB),
// `if (i < rows)`; (2) weighted_mean_rows, blocks of (1, 256) so a block is
// 256 rows in y: `unsigned i = blockIdx.x*blockDim.y + threadIdx.y`, rows
// of double2 (value, weight) pairs, a `do { ... } while (++j < n)` walk
// (n >= 1), `sv += p.x*p.y; sw += p.y;`, outputs sv/sw and sw, 8192 x 1024
// (128 MB), early `return`; (3) embed_dot_q8, scoring candidates against a
// query in an int8 embedding table (char4 elements): `int r = cand[i];`
// then `e = E[r*d4 + j]`, four int8 products a char4 into an `int`,
// 65536 rows of 1024 bytes (64 MB, values +-1..127), 131072 candidates
// (random rows, repeats allowed), 512-thread blocks, `if (i < m)`. Sizes:
// r1 n1 r2 n2 t3 m3 d3 (argv; d3 bytes a row, a multiple of 4). Timed:
// the 3 launches. Checked: (1) rtol 1e-3 against double; (2) 1e-9
// against double; (3) exact.
#include "../common.h"

__global__ void slice_sumsq(const float *A, float *part, int rows, int n) {
  int i = blockIdx.x * blockDim.y + threadIdx.y;
  if (i < rows) {
    int nx = blockDim.x, tx = threadIdx.x;
    int w = n / nx;
    int j0 = tx * w;
    int j1 = tx == nx - 1 ? n : j0 + w;
    float s = 0.0f;
    for (int j = j0; j < j1; j++) s += A[i * n + j] * A[i * n + j];
    part[i * nx + tx] = s;
  }
}

__global__ void weighted_mean_rows(const double2 *A, double *mean, double *wsum, unsigned rows, unsigned n) {
  unsigned i = blockIdx.x * blockDim.y + threadIdx.y;
  if (i >= rows) return;
  double sv = 0.0, sw = 0.0;
  unsigned j = 0;
  do {
    double2 p = A[i * n + j];
    sv += p.x * p.y;
    sw += p.y;
  } while (++j < n);
  mean[i] = sv / sw;
  wsum[i] = sw;
}

__global__ void embed_dot_q8(const char4 *E, const int *cand, const char4 *q, int *score, int m, int d4) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < m) {
    int r = cand[i];
    int s = 0;
    for (int j = 0; j < d4; j++) {
      char4 e = E[r * d4 + j], b = q[j];
      s += e.x * b.x + e.y * b.y + e.z * b.z + e.w * b.w;
    }
    score[i] = s;
  }
}

static bool checkDoubles(const char *what, const double *got, const double *want, size_t n, double rtol,
                         double floor) {
  size_t bad = 0, first = 0;
  for (size_t i = 0; i < n; ++i)
    if (!closeEnough(got[i], want[i], rtol, floor)) {
      if (!bad) first = i;
      ++bad;
    }
  if (bad)
    std::fprintf(stderr, "%s: %zu of %zu differ; first at %zu: got %.17g want %.17g\n", what, bad, n, first,
                 got[first], want[first]);
  return bad == 0;
}

static signed char q8(uint32_t h) {
  int v = 1 + int((h >> 8) % 127u);  // 1..127
  return (signed char)((h & 1u) ? -v : v);
}

int main(int argc, char **argv) {
  const int r1 = argInt(argc, argv, 1, 16384);
  const int n1 = argInt(argc, argv, 2, 2048);  // >= 32
  const int r2 = argInt(argc, argv, 3, 8192);
  const int n2 = argInt(argc, argv, 4, 1024);  // >= 1
  const int t3 = argInt(argc, argv, 5, 65536);
  const int m3 = argInt(argc, argv, 6, 131072);
  const int d3 = argInt(argc, argv, 7, 1024);  // a multiple of 4
  const int d4 = d3 / 4;
  const dim3 blk1(32, 8), blk2(1, 256);

  // (1)
  const size_t e1 = size_t(r1) * n1;
  std::vector<float> A1(e1);
  fillFloats(A1, 15401);

  // (2) (value, weight): values +-0.25..1.25 around a per-row level 2..11, weights in [0.25, 1.25).
  const size_t e2 = size_t(r2) * n2;
  std::vector<double2> A2(e2);
  for (size_t i = 0; i < size_t(r2); i++) {
    double level = 2.0 + 9.0 * (hashAt(15402, i) >> 8) * (1.0 / 16777216.0);
    for (size_t j = 0; j < size_t(n2); j++) {
      size_t k = i * n2 + j;
      uint32_t h = hashAt(15403, k);
      double v = 0.25 + (h >> 8) * (1.0 / 16777216.0);
      A2[k] = make_double2(level + ((h & 1u) ? -v : v), 0.25 + (hashAt(15404, k) >> 8) * (1.0 / 16777216.0));
    }
  }

  // (3) int8 table, query, candidates.
  const size_t e3 = size_t(t3) * d4;
  std::vector<char4> E(e3), q(d4);
  for (size_t k = 0; k < e3; k++)
    E[k] = make_char4(q8(hashAt(15405, 4 * k)), q8(hashAt(15405, 4 * k + 1)), q8(hashAt(15405, 4 * k + 2)),
                      q8(hashAt(15405, 4 * k + 3)));
  for (size_t k = 0; k < size_t(d4); k++)
    q[k] = make_char4(q8(hashAt(15406, 4 * k)), q8(hashAt(15406, 4 * k + 1)), q8(hashAt(15406, 4 * k + 2)),
                      q8(hashAt(15406, 4 * k + 3)));
  std::vector<int> cand(m3);
  for (size_t i = 0; i < size_t(m3); i++) cand[i] = int(hashAt(15407, i) % uint32_t(t3));

  float *d_A1 = toDevice(A1), *d_part;
  CHECK(cudaMalloc(&d_part, size_t(r1) * blk1.x * sizeof(float)));
  double2 *d_A2 = toDevice(A2);
  double *d_mean, *d_wsum;
  CHECK(cudaMalloc(&d_mean, r2 * sizeof(double)));
  CHECK(cudaMalloc(&d_wsum, r2 * sizeof(double)));
  char4 *d_E = toDevice(E), *d_q = toDevice(q);
  int *d_cand = toDevice(cand), *d_score;
  CHECK(cudaMalloc(&d_score, m3 * sizeof(int)));
  CHECK(cudaDeviceSynchronize());

  GpuTimer t;
  t.start();
  slice_sumsq<<<blocksFor(r1, blk1.y), blk1>>>(d_A1, d_part, r1, n1);
  CHECK_LAUNCH();
  weighted_mean_rows<<<blocksFor(r2, blk2.y), blk2>>>(d_A2, d_mean, d_wsum, unsigned(r2), unsigned(n2));
  CHECK_LAUNCH();
  embed_dot_q8<<<blocksFor(m3, 512), 512>>>(d_E, d_cand, d_q, d_score, m3, d4);
  CHECK_LAUNCH();
  float ms = t.stop();
  std::vector<float> gpart = fromDevice(d_part, size_t(r1) * blk1.x);
  std::vector<double> gmean = fromDevice(d_mean, r2), gwsum = fromDevice(d_wsum, r2);
  std::vector<int> gscore = fromDevice(d_score, m3);

  // (1)
  const int nx = int(blk1.x), w = n1 / nx;
  std::vector<float> wpart(size_t(r1) * nx);
  for (size_t i = 0; i < size_t(r1); i++)
    for (int tx = 0; tx < nx; tx++) {
      int j0 = tx * w, j1 = tx == nx - 1 ? n1 : j0 + w;
      double s = 0;
      for (int j = j0; j < j1; j++) s += double(A1[i * n1 + j]) * A1[i * n1 + j];
      wpart[i * nx + tx] = float(s);
    }
  bool ok = checkFloats("slice_sumsq", gpart.data(), wpart.data(), wpart.size(), 1e-3);

  // (2)
  std::vector<double> wmean(r2), wwsum(r2);
  for (size_t i = 0; i < size_t(r2); i++) {
    double sv = 0, sw = 0;
    for (size_t j = 0; j < size_t(n2); j++) {
      sv += A2[i * n2 + j].x * A2[i * n2 + j].y;
      sw += A2[i * n2 + j].y;
    }
    wmean[i] = sv / sw;
    wwsum[i] = sw;
  }
  ok = checkDoubles("weighted_mean_rows mean", gmean.data(), wmean.data(), r2, 1e-9, 1.0) && ok;
  ok = checkDoubles("weighted_mean_rows wsum", gwsum.data(), wwsum.data(), r2, 1e-9, 1.0) && ok;

  // (3)
  std::vector<int> wscore(m3);
  for (size_t i = 0; i < size_t(m3); i++) {
    const char4 *e = &E[size_t(cand[i]) * d4];
    int s = 0;
    for (int j = 0; j < d4; j++) s += e[j].x * q[j].x + e[j].y * q[j].y + e[j].z * q[j].z + e[j].w * q[j].w;
    wscore[i] = s;
  }
  ok = checkExact("embed_dot_q8", gscore.data(), wscore.data(), m3) && ok;

  CHECK(cudaFree(d_A1));
  CHECK(cudaFree(d_part));
  CHECK(cudaFree(d_A2));
  CHECK(cudaFree(d_mean));
  CHECK(cudaFree(d_wsum));
  CHECK(cudaFree(d_E));
  CHECK(cudaFree(d_q));
  CHECK(cudaFree(d_cand));
  CHECK(cudaFree(d_score));
  return finish(ms, ok);
}
