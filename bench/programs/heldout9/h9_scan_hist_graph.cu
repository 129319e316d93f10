// h9_scan_hist_graph: integer scans and a sort's digit histogram, captured
// from a created stream into a CUDA graph and launched twice. The graph: a
// cudaMemcpyAsync restoring the int matrix from its pristine copy, then (1)
// a summed-area table's first pass (heartwall-style row scan, SHOC scan done
// thread per row): `for (int j = 1; j < cols; j++) a[i*cols + j] +=
// a[i*cols + j - 1]`, in place, a thread per row, blocks of 128, `int`
// indices (each step reads the element the thread stored the step before);
// (2) the second pass, a thread per column, blocks of 256, `unsigned`
// indices, `a[i*cols + j] += a[(i-1)*cols + j]` down the column (coalesced,
// in place); a cudaMemsetAsync of the histogram, then (3) SHOC sort's
// first step (radix digit counts), a thread per row of unsigned short keys
// (16384 x 2048, 67 MB), `size_t` indices, `hist[r*16 + ((key >> 12) &
// 15)]++` into global memory (each row's 16 bins belong to its thread),
// blocks of 64. Matrix rows x cols = 6000 x 3000 int (72 MB) with values
// 1..64 (the table's largest entry stays under 2^31). Sizes: rows cols
// krows kcols (argv). Timed: the 2 graph launches (capture and
// instantiation not timed). Checked: the table and the histograms,
// exactly (integer).
#include "../common.h"

__global__ void scan_rows(int *a, int rows, int cols) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < rows)
    for (int j = 1; j < cols; j++) a[i * cols + j] += a[i * cols + j - 1];
}

__global__ void scan_cols(int *a, unsigned rows, unsigned cols) {
  unsigned j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j < cols)
    for (unsigned i = 1; i < rows; i++) a[i * cols + j] += a[(i - 1) * cols + j];
}

__global__ void digit_hist_rows(const unsigned short *keys, unsigned *hist, size_t rows, size_t cols) {
  size_t r = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (r < rows)
    for (size_t j = 0; j < cols; j++) hist[r * 16 + ((keys[r * cols + j] >> 12) & 15)]++;
}

int main(int argc, char **argv) {
  const int rows = argInt(argc, argv, 1, 6000), cols = argInt(argc, argv, 2, 3000);
  const size_t krows = argInt(argc, argv, 3, 16384), kcols = argInt(argc, argv, 4, 2048);
  const size_t n = size_t(rows) * cols, nk = krows * kcols;
  std::vector<int> A(n);
  for (size_t i = 0; i < n; i++) A[i] = 1 + int(hashAt(10101, i) % 64);
  std::vector<unsigned short> keys(nk);
  for (size_t i = 0; i < nk; i++) keys[i] = (unsigned short)(hashAt(10102, i) | 1);
  int *d_A0 = toDevice(A), *d_A;
  CHECK(cudaMalloc(&d_A, n * sizeof(int)));
  unsigned short *d_keys = toDevice(keys);
  unsigned *d_hist;
  CHECK(cudaMalloc(&d_hist, krows * 16 * sizeof(unsigned)));
  cudaStream_t s;
  CHECK(cudaStreamCreate(&s));
  CHECK(cudaDeviceSynchronize());

  cudaGraph_t graph;
  cudaGraphExec_t exec;
  CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  CHECK(cudaMemcpyAsync(d_A, d_A0, n * sizeof(int), cudaMemcpyDeviceToDevice, s));
  scan_rows<<<blocksFor(rows, 128), 128, 0, s>>>(d_A, rows, cols);
  CHECK_LAUNCH();
  scan_cols<<<blocksFor(cols, 256), 256, 0, s>>>(d_A, unsigned(rows), unsigned(cols));
  CHECK_LAUNCH();
  CHECK(cudaMemsetAsync(d_hist, 0, krows * 16 * sizeof(unsigned), s));
  digit_hist_rows<<<blocksFor(long(krows), 64), 64, 0, s>>>(d_keys, d_hist, krows, kcols);
  CHECK_LAUNCH();
  CHECK(cudaStreamEndCapture(s, &graph));
  CHECK(cudaGraphInstantiate(&exec, graph, 0));

  GpuTimer t;
  t.start();
  for (int r = 0; r < 2; r++) CHECK(cudaGraphLaunch(exec, s));
  CHECK(cudaStreamSynchronize(s));
  float ms = t.stop();
  std::vector<int> gA = fromDevice(d_A, n);
  std::vector<unsigned> gh = fromDevice(d_hist, krows * 16);

  for (size_t i = 0; i < size_t(rows); i++)
    for (size_t j = 1; j < size_t(cols); j++) A[i * cols + j] += A[i * cols + j - 1];
  for (size_t i = 1; i < size_t(rows); i++)
    for (size_t j = 0; j < size_t(cols); j++) A[i * cols + j] += A[(i - 1) * cols + j];
  std::vector<unsigned> h(krows * 16, 0);
  for (size_t r = 0; r < krows; r++)
    for (size_t j = 0; j < kcols; j++) h[r * 16 + ((keys[r * kcols + j] >> 12) & 15)]++;
  bool ok = checkExact("summed-area table", gA.data(), A.data(), n);
  ok = checkExact("digit histograms", gh.data(), h.data(), krows * 16) && ok;
  CHECK(cudaGraphExecDestroy(exec));
  CHECK(cudaGraphDestroy(graph));
  CHECK(cudaStreamDestroy(s));
  CHECK(cudaFree(d_A0));
  CHECK(cudaFree(d_A));
  CHECK(cudaFree(d_keys));
  CHECK(cudaFree(d_hist));
  return finish(ms, ok);
}
