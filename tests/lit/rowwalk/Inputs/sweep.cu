// A coverage sweep of the rowwalk pass (issue 29): row walks written the
// way users write them, none of them copied from the other inputs here.
// tests/lit/rowwalk/sweep.test records, per kernel, the clones -O2 makes or
// the remark that refuses them (the table is in docs/PASSES.md's rowwalk
// section). Compiled with
//   nvcc -arch=sm_90 -O3 -ptx sweep.cu -o sweep.ptx
// (nvcc 13.0).
#include <cuda_fp16.h>

#define N 2048

// --- Matrix-vector products, index types ---------------------------------

extern "C" __global__ void mv_int(const float *A, const float *x, float *y, int m, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < m) {
    float s = 0.0f;
    for (int j = 0; j < n; j++) s += A[i * n + j] * x[j];
    y[i] = s;
  }
}

extern "C" __global__ void mv_unsigned(const float *A, const float *x, float *y, unsigned m, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < m) {
    float s = 0.0f;
    for (unsigned j = 0; j < n; j++) s += A[i * n + j] * x[j];
    y[i] = s;
  }
}

extern "C" __global__ void mv_size_t(const float *A, const float *x, float *y, size_t m, size_t n) {
  size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < m) {
    float s = 0.0f;
    for (size_t j = 0; j < n; j++) s += A[i * n + j] * x[j];
    y[i] = s;
  }
}

extern "C" __global__ void mv_long(const float *A, const float *x, float *y, long m, long n) {
  long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < m) {
    float s = 0.0f;
    for (long j = 0; j < n; j++) s += A[i * n + j] * x[j];
    y[i] = s;
  }
}

// Row pointer precomputed.
extern "C" __global__ void mv_rowptr(const float *A, const float *x, float *y, int m, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < m) {
    const float *row = A + (size_t)i * n;
    float s = 0.0f;
    for (int j = 0; j < n; j++) s += row[j] * x[j];
    y[i] = s;
  }
}

// Counting down.
extern "C" __global__ void mv_down(const float *A, const float *x, float *y, int m, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < m) {
    float s = 0.0f;
    for (int j = n - 1; j >= 0; j--) s += A[(size_t)i * n + j] * x[j];
    y[i] = s;
  }
}

// Counting down, int (the lanes clone would not mind the order).
extern "C" __global__ void rowsum_down_int(const int *A, int *y, int m, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < m) {
    int s = 0;
    for (int j = n - 1; j >= 0; j--) s += A[(size_t)i * n + j];
    y[i] = s;
  }
}

// A while loop with a pointer bumped.
extern "C" __global__ void mv_while(const float *A, const float *x, float *y, int m, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= m) return;
  const float *p = A + (size_t)i * n, *e = p + n;
  const float *q = x;
  float s = 0.0f;
  while (p != e) s += *p++ * *q++;
  y[i] = s;
}

// A #define'd row length (nvcc unrolls by 4 with a known trip count).
extern "C" __global__ void mv_define(const float *A, const float *x, float *y, int m) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < m) {
    float s = 0.0f;
    for (int j = 0; j < N; j++) s += A[(size_t)i * N + j] * x[j];
    y[i] = s;
  }
}

// A template constant.
template <int C>
__device__ void mv_tmpl_body(const float *A, const float *x, float *y, int m) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < m) {
    float s = 0.0f;
    for (int j = 0; j < C; j++) s += A[(size_t)i * C + j] * x[j];
    y[i] = s;
  }
}
extern "C" __global__ void mv_tmpl1024(const float *A, const float *x, float *y, int m) {
  mv_tmpl_body<1024>(A, x, y, m);
}

// A #define'd int row (64 bytes per iteration: the staged clone only).
extern "C" __global__ void rowsum_define_int(const int *A, int *y, int m) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < m) {
    int s = 0;
    for (int j = 0; j < N; j++) s += A[(size_t)i * N + j];
    y[i] = s;
  }
}

// A short #define'd row (192 floats): under the rows the staged clone was
// measured on, refused.
#define NS 192
extern "C" __global__ void mv_define_short(const float *A, const float *x, float *y, int m) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < m) {
    float s = 0.0f;
    for (int j = 0; j < NS; j++) s += A[(size_t)i * NS + j] * x[j];
    y[i] = s;
  }
}

// #pragma unroll 4 on a runtime row length.
extern "C" __global__ void mv_unroll4(const float *A, const float *x, float *y, int m, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < m) {
    float s = 0.0f;
#pragma unroll 4
    for (int j = 0; j < n; j++) s += A[(size_t)i * n + j] * x[j];
    y[i] = s;
  }
}

// No unrolling at all.
extern "C" __global__ void mv_unroll1(const float *A, const float *x, float *y, int m, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < m) {
    float s = 0.0f;
#pragma unroll 1
    for (int j = 0; j < n; j++) s += A[(size_t)i * n + j] * x[j];
    y[i] = s;
  }
}

// Accumulating in memory: y[i] += ... (y may alias A or x).
extern "C" __global__ void mv_inmem(const float *A, const float *x, float *y, int m, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < m) {
    y[i] = 0.0f;
    for (int j = 0; j < n; j++) y[i] += A[(size_t)i * n + j] * x[j];
  }
}

// alpha/beta epilogue (gemv).
extern "C" __global__ void gemv_ab(const float *A, const float *x, float *y, float alpha, float beta, int m, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < m) {
    float s = 0.0f;
    for (int j = 0; j < n; j++) s += A[(size_t)i * n + j] * x[j];
    y[i] = alpha * s + beta * y[i];
  }
}

// --- PolyBench-like ------------------------------------------------------

// gesummv with restrict: two matrices, two register accumulators.
extern "C" __global__ void gesummv_r(const float *__restrict__ A, const float *__restrict__ B,
                                     const float *__restrict__ x, float *__restrict__ y,
                                     float alpha, float beta, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float t = 0.0f, u = 0.0f;
    for (int j = 0; j < n; j++) {
      t += A[(size_t)i * n + j] * x[j];
      u += B[(size_t)i * n + j] * x[j];
    }
    y[i] = alpha * t + beta * u;
  }
}

// mvt's first kernel: x1[i] += A[i][j] * y1[j] (row walk, accumulator in memory).
extern "C" __global__ void mvt_x1(const float *A, float *x1, const float *y1, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    for (int j = 0; j < n; j++) x1[i] += A[(size_t)i * n + j] * y1[j];
}

// mvt's second kernel: x2[i] += A[j][i] * y2[j]: a column walk (coalesced).
extern "C" __global__ void mvt_x2_col(const float *A, float *x2, const float *y2, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    for (int j = 0; j < n; j++) x2[i] += A[(size_t)j * n + i] * y2[j];
}

// bicg's q = A p (row walk).
extern "C" __global__ void bicg_q(const float *A, const float *p, float *q, int nx, int ny) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < nx) {
    q[i] = 0.0f;
    for (int j = 0; j < ny; j++) q[i] += A[(size_t)i * ny + j] * p[j];
  }
}

// atax's first kernel: tmp = A x, in double.
extern "C" __global__ void atax_tmp_f64(const double *A, const double *x, double *tmp, int nx, int ny) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < nx) {
    double s = 0.0;
    for (int j = 0; j < ny; j++) s += A[(size_t)i * ny + j] * x[j];
    tmp[i] = s;
  }
}

// --- Row reductions --------------------------------------------------------

extern "C" __global__ void rowsum_int(const int *A, int *y, int m, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < m) {
    int s = 0;
    for (int j = 0; j < n; j++) s += A[(size_t)i * n + j];
    y[i] = s;
  }
}

extern "C" __global__ void rownorm(const float *A, float *y, int m, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < m) {
    float s = 0.0f;
    for (int j = 0; j < n; j++) {
      float v = A[(size_t)i * n + j];
      s += v * v;
    }
    y[i] = sqrtf(s);
  }
}

extern "C" __global__ void rowmax_fmaxf(const float *A, float *y, int m, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < m) {
    float s = -INFINITY;
    for (int j = 0; j < n; j++) s = fmaxf(s, A[(size_t)i * n + j]);
    y[i] = s;
  }
}

extern "C" __global__ void rowmax_branch(const int *A, int *y, int m, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < m) {
    int s = A[(size_t)i * n];
    for (int j = 1; j < n; j++) {
      int v = A[(size_t)i * n + j];
      if (v > s) s = v;
    }
    y[i] = s;
  }
}

// Short-element rows.
extern "C" __global__ void rowsum_u8(const unsigned char *A, unsigned *y, int m, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < m) {
    unsigned s = 0;
    for (int j = 0; j < n; j++) s += A[(size_t)i * n + j];
    y[i] = s;
  }
}

extern "C" __global__ void rowsum_s16(const short *A, int *y, int m, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < m) {
    int s = 0;
    for (int j = 0; j < n; j++) s += A[(size_t)i * n + j];
    y[i] = s;
  }
}

extern "C" __global__ void rowsum_half(const __half *A, float *y, int m, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < m) {
    float s = 0.0f;
    for (int j = 0; j < n; j++) s += __half2float(A[(size_t)i * n + j]);
    y[i] = s;
  }
}

// --- Guards in the loop ----------------------------------------------------

extern "C" __global__ void mv_skipzero(const float *A, const float *x, float *y, int m, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < m) {
    float s = 0.0f;
    for (int j = 0; j < n; j++) {
      float a = A[(size_t)i * n + j];
      if (a == 0.0f) continue;
      s += a * x[j];
    }
    y[i] = s;
  }
}

extern "C" __global__ void rowsum_break(const float *A, float *y, int m, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < m) {
    float s = 0.0f;
    for (int j = 0; j < n; j++) {
      float a = A[(size_t)i * n + j];
      if (a < 0.0f) break;
      s += a;
    }
    y[i] = s;
  }
}

// --- Thread-to-row mappings ------------------------------------------------

// Early return instead of a guard around the loop.
extern "C" __global__ void mv_return(const float *A, const float *x, float *y, int m, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= m) return;
  float s = 0.0f;
  for (int j = 0; j < n; j++) s += A[(size_t)i * n + j] * x[j];
  y[i] = s;
}

// A 2-D grid whose row is blockIdx.y * blockDim.x + threadIdx.x... here
// the row comes from the y dimension (block (1, 256)).
extern "C" __global__ void mv_grid2d_y(const float *A, const float *x, float *y, int m, int n) {
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < m) {
    float s = 0.0f;
    for (int j = 0; j < n; j++) s += A[(size_t)i * n + j] * x[j];
    y[i] = s;
  }
}

// A 2-D grid of 1 x (m / 256) blocks: the row is blockIdx.y * blockDim.x + threadIdx.x.
extern "C" __global__ void mv_grid2d_blocky(const float *A, const float *x, float *y, int m, int n) {
  int i = blockIdx.y * blockDim.x + threadIdx.x;
  if (i < m) {
    float s = 0.0f;
    for (int j = 0; j < n; j++) s += A[(size_t)i * n + j] * x[j];
    y[i] = s;
  }
}

// Batched: blockIdx.y picks a matrix, the x dimension the row.
extern "C" __global__ void mv_batched(const float *A, const float *x, float *y, int m, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int b = blockIdx.y;
  if (i < m) {
    const float *Ab = A + (size_t)b * m * n;
    float s = 0.0f;
    for (int j = 0; j < n; j++) s += Ab[(size_t)i * n + j] * x[(size_t)b * n + j];
    y[(size_t)b * m + i] = s;
  }
}

// Grid-stride loop over rows.
extern "C" __global__ void mv_gridstride(const float *A, const float *x, float *y, int m, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < m; i += gridDim.x * blockDim.x) {
    float s = 0.0f;
    for (int j = 0; j < n; j++) s += A[(size_t)i * n + j] * x[j];
    y[i] = s;
  }
}

// --- Triangular ------------------------------------------------------------

// Lower-triangular product, j <= i.
extern "C" __global__ void trmv_le(const float *L, const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float s = 0.0f;
    for (int j = 0; j <= i; j++) s += L[(size_t)i * n + j] * x[j];
    y[i] = s;
  }
}

// Strictly lower, j < i (the off-diagonal part of a forward substitution).
extern "C" __global__ void trmv_lt(const float *L, const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float s = 0.0f;
    for (int j = 0; j < i; j++) s += L[(size_t)i * n + j] * x[j];
    y[i] = (x[i] - s) / L[(size_t)i * n + i];
  }
}

// Upper, j >= i, int.
extern "C" __global__ void trmv_ge_int(const int *U, const int *x, int *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int s = 0;
    for (int j = i; j < n; j++) s += U[(size_t)i * n + j] * x[j];
    y[i] = s;
  }
}

// --- CSR -------------------------------------------------------------------

extern "C" __global__ void spmv_csr_f32(const int *rp, const int *ci, const float *v, const float *x, float *y, int m) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < m) {
    float s = 0.0f;
    for (int k = rp[i]; k < rp[i + 1]; k++) s += v[k] * x[ci[k]];
    y[i] = s;
  }
}

extern "C" __global__ void spmv_csr_int(const int *rp, const int *ci, const int *v, const int *x, int *y, int m) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < m) {
    int s = 0;
    for (int k = rp[i]; k < rp[i + 1]; k++) s += v[k] * x[ci[k]];
    y[i] = s;
  }
}

// --- Lookalikes that must be refused or left alone ---------------------------

// The store aliases the matrix: A[i][0] is written in every iteration.
extern "C" __global__ void alias_store(float *A, const float *x, int m, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < m)
    for (int j = 1; j < n; j++) A[(size_t)i * n] += A[(size_t)i * n + j] * x[j];
}

// Row scaled in place (the loop writes its own row).
extern "C" __global__ void scale_inplace(float *A, const float *s, int m, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < m)
    for (int j = 0; j < n; j++) A[(size_t)i * n + j] *= s[i];
}

// A column walk: already coalesced.
extern "C" __global__ void colsum(const float *A, float *y, int m, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float s = 0.0f;
    for (int j = 0; j < m; j++) s += A[(size_t)j * n + i];
    y[i] = s;
  }
}

// A stride that is not constant: the element walked to depends on data.
extern "C" __global__ void varstride(const float *A, const int *step, float *y, int m, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < m) {
    float s = 0.0f;
    for (int j = 0; j < n; j += step[j]) s += A[(size_t)i * n + j];
    y[i] = s;
  }
}

// A stride given as a parameter (strided row walk).
extern "C" __global__ void paramstride(const float *A, float *y, int m, int n, int st) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < m) {
    float s = 0.0f;
    for (int j = 0; j < n; j += st) s += A[(size_t)i * n + j];
    y[i] = s;
  }
}
