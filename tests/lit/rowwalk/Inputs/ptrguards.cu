// Pointer walks whose body branches, a thread per row: `for (const int *p =
// row; p < row + n; ++p) { if (...) {...} }`. nvcc keeps such loops rolled
// (one element an iteration, `setp.lt.u64 p, end` after the update) and the
// branch makes the loop one of several blocks; heldout16's topk_rows. The
// staged clone's per-lane form on runGuarded's small-step retry (thirty-
// fifth session; before it: "the loop's exit test is not 'iv != bound'
// (setp.lt.u64)").
// tests/lit/rowwalk/ptrguards.test, ptrguards-emu.test; gpu-diff "rowwalk
// pointer guards". nvcc -arch=sm_90 -O3 -ptx (nvcc 13.0).
#include <climits>

// The K largest values of a row and their indices (ties keep the earlier),
// kept sorted in registers: a candidate bubbles down through them.
template <int K>
__device__ void topk(const int *S, int *topv, int *topi, int rows, int n) {
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
        int c = int(p - row);
#pragma unroll
        for (int k = 0; k < K; k++)
          if (v > val[k]) {
            int t = val[k];
            val[k] = v;
            v = t;
            int u = idx[k];
            idx[k] = c;
            c = u;
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
extern "C" __global__ void ptr_top2_i32(const int *S, int *topv, int *topi, int rows, int n) {
  topk<2>(S, topv, topi, rows, n);
}
extern "C" __global__ void ptr_top4_i32(const int *S, int *topv, int *topi, int rows, int n) {
  topk<4>(S, topv, topi, rows, n);
}

// A float row, a guarded division (a branch nvcc does not predicate).
extern "C" __global__ void ptr_skipdiv_f32(const float *a, float *out, int rows, int n, float d) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= rows) return;
  const float *p = a + (size_t)i * n, *e = p + n;
  float s = 0.f;
  for (; p < e; ++p) {
    float v = *p;
    if (v > 1.25f) s += sqrtf(v) / (v + d);
  }
  out[i] = s;
}

// `while (p < e)` over doubles with `long` sizes, a running maximum that
// rescales a sum.
extern "C" __global__ void ptr_while_f64(const double *a, double *out, long rows, long n) {
  long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
  if (i >= rows) return;
  const double *p = a + i * n, *e = p + n;
  double s = 0, m = -1e300;
  while (p < e) {
    double v = *p++;
    if (v > m) {
      m = v;
      s = s * 0.5 + v * v;
    }
  }
  out[i] = s + m;
}

// `unsigned` sizes: a count and an order-sensitive hash of the elements
// that match a key.
extern "C" __global__ void ptr_match_u32(const unsigned *a, unsigned *out, unsigned rows, unsigned n, unsigned key) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= rows) return;
  const unsigned *row = a + (size_t)i * n;
  unsigned c = 0, h = 0;
  for (const unsigned *p = row; p < row + n; p++) {
    unsigned v = *p;
    if ((v & 15u) == key) {
      c++;
      h = h * 31u + v / 7u;
    }
  }
  out[2 * i] = c;
  out[2 * i + 1] = h;
}

// A triangle walked by pointer: row i's first i + 1 elements, a guarded
// division. bound - start holds %tid: the per-lane form, no unaligned clone.
extern "C" __global__ void ptr_tri_f32(const float *a, float *out, int rows, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= rows) return;
  const float *row = a + (size_t)i * n, *e = row + i + 1;
  float s = 0.f;
  for (const float *p = row; p < e; ++p) {
    float v = *p;
    if (v > 1.25f) s += sqrtf(v) / (v + 3.0f);
  }
  out[i] = s;
}

// No branch: one block, the single-block small-step retry (planStagedLoops);
// its trip count the same for the warp's lanes: the uniform form.
extern "C" __global__ void ptr_sum_f32(const float *a, float *out, int rows, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= rows) return;
  const float *p = a + (size_t)i * n, *e = p + n;
  float s = 0.f;
  for (; p < e; ++p) s += *p;
  out[i] = s;
}

// Bytes by pointer from the row's second element (heldout16's run_stats):
// runs of equal labels, counted, and the longest. One byte an iteration
// (nvcc keeps it rolled: the small-step retry's 256 copies a tile); its
// pieces start 1 byte past a 16-byte boundary wherever the rows are
// aligned: the unaligned clone only.
extern "C" __global__ void ptr_runs_u8(const unsigned char *seg, int *nruns, int *longest, long long rows,
                                       long long n) {
  long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (i >= rows) return;
  const unsigned char *p = seg + i * n, *e = p + n;
  unsigned char prev = *p++;
  int runs = 1, cur = 1, best = 1;
  while (p < e) {
    unsigned char v = *p++;
    if (v != prev) {
      runs++;
      cur = 1;
      prev = v;
    } else {
      cur++;
    }
    if (cur > best) best = cur;
  }
  nruns[i] = runs;
  longest[i] = best;
}

// A `long` counter nvcc keeps rolled (`setp.lt.s64` after the update): its
// bound - start (n - 2) holds no %tid, so the uniform form, with the
// no-wrap range checks of a signed 64-bit counter.
extern "C" __global__ void long_from2_i32(const int *a, int *out, long rows, long n) {
  long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
  if (i >= rows) return;
  const int *row = a + i * n;
  int s = 0;
#pragma unroll 1
  for (long j = 2; j < n; j++) {
    int v = row[j];
    if (v > 0) s += v;
    else s ^= v;
  }
  out[i] = s;
}
