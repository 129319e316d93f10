// h12_launch_paths: thread-per-row kernels reached through launch paths
// other than a plain `<<<>>>` on the default stream, all on created
// (blocking) streams. row_dot: `s += A[i*cols + j]*x[j]`, float, `int`
// indices, 128-thread blocks, `if (i < rows)`. (a) cudaLaunchKernel with an
// args array, `void *args[] = {&A, &x, &y, &rows, &cols};
// cudaLaunchKernel((const void *)row_dot, grid, block, args, 0, s0)`, over R,
// rows x cols = 16384 x 2048 (134 MB); (b) a CUDA graph captured from s0
// (cudaStreamBeginCapture / EndCapture) holding two row_dot launches of a
// power-iteration-like pair `w = P*v; v = P*w` over a square P, n = 4096
// (67 MB, entries in [0.25, 1.25)/n so the vector shrinks by about 0.75 a
// product), instantiated before the timer and replayed 5 times (v = P^10
// v0); (c) row_range_s16 over a short matrix, srows x scols = 16384 x 4096
// (134 MB), `unsigned` indices, 512-thread blocks, `if (r < row_end)`, `v =
// a[r*cols + j]; if (v < lo) lo = v; if (v > hi) hi = v;` -> hi - lo, its rows
// split in 4 slices each launched on its own stream. Sizes: rows cols n
// reps srows scols (argv). Timed: 1 + 2*reps + 4 launches (the device
// synchronized before the stop event). Checked: (a), (b) against double CPU
// results, relative tolerance 1e-3 (fma contraction; positive inputs); (c)
// exact.
#include <algorithm>

#include "../common.h"

#define NSTREAMS 4

__global__ void row_dot(const float *A, const float *x, float *y, int rows, int cols) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < rows) {
    float s = 0.0f;
    for (int j = 0; j < cols; j++) s += A[i * cols + j] * x[j];
    y[i] = s;
  }
}

__global__ void row_range_s16(const short *a, int *range, unsigned row0, unsigned row_end, unsigned cols) {
  unsigned r = row0 + blockIdx.x * blockDim.x + threadIdx.x;
  if (r < row_end) {
    int lo = 32767, hi = -32768;
    for (unsigned j = 0; j < cols; j++) {
      int v = a[r * cols + j];
      if (v < lo) lo = v;
      if (v > hi) hi = v;
    }
    range[r] = hi - lo;
  }
}

int main(int argc, char **argv) {
  int rows = argInt(argc, argv, 1, 16384), cols = argInt(argc, argv, 2, 2048);
  int n = argInt(argc, argv, 3, 4096);
  const int reps = argInt(argc, argv, 4, 5);
  const unsigned srows = argInt(argc, argv, 5, 16384), scols = argInt(argc, argv, 6, 4096);
  const size_t nr = size_t(rows) * cols, np = size_t(n) * n, ns = size_t(srows) * scols;

  std::vector<float> R(nr), rx(cols), P(np), v0(n);
  fillFloats(R, 12901);
  fillFloats(rx, 12902);
  fillFloats(P, 12903, 0.25f / n, 1.25f / n);
  fillFloats(v0, 12904);
  std::vector<short> S(ns);
  for (size_t k = 0; k < ns; k++) {
    uint32_t u = hashAt(12905, k);
    int v = 1 + int(u % 20000);
    S[k] = short((u >> 20) & 1 ? -v : v);
  }

  float *d_R = toDevice(R), *d_rx = toDevice(rx), *d_ry, *d_P = toDevice(P), *d_v = toDevice(v0), *d_w;
  short *d_S = toDevice(S);
  int *d_range;
  CHECK(cudaMalloc(&d_ry, rows * sizeof(float)));
  CHECK(cudaMalloc(&d_w, n * sizeof(float)));
  CHECK(cudaMalloc(&d_range, srows * sizeof(int)));
  CHECK(cudaMemset(d_w, 0, n * sizeof(float)));

  cudaStream_t s0, st[NSTREAMS];
  CHECK(cudaStreamCreate(&s0));
  for (cudaStream_t &s : st) CHECK(cudaStreamCreate(&s));

  // (b) Capture the pair w = P*v; v = P*w into a graph.
  cudaGraph_t graph;
  cudaGraphExec_t exec;
  const unsigned pgrid = blocksFor(n, 128);
  CHECK(cudaStreamBeginCapture(s0, cudaStreamCaptureModeGlobal));
  row_dot<<<pgrid, 128, 0, s0>>>(d_P, d_v, d_w, n, n);
  CHECK_LAUNCH();
  row_dot<<<pgrid, 128, 0, s0>>>(d_P, d_w, d_v, n, n);
  CHECK_LAUNCH();
  CHECK(cudaStreamEndCapture(s0, &graph));
  CHECK(cudaGraphInstantiate(&exec, graph, 0));
  CHECK(cudaDeviceSynchronize());

  GpuTimer t;
  t.start();
  const float *aA = d_R, *ax = d_rx;
  float *ay = d_ry;
  void *args[] = {&aA, &ax, &ay, &rows, &cols};
  CHECK(cudaLaunchKernel((const void *)row_dot, dim3(blocksFor(rows, 128)), dim3(128), args, 0, s0));
  for (int r = 0; r < reps; r++) CHECK(cudaGraphLaunch(exec, s0));
  const unsigned slice = (srows + NSTREAMS - 1) / NSTREAMS;
  for (unsigned k = 0; k < NSTREAMS; k++) {
    unsigned row0 = std::min(srows, k * slice), row_end = std::min(srows, row0 + slice);
    if (row_end == row0) continue;
    row_range_s16<<<blocksFor(row_end - row0, 512), 512, 0, st[k]>>>(d_S, d_range, row0, row_end, scols);
    CHECK_LAUNCH();
  }
  CHECK(cudaDeviceSynchronize());
  float ms = t.stop();
  std::vector<float> gry = fromDevice(d_ry, rows), gv = fromDevice(d_v, n), gw = fromDevice(d_w, n);
  std::vector<int> grange = fromDevice(d_range, srows);

  std::vector<float> wry(rows), wv(n), ww(n);
  for (size_t i = 0; i < size_t(rows); i++) {
    double s = 0;
    for (size_t j = 0; j < size_t(cols); j++) s += double(R[i * cols + j]) * rx[j];
    wry[i] = float(s);
  }
  std::vector<double> v(v0.begin(), v0.end()), w(n, 0.0);
  for (int r = 0; r < reps; r++) {
    for (size_t i = 0; i < size_t(n); i++) {
      double s = 0;
      for (size_t j = 0; j < size_t(n); j++) s += double(P[i * n + j]) * v[j];
      w[i] = s;
    }
    for (size_t i = 0; i < size_t(n); i++) {
      double s = 0;
      for (size_t j = 0; j < size_t(n); j++) s += double(P[i * n + j]) * w[j];
      v[i] = s;
    }
  }
  for (int i = 0; i < n; i++) {
    wv[i] = float(v[i]);
    ww[i] = float(w[i]);
  }
  std::vector<int> wrange(srows);
  for (size_t r = 0; r < srows; r++) {
    int lo = 32767, hi = -32768;
    for (size_t j = 0; j < scols; j++) {
      int x = S[r * scols + j];
      lo = std::min(lo, x);
      hi = std::max(hi, x);
    }
    wrange[r] = hi - lo;
  }
  bool ok = checkFloats("row_dot via cudaLaunchKernel", gry.data(), wry.data(), rows, 1e-3);
  ok = checkFloats("captured graph, v", gv.data(), wv.data(), n, 1e-3) && ok;
  ok = checkFloats("captured graph, w", gw.data(), ww.data(), n, 1e-3) && ok;
  ok = checkExact("row_range_s16 on 4 streams", grange.data(), wrange.data(), srows) && ok;

  CHECK(cudaGraphExecDestroy(exec));
  CHECK(cudaGraphDestroy(graph));
  CHECK(cudaStreamDestroy(s0));
  for (cudaStream_t &s : st) CHECK(cudaStreamDestroy(s));
  float *fb[] = {d_R, d_rx, d_ry, d_P, d_v, d_w};
  for (float *p : fb) CHECK(cudaFree(p));
  CHECK(cudaFree(d_S));
  CHECK(cudaFree(d_range));
  return finish(ms, ok);
}
