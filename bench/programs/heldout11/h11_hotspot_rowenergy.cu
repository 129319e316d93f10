// h11_hotspot_rowenergy: an iterative solver in the Rodinia hotspot style
// that mixes a row walk with a stencil. A temperature grid T and a power
// grid P, rows x cols = 4096 x 4096 float (67 MB each, T ping-pongs between
// two buffers). Each iteration: (1) row_energy, a thread per row, `int`
// indices, a per-row dot with a weight vector: `s += T[i*cols + j]*w[j]`
// into e[i] (w in [0.25, 1.25)/cols), 128-thread blocks; (2) hotspot_step,
// a thread per cell in BLOCK_SIZE x BLOCK_SIZE = 16x16 blocks: border cells
// copied, inside `Tn = t + cap*(N + S + E + W - 4t) + dt*(P - e[row]*t)`
// (cap 0.1, dt 0.05). After the iterations a last row_energy of the final
// T. Sizes: rows cols iters (argv; 10 iterations: 21 launches). Timed: all
// launches. Checked: the final T and e against a double CPU run of the same
// recurrences, relative tolerance 1e-3 with a floor of 1e-3 (fma contraction
// on the device; the values stay in about [0.2, 1.3]).
#include "../common.h"

#define BLOCK_SIZE 16

__global__ void row_energy(const float *T, const float *w, float *e, int rows, int cols) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < rows) {
    float s = 0.0f;
    for (int j = 0; j < cols; j++) s += T[i * cols + j] * w[j];
    e[i] = s;
  }
}

__global__ void hotspot_step(const float *T, const float *P, const float *e, float *Tn, int rows, int cols, float cap,
                             float dt) {
  int c = blockIdx.x * BLOCK_SIZE + threadIdx.x;
  int r = blockIdx.y * BLOCK_SIZE + threadIdx.y;
  if (r >= rows || c >= cols) return;
  int idx = r * cols + c;
  float t = T[idx];
  if (r == 0 || r == rows - 1 || c == 0 || c == cols - 1) {
    Tn[idx] = t;
    return;
  }
  float lap = T[idx - cols] + T[idx + cols] + T[idx - 1] + T[idx + 1] - 4.0f * t;
  Tn[idx] = t + cap * lap + dt * (P[idx] - e[r] * t);
}

int main(int argc, char **argv) {
  const int rows = argInt(argc, argv, 1, 4096), cols = argInt(argc, argv, 2, 4096);
  const int iters = argInt(argc, argv, 3, 10);
  const float cap = 0.1f, dt = 0.05f;
  const size_t nc = size_t(rows) * cols;
  std::vector<float> T(nc), P(nc), w(cols);
  fillFloats(T, 12001);
  fillFloats(P, 12002);
  fillFloats(w, 12003, 0.25f / cols, 1.25f / cols);
  float *d_T0 = toDevice(T), *d_T1, *d_P = toDevice(P), *d_w = toDevice(w), *d_e;
  CHECK(cudaMalloc(&d_T1, nc * sizeof(float)));
  CHECK(cudaMalloc(&d_e, rows * sizeof(float)));
  CHECK(cudaDeviceSynchronize());

  const dim3 block(BLOCK_SIZE, BLOCK_SIZE), grid(blocksFor(cols, BLOCK_SIZE), blocksFor(rows, BLOCK_SIZE));
  float *cur = d_T0, *nxt = d_T1;
  GpuTimer t;
  t.start();
  for (int it = 0; it < iters; it++) {
    row_energy<<<blocksFor(rows, 128), 128>>>(cur, d_w, d_e, rows, cols);
    CHECK_LAUNCH();
    hotspot_step<<<grid, block>>>(cur, d_P, d_e, nxt, rows, cols, cap, dt);
    CHECK_LAUNCH();
    std::swap(cur, nxt);
  }
  row_energy<<<blocksFor(rows, 128), 128>>>(cur, d_w, d_e, rows, cols);
  CHECK_LAUNCH();
  float ms = t.stop();
  std::vector<float> gT = fromDevice(cur, nc), ge = fromDevice(d_e, rows);

  // CPU: the same recurrences in double.
  std::vector<double> c0(T.begin(), T.end()), c1(nc), e(rows);
  auto energy = [&](const std::vector<double> &X) {
    for (size_t i = 0; i < size_t(rows); i++) {
      double s = 0;
      const double *row = &X[i * cols];
      for (size_t j = 0; j < size_t(cols); j++) s += row[j] * w[j];
      e[i] = s;
    }
  };
  for (int it = 0; it < iters; it++) {
    energy(c0);
    for (size_t r = 0; r < size_t(rows); r++)
      for (size_t c = 0; c < size_t(cols); c++) {
        size_t idx = r * cols + c;
        double tt = c0[idx];
        if (r == 0 || r == size_t(rows) - 1 || c == 0 || c == size_t(cols) - 1) {
          c1[idx] = tt;
          continue;
        }
        double lap = c0[idx - cols] + c0[idx + cols] + c0[idx - 1] + c0[idx + 1] - 4.0 * tt;
        c1[idx] = tt + double(cap) * lap + double(dt) * (double(P[idx]) - e[r] * tt);
      }
    std::swap(c0, c1);
  }
  energy(c0);
  std::vector<float> wT(nc), we(rows);
  for (size_t k = 0; k < nc; k++) wT[k] = float(c0[k]);
  for (int i = 0; i < rows; i++) we[i] = float(e[i]);
  bool ok = checkFloats("hotspot T", gT.data(), wT.data(), nc, 1e-3, 1e-3);
  ok = checkFloats("row energy", ge.data(), we.data(), rows, 1e-3, 1e-3) && ok;

  CHECK(cudaFree(d_T0));
  CHECK(cudaFree(d_T1));
  CHECK(cudaFree(d_P));
  CHECK(cudaFree(d_w));
  CHECK(cudaFree(d_e));
  return finish(ms, ok);
}
