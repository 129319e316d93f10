// h2_launch_apis: one naive row-sum kernel (one thread per row, `s +=
// m[row*cols + c]`) over a 4096 x 4096 float matrix (64 MB), launched four
// ways, each into its own output buffer: (1) `<<<grid, block>>>`;
// (2) `cudaLaunchKernel((void*)row_sum, grid, block, args, 0, 0)`;
// (3) `cudaLaunchKernelEx` with a `cudaLaunchConfig_t` (no attributes);
// (4) `<<<grid, block, 0, stream>>>` captured into a CUDA graph by stream
// capture, instantiated, and replayed with cudaGraphLaunch. Blocks of 256
// threads. Timed: the four launches (graph built before the timer). Checked
// exactly: each output against the CPU sums (adds only, same order), and the
// four outputs equal.
#include "../common.h"

__global__ void row_sum(const float *m, float *out, int rows, int cols) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < rows) {
    float s = 0.0f;
    for (int c = 0; c < cols; c++) s += m[row * cols + c];
    out[row] = s;
  }
}

int main(int argc, char **argv) {
  int rows = argInt(argc, argv, 1, 4096), cols = argInt(argc, argv, 2, 4096);
  std::vector<float> m(size_t(rows) * cols);
  fillFloats(m, 2201);
  float *dm = toDevice(m), *dout[4];
  for (int k = 0; k < 4; k++) {
    CHECK(cudaMalloc(&dout[k], size_t(rows) * sizeof(float)));
    CHECK(cudaMemset(dout[k], 0, size_t(rows) * sizeof(float)));
  }
  const dim3 grid(blocksFor(rows, 256)), block(256);

  // (4) built ahead: capture the launch on a blocking stream.
  cudaStream_t s;
  CHECK(cudaStreamCreate(&s));
  cudaGraph_t graph;
  cudaGraphExec_t exec;
  CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  row_sum<<<grid, block, 0, s>>>(dm, dout[3], rows, cols);
  CHECK_LAUNCH();
  CHECK(cudaStreamEndCapture(s, &graph));
  CHECK(cudaGraphInstantiate(&exec, graph, 0));
  CHECK(cudaDeviceSynchronize());

  GpuTimer t;
  t.start();
  row_sum<<<grid, block>>>(dm, dout[0], rows, cols);
  CHECK_LAUNCH();

  float *out1 = dout[1];
  void *args[] = {(void *)&dm, (void *)&out1, (void *)&rows, (void *)&cols};
  CHECK(cudaLaunchKernel((void *)row_sum, grid, block, args, 0, 0));

  cudaLaunchConfig_t cfg = {};
  cfg.gridDim = grid;
  cfg.blockDim = block;
  cfg.dynamicSmemBytes = 0;
  cfg.stream = 0;
  cfg.attrs = nullptr;
  cfg.numAttrs = 0;
  CHECK(cudaLaunchKernelEx(&cfg, row_sum, (const float *)dm, dout[2], rows, cols));

  CHECK(cudaGraphLaunch(exec, s));
  CHECK(cudaStreamSynchronize(s));
  float ms = t.stop();

  std::vector<float> ref(rows);
  for (int r = 0; r < rows; r++) {
    float acc = 0.0f;
    for (int c = 0; c < cols; c++) acc += m[size_t(r) * cols + c];
    ref[r] = acc;
  }
  const char *names[4] = {"<<<>>>", "cudaLaunchKernel", "cudaLaunchKernelEx", "graph"};
  bool ok = true;
  std::vector<float> first;
  for (int k = 0; k < 4; k++) {
    std::vector<float> got = fromDevice(dout[k], rows);
    ok = checkExact(names[k], got.data(), ref.data(), rows) && ok;
    if (k == 0) first = got;
    else ok = checkExact("outputs equal", got.data(), first.data(), rows) && ok;
  }
  CHECK(cudaGraphExecDestroy(exec));
  CHECK(cudaGraphDestroy(graph));
  CHECK(cudaStreamDestroy(s));
  CHECK(cudaFree(dm));
  for (int k = 0; k < 4; k++) CHECK(cudaFree(dout[k]));
  return finish(ms, ok);
}
