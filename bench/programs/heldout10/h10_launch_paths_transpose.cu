// h10_launch_paths_transpose: one naive float transpose launched three
// ways in one program, on one created stream. The kernel: H x W = 8192 x
// 4096 in (134 MB) -> W x H out, a thread per input element, 16 x 16
// blocks, `int` indices, `out[x*H + y] = in[y*W + x]`. (a) `cudaLaunchKernel
// ((void *)kernel, grid, block, args, 0, stream)` into out_a; (b) a CUDA
// graph captured from the stream (cudaStreamBeginCapture, a `<<<grid,
// block, 0, stream>>>` launch into out_b, cudaStreamEndCapture,
// cudaGraphInstantiate), the graph launched twice (cudaGraphLaunch);
// (c) `cudaLaunchKernelEx` with a cudaLaunchConfig_t carrying one attribute,
// cudaLaunchAttributePriority (the stream's default priority), into out_c.
// Sizes: H W (argv). Timed: (a), the 2 graph launches and (c) (4 launches;
// the capture and instantiation not timed; the stream synchronized before
// the stop event). Checked: the three outputs, every element, exactly.
#include "../common.h"

__global__ void transpose_naive(const float *in, float *out, int H, int W) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < W && y < H) out[x * H + y] = in[y * W + x];
}

int main(int argc, char **argv) {
  int H = argInt(argc, argv, 1, 8192), W = argInt(argc, argv, 2, 4096);
  const size_t n = size_t(H) * W;
  std::vector<float> in(n);
  fillFloats(in, 10901);
  float *d_in = toDevice(in), *d_a, *d_b, *d_c;
  CHECK(cudaMalloc(&d_a, n * sizeof(float)));
  CHECK(cudaMalloc(&d_b, n * sizeof(float)));
  CHECK(cudaMalloc(&d_c, n * sizeof(float)));
  cudaStream_t s;
  CHECK(cudaStreamCreate(&s));
  CHECK(cudaDeviceSynchronize());

  dim3 block(16, 16), grid((W + 15) / 16, (H + 15) / 16);

  cudaGraph_t graph;
  cudaGraphExec_t exec;
  CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  transpose_naive<<<grid, block, 0, s>>>(d_in, d_b, H, W);
  CHECK_LAUNCH();
  CHECK(cudaStreamEndCapture(s, &graph));
  CHECK(cudaGraphInstantiate(&exec, graph, 0));

  int priority = 0;
  CHECK(cudaStreamGetPriority(s, &priority));
  cudaLaunchAttribute attr[1];
  attr[0].id = cudaLaunchAttributePriority;
  attr[0].val.priority = priority;
  cudaLaunchConfig_t cfg = {};
  cfg.gridDim = grid;
  cfg.blockDim = block;
  cfg.dynamicSmemBytes = 0;
  cfg.stream = s;
  cfg.attrs = attr;
  cfg.numAttrs = 1;

  void *args[] = {&d_in, &d_a, &H, &W};
  GpuTimer t;
  t.start();
  CHECK(cudaLaunchKernel((void *)transpose_naive, grid, block, args, 0, s));
  for (int r = 0; r < 2; r++) CHECK(cudaGraphLaunch(exec, s));
  CHECK(cudaLaunchKernelEx(&cfg, transpose_naive, (const float *)d_in, d_c, H, W));
  CHECK(cudaStreamSynchronize(s));
  float ms = t.stop();
  std::vector<float> ga = fromDevice(d_a, n), gb = fromDevice(d_b, n), gc = fromDevice(d_c, n);

  std::vector<float> ref(n);
  for (size_t y = 0; y < size_t(H); y++)
    for (size_t x = 0; x < size_t(W); x++) ref[x * H + y] = in[y * W + x];
  bool ok = checkExact("cudaLaunchKernel", ga.data(), ref.data(), n);
  ok = checkExact("graph", gb.data(), ref.data(), n) && ok;
  ok = checkExact("cudaLaunchKernelEx", gc.data(), ref.data(), n) && ok;
  CHECK(cudaGraphExecDestroy(exec));
  CHECK(cudaGraphDestroy(graph));
  CHECK(cudaStreamDestroy(s));
  CHECK(cudaFree(d_in));
  CHECK(cudaFree(d_a));
  CHECK(cudaFree(d_b));
  CHECK(cudaFree(d_c));
  return finish(ms, ok);
}
