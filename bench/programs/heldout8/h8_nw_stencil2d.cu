// h8_nw_stencil2d: (1) Rodinia needleman-wunsch without the shared-memory
// tiles: one launch per anti-diagonal d = 2 .. 2n (8191 launches for n =
// 4096), thread per cell (i, d - i) of the diagonal, `int` indices, cols =
// n + 1, `score[idx] = max(score[idx - cols - 1] + ref[idx], score[idx -
// cols] - PENALTY, score[idx - 1] - PENALTY)` (neighbours written by the two
// previous launches; reference and score matrices 67 MB each); (2) the row
// maxima of the final score matrix, thread per row, `unsigned` indices,
// `score[r * cols + j]`, a branch `if (v > m) m = v`; (3) SHOC stencil2d's
// 9-point stencil written thread per row: each thread walks its row j = 0 ..
// cols-1 with the border test inside the loop (border cells copied), `int`
// indices, `__restrict__`, runtime weights; 2 iterations ping-pong on
// rows x cols = 4000 x 4500 floats (72 MB). All launches `<<<>>>` on one
// created stream. Timed: every launch (the stream synchronized before the
// stop event). Checked: (1), (2) exactly (integer); (3) exactly (fmaf in the
// PTX's order, plain adds for the neighbour sums).
#include "../common.h"

#define PENALTY 10

__global__ void nw_diagonal(const int *ref, int *score, int n, int d) {
  int cols = n + 1;
  int i = max(1, d - n) + blockIdx.x * blockDim.x + threadIdx.x;
  int j = d - i;
  if (i <= n && j >= 1) {
    int idx = i * cols + j;
    int a = score[idx - cols - 1] + ref[idx];
    int b = score[idx - cols] - PENALTY;
    int c = score[idx - 1] - PENALTY;
    int m = a > b ? a : b;
    score[idx] = m > c ? m : c;
  }
}

__global__ void row_max(const int *score, int *out, unsigned rows, unsigned cols) {
  unsigned r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < rows) {
    int m = score[r * cols];
    for (unsigned j = 1; j < cols; j++) {
      int v = score[r * cols + j];
      if (v > m) m = v;
    }
    out[r] = m;
  }
}

__global__ void stencil2d_rows(const float *__restrict__ in, float *__restrict__ out, int rows, int cols, float wCenter,
                               float wCardinal, float wDiagonal) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < rows) {
    for (int j = 0; j < cols; j++) {
      if (i == 0 || i == rows - 1 || j == 0 || j == cols - 1) {
        out[i * cols + j] = in[i * cols + j];
      } else {
        float card = in[(i - 1) * cols + j] + in[(i + 1) * cols + j] + in[i * cols + j - 1] + in[i * cols + j + 1];
        float diag = in[(i - 1) * cols + j - 1] + in[(i - 1) * cols + j + 1] + in[(i + 1) * cols + j - 1] +
                     in[(i + 1) * cols + j + 1];
        out[i * cols + j] = wCenter * in[i * cols + j] + wCardinal * card + wDiagonal * diag;
      }
    }
  }
}

int main(int argc, char **argv) {
  const int n = argInt(argc, argv, 1, 4096);
  const int rows = argInt(argc, argv, 2, 4000), cols = argInt(argc, argv, 3, 4500);
  const int iters = 2;
  const float wC = 0.25f, wN = 0.125f, wD = 0.0625f;
  const int nc = n + 1;
  const size_t nn = size_t(nc) * nc, ns = size_t(rows) * cols;

  // Substitution scores in [-4, 11] without 0 (a BLOSUM-like range).
  std::vector<int> ref(nn), score(nn, 0);
  for (size_t k = 0; k < nn; k++) {
    int v = int(hashAt(8101, k) % 15u) - 4;
    ref[k] = v >= 0 ? v + 1 : v;
  }
  for (int i = 0; i < nc; i++) {
    score[size_t(i) * nc] = -i * PENALTY;
    score[i] = -i * PENALTY;
  }
  std::vector<float> grid(ns);
  fillFloats(grid, 8102);

  int *d_ref = toDevice(ref), *d_score = toDevice(score), *d_max;
  float *d_g0 = toDevice(grid), *d_g1;
  CHECK(cudaMalloc(&d_max, nn / nc * sizeof(int)));
  CHECK(cudaMalloc(&d_g1, ns * sizeof(float)));
  cudaStream_t s;
  CHECK(cudaStreamCreate(&s));
  CHECK(cudaDeviceSynchronize());

  GpuTimer t;
  t.start();
  for (int d = 2; d <= 2 * n; d++) {
    int lo = d - n > 1 ? d - n : 1, hi = d - 1 < n ? d - 1 : n;
    int cells = hi - lo + 1;
    nw_diagonal<<<blocksFor(cells, 128), 128, 0, s>>>(d_ref, d_score, n, d);
    CHECK_LAUNCH();
  }
  row_max<<<blocksFor(nc, 64), 64, 0, s>>>(d_score, d_max, unsigned(nc), unsigned(nc));
  CHECK_LAUNCH();
  for (int it = 0; it < iters; it++) {
    const float *src = it % 2 == 0 ? d_g0 : d_g1;
    float *dst = it % 2 == 0 ? d_g1 : d_g0;
    stencil2d_rows<<<blocksFor(rows, 64), 64, 0, s>>>(src, dst, rows, cols, wC, wN, wD);
    CHECK_LAUNCH();
  }
  CHECK(cudaStreamSynchronize(s));
  float ms = t.stop();
  std::vector<int> gscore = fromDevice(d_score, nn), gmax = fromDevice(d_max, nc);
  std::vector<float> g0 = fromDevice(d_g0, ns), g1 = fromDevice(d_g1, ns);

  for (size_t i = 1; i < size_t(nc); i++)
    for (size_t j = 1; j < size_t(nc); j++) {
      size_t idx = i * nc + j;
      int a = score[idx - nc - 1] + ref[idx], b = score[idx - nc] - PENALTY, c = score[idx - 1] - PENALTY;
      int m = a > b ? a : b;
      score[idx] = m > c ? m : c;
    }
  std::vector<int> mref(nc);
  for (size_t r = 0; r < size_t(nc); r++) {
    int m = score[r * nc];
    for (size_t j = 1; j < size_t(nc); j++) m = score[r * nc + j] > m ? score[r * nc + j] : m;
    mref[r] = m;
  }
  std::vector<float> h0 = grid, h1(ns);
  for (int it = 0; it < iters; it++) {
    const std::vector<float> &src = it % 2 == 0 ? h0 : h1;
    std::vector<float> &dst = it % 2 == 0 ? h1 : h0;
    for (size_t i = 0; i < size_t(rows); i++)
      for (size_t j = 0; j < size_t(cols); j++) {
        size_t c = i * cols + j;
        if (i == 0 || i == size_t(rows) - 1 || j == 0 || j == size_t(cols) - 1) {
          dst[c] = src[c];
        } else {
          float card = src[c - cols] + src[c + cols] + src[c - 1] + src[c + 1];
          float diag = src[c - cols - 1] + src[c - cols + 1] + src[c + cols - 1] + src[c + cols + 1];
          dst[c] = std::fmaf(wD, diag, std::fmaf(wN, card, wC * src[c]));
        }
      }
  }
  bool ok = checkExact("nw score", gscore.data(), score.data(), nn);
  ok = checkExact("nw row max", gmax.data(), mref.data(), nc) && ok;
  ok = checkExact("stencil2d grid 0", g0.data(), h0.data(), ns) && ok;
  ok = checkExact("stencil2d grid 1", g1.data(), h1.data(), ns) && ok;
  CHECK(cudaStreamDestroy(s));
  CHECK(cudaFree(d_ref));
  CHECK(cudaFree(d_score));
  CHECK(cudaFree(d_max));
  CHECK(cudaFree(d_g0));
  CHECK(cudaFree(d_g1));
  return finish(ms, ok);
}
