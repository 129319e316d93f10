// h7_graph_transpose_rowsum: a CUDA graph built by stream capture and
// replayed 3 times. The graph holds (1) a naive float transpose, rows x cols
// = 4096 x 4500 (74 MB), 32 x 8 blocks, `size_t` indices, `out[c*rows + r]
// = in[r*cols + c]`, and (2) thread-per-row sums of the transposed matrix
// (cols rows of `rows` floats; 74 MB), blocks of 96, `int` row with a
// `size_t` row offset, `s += m[(size_t)r * len + k]` (= the input's column
// sums). (2) reads (1)'s output; each replay rewrites both outputs with the
// same values. Timed: the 3 graph launches (the stream synchronized before
// the stop event; capture and instantiation are not timed). Checked:
// exactly (data movement; plain adds in order).
#include "../common.h"

__global__ void transpose_f32(const float *in, float *out, size_t rows, size_t cols) {
  size_t c = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  size_t r = (size_t)blockIdx.y * blockDim.y + threadIdx.y;
  if (r < rows && c < cols) out[c * rows + r] = in[r * cols + c];
}

__global__ void sum_rows(const float *m, float *out, int nrows, int len) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < nrows) {
    float s = 0.0f;
    for (int k = 0; k < len; k++) s += m[(size_t)r * len + k];
    out[r] = s;
  }
}

int main(int argc, char **argv) {
  const int rows = argInt(argc, argv, 1, 4096), cols = argInt(argc, argv, 2, 4500);
  const int replays = 3;
  const size_t n = size_t(rows) * cols;

  std::vector<float> a(n);
  fillFloats(a, 8001);
  float *d_a = toDevice(a), *d_t, *d_s;
  CHECK(cudaMalloc(&d_t, n * sizeof(float)));
  CHECK(cudaMalloc(&d_s, cols * sizeof(float)));
  cudaStream_t stream;
  CHECK(cudaStreamCreate(&stream));
  CHECK(cudaDeviceSynchronize());

  dim3 block(32, 8), grid((cols + 31) / 32, (rows + 7) / 8);
  cudaGraph_t graph;
  cudaGraphExec_t exec;
  CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
  transpose_f32<<<grid, block, 0, stream>>>(d_a, d_t, size_t(rows), size_t(cols));
  CHECK_LAUNCH();
  sum_rows<<<(cols + 95) / 96, 96, 0, stream>>>(d_t, d_s, cols, rows);
  CHECK_LAUNCH();
  CHECK(cudaStreamEndCapture(stream, &graph));
  CHECK(cudaGraphInstantiate(&exec, graph, 0));

  GpuTimer t;
  t.start();
  for (int it = 0; it < replays; it++) CHECK(cudaGraphLaunch(exec, stream));
  CHECK(cudaStreamSynchronize(stream));
  float ms = t.stop();
  std::vector<float> tr = fromDevice(d_t, n), s = fromDevice(d_s, cols);

  std::vector<float> tref(n), sref(cols);
  for (size_t r = 0; r < size_t(rows); r++)
    for (size_t c = 0; c < size_t(cols); c++) tref[c * rows + r] = a[r * cols + c];
  for (size_t c = 0; c < size_t(cols); c++) {
    float acc = 0.0f;
    for (size_t r = 0; r < size_t(rows); r++) acc += tref[c * rows + r];
    sref[c] = acc;
  }
  bool ok = checkExact("graph transpose", tr.data(), tref.data(), n);
  ok = checkExact("graph row sums", s.data(), sref.data(), cols) && ok;
  CHECK(cudaGraphExecDestroy(exec));
  CHECK(cudaGraphDestroy(graph));
  CHECK(cudaStreamDestroy(stream));
  CHECK(cudaFree(d_a));
  CHECK(cudaFree(d_t));
  CHECK(cudaFree(d_s));
  return finish(ms, ok);
}
