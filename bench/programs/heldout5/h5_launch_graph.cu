// h5_launch_graph: a naive float transpose (32 x 4 blocks, int indices,
// `if (x < W && y < H) out[x*H + y] = in[y*W + x]`) and a thread-per-row sum
// (`long long` indices, row pointer `m + r*cols`, blocks of 128) over a
// W x H = 6000 x 4096 matrix (98 MB), launched on a created stream:
// (1) the transpose by `cudaLaunchKernel((void*)transpose_f32, grid, block,
// args, 0, stream)`; (2) the row sum of the input by `cudaLaunchKernelEx`
// with a `cudaLaunchConfig_t` carrying one attribute,
// cudaLaunchAttributePriority (the highest stream priority); (3) a CUDA
// graph recorded by stream capture of transpose (`<<<>>>`) then the row sum
// of the transposed matrix (= column sums of the input, by
// `cudaLaunchKernelEx` without attributes), replayed 3 times by
// cudaGraphLaunch (the same outputs each time). Timed: (1), (2) and the 3
// replays (graph built before the timer). Checked after the replays, exactly:
// both transposes, the row sums and the column sums (plain adds in order).
#include "../common.h"

__global__ void transpose_f32(const float *in, float *out, int W, int H) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < W && y < H) out[x * H + y] = in[y * W + x];
}

__global__ void row_sum_ll(const float *m, float *out, long long rows, long long cols) {
  long long r = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (r < rows) {
    const float *p = m + r * cols;
    float s = 0.0f;
    for (long long c = 0; c < cols; ++c) s += p[c];
    out[r] = s;
  }
}

int main(int argc, char **argv) {
  int W = argInt(argc, argv, 1, 6000), H = argInt(argc, argv, 2, 4096);
  const size_t n = size_t(W) * H;
  std::vector<float> a(n);
  fillFloats(a, 6201);
  float *din = toDevice(a), *dt, *dtg, *drs, *dcs;
  CHECK(cudaMalloc(&dt, n * sizeof(float)));
  CHECK(cudaMalloc(&dtg, n * sizeof(float)));
  CHECK(cudaMalloc(&drs, size_t(H) * sizeof(float)));
  CHECK(cudaMalloc(&dcs, size_t(W) * sizeof(float)));
  cudaStream_t s;
  CHECK(cudaStreamCreate(&s));
  const dim3 tb(32, 4), tg((W + 31) / 32, (H + 3) / 4);

  // (3) captured ahead.
  cudaGraph_t graph;
  cudaGraphExec_t exec;
  CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  transpose_f32<<<tg, tb, 0, s>>>(din, dtg, W, H);
  CHECK_LAUNCH();
  cudaLaunchConfig_t gcfg = {};
  gcfg.gridDim = dim3(blocksFor(W, 128));
  gcfg.blockDim = dim3(128);
  gcfg.dynamicSmemBytes = 0;
  gcfg.stream = s;
  gcfg.attrs = nullptr;
  gcfg.numAttrs = 0;
  CHECK(cudaLaunchKernelEx(&gcfg, row_sum_ll, (const float *)dtg, dcs, (long long)W, (long long)H));
  CHECK(cudaStreamEndCapture(s, &graph));
  CHECK(cudaGraphInstantiate(&exec, graph, 0));
  CHECK(cudaDeviceSynchronize());

  int leastPrio = 0, greatestPrio = 0;
  CHECK(cudaDeviceGetStreamPriorityRange(&leastPrio, &greatestPrio));
  cudaLaunchAttribute attr[1];
  attr[0].id = cudaLaunchAttributePriority;
  attr[0].val.priority = greatestPrio;
  cudaLaunchConfig_t cfg = {};
  cfg.gridDim = dim3(blocksFor(H, 128));
  cfg.blockDim = dim3(128);
  cfg.dynamicSmemBytes = 0;
  cfg.stream = s;
  cfg.attrs = attr;
  cfg.numAttrs = 1;

  GpuTimer t;
  t.start();
  void *args[] = {(void *)&din, (void *)&dt, (void *)&W, (void *)&H};
  CHECK(cudaLaunchKernel((void *)transpose_f32, tg, tb, args, 0, s));
  CHECK(cudaLaunchKernelEx(&cfg, row_sum_ll, (const float *)din, drs, (long long)H, (long long)W));
  for (int rep = 0; rep < 3; rep++) CHECK(cudaGraphLaunch(exec, s));
  CHECK(cudaStreamSynchronize(s));
  float ms = t.stop();
  std::vector<float> tr = fromDevice(dt, n), trg = fromDevice(dtg, n);
  std::vector<float> rs = fromDevice(drs, H), cs = fromDevice(dcs, W);

  std::vector<float> tref(n), rref(H), cref(W);
  for (size_t y = 0; y < size_t(H); y++)
    for (size_t x = 0; x < size_t(W); x++) tref[x * H + y] = a[y * W + x];
  for (size_t y = 0; y < size_t(H); y++) {
    float acc = 0.0f;
    for (size_t x = 0; x < size_t(W); x++) acc += a[y * W + x];
    rref[y] = acc;
  }
  for (size_t x = 0; x < size_t(W); x++) {
    float acc = 0.0f;
    for (size_t y = 0; y < size_t(H); y++) acc += tref[x * H + y];
    cref[x] = acc;
  }
  bool ok = checkExact("cudaLaunchKernel transpose", tr.data(), tref.data(), n);
  ok = checkExact("graph transpose", trg.data(), tref.data(), n) && ok;
  ok = checkExact("cudaLaunchKernelEx row sums", rs.data(), rref.data(), H) && ok;
  ok = checkExact("graph column sums", cs.data(), cref.data(), W) && ok;
  CHECK(cudaGraphExecDestroy(exec));
  CHECK(cudaGraphDestroy(graph));
  CHECK(cudaStreamDestroy(s));
  CHECK(cudaFree(din));
  CHECK(cudaFree(dt));
  CHECK(cudaFree(dtg));
  CHECK(cudaFree(drs));
  CHECK(cudaFree(dcs));
  return finish(ms, ok);
}
