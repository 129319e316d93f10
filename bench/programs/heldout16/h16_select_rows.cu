// h16_select_rows: selection over rows of scores, a thread per row, the
// winners kept in registers. (1) argmax_rows, greedy decoding over int16
// (fixed-point) logits: `short`, `int64_t` i and j, the row length at run
// time, `if (S[i*n + j] > m) { m = ...; am = j; }` (the first maximum),
// writing the index (`int`) and the value (`short`), 16384 x 4096 scores
// of +-1..30000 (128 MB), 128-thread blocks, `if (i < rows)`; (2)
// top2_margin, the confidence margin of a classifier: float
// probabilities-like scores 0.25..1.25, the row length a `#define` (T2_N
// 2048), `unsigned` i and j in a `while (j < T2_N)` loop, loads through
// `const float *__restrict__` and `__ldg`, best / second best with their
// indices (`if (v > b1) {...} else if (v > b2) {...}`), writing an int2 of
// the two indices and `margin = b1 - b2`, 16384 rows (128 MB), 64-thread
// blocks, early `return`; (3) topk_rows<K>, a top-k (K = 4, a template
// parameter) over `int` scores: `int` i, a pointer walk
// `for (const int *p = row; p < row + n; ++p)`, the K values and indices in
// register arrays (a candidate replaces the last and bubbles up through a
// `#pragma unroll` loop of compare-and-swaps; ties keep the earlier index),
// 65536 x 512 scores of +-1..1000000 (128 MB), 1024-thread blocks,
// `if (i < rows)`. Sizes: r1 n1 r2 r3 n3 (argv; T2_N and K are
// compile-time). Timed: the 3 launches. Checked: all exactly (indices,
// values, and the float margins, a single subtraction on both sides).
#include "../common.h"
#include <climits>

#define T2_N 2048
#define TOPK 4

__global__ void argmax_rows(const short *S, int *idx, short *best, int64_t rows, int64_t n) {
  int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x;
  if (i < rows) {
    short m = S[i * n];
    int64_t am = 0;
    for (int64_t j = 1; j < n; j++) {
      if (S[i * n + j] > m) {
        m = S[i * n + j];
        am = j;
      }
    }
    idx[i] = int(am);
    best[i] = m;
  }
}

__global__ void top2_margin(const float *__restrict__ P, int2 *__restrict__ top, float *__restrict__ margin,
                            unsigned rows) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= rows) return;
  float b1 = -INFINITY, b2 = -INFINITY;
  int i1 = -1, i2 = -1;
  unsigned j = 0;
  while (j < T2_N) {
    float v = __ldg(&P[i * T2_N + j]);
    if (v > b1) {
      b2 = b1;
      i2 = i1;
      b1 = v;
      i1 = int(j);
    } else if (v > b2) {
      b2 = v;
      i2 = int(j);
    }
    ++j;
  }
  top[i] = make_int2(i1, i2);
  margin[i] = b1 - b2;
}

template <int K>
__global__ void topk_rows(const int *S, int *topv, int *topi, int rows, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < rows) {
    int val[K], idx[K];
#pragma unroll
    for (int k = 0; k < K; k++) {
      val[k] = INT_MIN;
      idx[k] = -1;
    }
    const int *row = S + (size_t)i * n;
    for (const int *p = row; p < row + n; ++p) {
      int v = *p;
      if (v > val[K - 1]) {
        val[K - 1] = v;
        idx[K - 1] = int(p - row);
#pragma unroll
        for (int k = K - 1; k > 0; --k) {
          if (val[k] > val[k - 1]) {
            int tv = val[k];
            val[k] = val[k - 1];
            val[k - 1] = tv;
            int ti = idx[k];
            idx[k] = idx[k - 1];
            idx[k - 1] = ti;
          }
        }
      }
    }
#pragma unroll
    for (int k = 0; k < K; k++) {
      topv[i * K + k] = val[k];
      topi[i * K + k] = idx[k];
    }
  }
}

int main(int argc, char **argv) {
  const int r1 = argInt(argc, argv, 1, 16384);
  const int n1 = argInt(argc, argv, 2, 4096);
  const int r2 = argInt(argc, argv, 3, 16384);
  const int r3 = argInt(argc, argv, 4, 65536);
  const int n3 = argInt(argc, argv, 5, 512);

  // (1) int16 logits +-1..30000.
  const size_t e1 = size_t(r1) * n1;
  std::vector<short> s1(e1);
  for (size_t k = 0; k < e1; k++) {
    uint32_t h = hashAt(16201, k);
    int v = 1 + int((h >> 1) % 30000u);
    s1[k] = short((h & 1u) ? -v : v);
  }

  // (2) scores 0.25..1.25.
  const size_t e2 = size_t(r2) * T2_N;
  std::vector<float> p2(e2);
  fillFloats(p2, 16202);

  // (3) int scores +-1..1000000.
  const size_t e3 = size_t(r3) * n3;
  std::vector<int> s3(e3);
  for (size_t k = 0; k < e3; k++) {
    uint32_t h = hashAt(16203, k);
    int v = 1 + int((h >> 1) % 1000000u);
    s3[k] = (h & 1u) ? -v : v;
  }

  short *d_s1 = toDevice(s1), *d_best1;
  int *d_idx1;
  CHECK(cudaMalloc(&d_idx1, size_t(r1) * sizeof(int)));
  CHECK(cudaMalloc(&d_best1, size_t(r1) * sizeof(short)));
  float *d_p2 = toDevice(p2), *d_margin2;
  int2 *d_top2;
  CHECK(cudaMalloc(&d_top2, size_t(r2) * sizeof(int2)));
  CHECK(cudaMalloc(&d_margin2, size_t(r2) * sizeof(float)));
  int *d_s3 = toDevice(s3), *d_topv3, *d_topi3;
  CHECK(cudaMalloc(&d_topv3, size_t(r3) * TOPK * sizeof(int)));
  CHECK(cudaMalloc(&d_topi3, size_t(r3) * TOPK * sizeof(int)));
  CHECK(cudaDeviceSynchronize());

  GpuTimer t;
  t.start();
  argmax_rows<<<blocksFor(r1, 128), 128>>>(d_s1, d_idx1, d_best1, int64_t(r1), int64_t(n1));
  CHECK_LAUNCH();
  top2_margin<<<blocksFor(r2, 64), 64>>>(d_p2, d_top2, d_margin2, unsigned(r2));
  CHECK_LAUNCH();
  topk_rows<TOPK><<<blocksFor(r3, 1024), 1024>>>(d_s3, d_topv3, d_topi3, r3, n3);
  CHECK_LAUNCH();
  float ms = t.stop();
  std::vector<int> gidx1 = fromDevice(d_idx1, size_t(r1));
  std::vector<short> gbest1 = fromDevice(d_best1, size_t(r1));
  std::vector<int2> gtop2 = fromDevice(d_top2, size_t(r2));
  std::vector<float> gmargin2 = fromDevice(d_margin2, size_t(r2));
  std::vector<int> gtopv3 = fromDevice(d_topv3, size_t(r3) * TOPK);
  std::vector<int> gtopi3 = fromDevice(d_topi3, size_t(r3) * TOPK);

  // (1)
  std::vector<int> widx1(r1);
  std::vector<short> wbest1(r1);
  for (size_t i = 0; i < size_t(r1); i++) {
    const short *row = &s1[i * n1];
    int am = 0;
    for (int j = 1; j < n1; j++)
      if (row[j] > row[am]) am = j;
    widx1[i] = am;
    wbest1[i] = row[am];
  }
  bool ok = checkExact("argmax_rows idx", gidx1.data(), widx1.data(), size_t(r1));
  ok = checkExact("argmax_rows best", gbest1.data(), wbest1.data(), size_t(r1)) && ok;

  // (2): the two largest (ties: the earlier index first), by a different route (index sort).
  std::vector<int> wi1(r2), wi2(r2), gi1(r2), gi2(r2);
  std::vector<float> wmargin2(r2);
  for (size_t i = 0; i < size_t(r2); i++) {
    const float *row = &p2[i * T2_N];
    int a = -1, b = -1;
    for (int j = 0; j < T2_N; j++) {
      if (a < 0 || row[j] > row[a]) b = a, a = j;
      else if (b < 0 || row[j] > row[b]) b = j;
    }
    wi1[i] = a;
    wi2[i] = b;
    wmargin2[i] = row[a] - row[b];
    gi1[i] = gtop2[i].x;
    gi2[i] = gtop2[i].y;
  }
  ok = checkExact("top2_margin i1", gi1.data(), wi1.data(), size_t(r2)) && ok;
  ok = checkExact("top2_margin i2", gi2.data(), wi2.data(), size_t(r2)) && ok;
  ok = checkExact("top2_margin margin", gmargin2.data(), wmargin2.data(), size_t(r2)) && ok;

  // (3): a stable partial sort of the indices by value, descending.
  std::vector<int> wtopv3(size_t(r3) * TOPK), wtopi3(size_t(r3) * TOPK);
  for (size_t i = 0; i < size_t(r3); i++) {
    const int *row = &s3[i * n3];
    int sel[TOPK];
    int cnt = 0;
    for (int j = 0; j < n3; j++) {
      int pos = cnt < TOPK ? cnt++ : TOPK;
      while (pos > 0 && row[j] > row[sel[pos - 1]]) {
        if (pos < TOPK) sel[pos] = sel[pos - 1];
        --pos;
      }
      if (pos < TOPK) sel[pos] = j;
    }
    for (int k = 0; k < TOPK; k++) {
      wtopv3[i * TOPK + k] = k < cnt ? row[sel[k]] : INT_MIN;
      wtopi3[i * TOPK + k] = k < cnt ? sel[k] : -1;
    }
  }
  ok = checkExact("topk_rows values", gtopv3.data(), wtopv3.data(), size_t(r3) * TOPK) && ok;
  ok = checkExact("topk_rows indices", gtopi3.data(), wtopi3.data(), size_t(r3) * TOPK) && ok;

  CHECK(cudaFree(d_s1));
  CHECK(cudaFree(d_idx1));
  CHECK(cudaFree(d_best1));
  CHECK(cudaFree(d_p2));
  CHECK(cudaFree(d_top2));
  CHECK(cudaFree(d_margin2));
  CHECK(cudaFree(d_s3));
  CHECK(cudaFree(d_topv3));
  CHECK(cudaFree(d_topi3));
  return finish(ms, ok);
}
