// h11_launch_paths_rowsum: one naive row-sum kernel and one column-major add
// kernel, launched through several runtime paths on a created stream.
// row_sum: a thread per row of a float matrix, `int` indices, `s +=
// a[r*cols + c]`, rows x cols = 16384 x 2048 (134 MB a matrix, two matrices
// A1, A2), 128-thread blocks. colmajor_add: `c[x*ny + y] = a[x*ny + y] +
// b[x*ny + y]` with x from threadIdx.x (the paper's Fig. 6-a), float, `int`,
// nx x ny = 4096 x 4096 (67 MB an array), 16x16 blocks. Launches: (a) a
// CUDA graph built by hand, cudaGraphAddKernelNode with cudaKernelNodeParams
// (func = (void *)row_sum) over A1 -> o1, instantiated, launched, then its
// node's parameters changed with cudaGraphExecKernelNodeSetParams to A2 ->
// o2 and launched again; (b) cudaLaunchCooperativeKernel of row_sum over A1
// -> o3, with a grid checked against cudaOccupancyMaxActiveBlocksPerMultiprocessor
// times the SM count (the kernel does not sync the grid); (c) the templated
// C++ `cudaLaunchKernel(row_sum, grid, block, args, 0, stream)` over A2 ->
// o4; (d) cudaLaunchKernelExC of colmajor_add with a
// cudaLaunchAttributeClusterDimension of 1 x 1 x 1. Sizes: rows cols nx ny
// (argv). Timed: the 5 launches (graph building and instantiation not
// timed; the stream synchronized before the stop event). Checked: o1..o4
// and c exactly (plain float adds in the CPU's order).
#include "../common.h"

__global__ void row_sum(const float *a, float *out, int rows, int cols) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < rows) {
    float s = 0.0f;
    for (int c = 0; c < cols; c++) s += a[r * cols + c];
    out[r] = s;
  }
}

__global__ void colmajor_add(const float *a, const float *b, float *c, int nx, int ny) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < nx && y < ny) c[x * ny + y] = a[x * ny + y] + b[x * ny + y];
}

int main(int argc, char **argv) {
  int rows = argInt(argc, argv, 1, 16384), cols = argInt(argc, argv, 2, 2048);
  int nx = argInt(argc, argv, 3, 4096), ny = argInt(argc, argv, 4, 4096);
  const size_t nm = size_t(rows) * cols, ne = size_t(nx) * ny;
  std::vector<float> A1(nm), A2(nm), a(ne), b(ne);
  fillFloats(A1, 11701);
  fillFloats(A2, 11702);
  fillFloats(a, 11703);
  fillFloats(b, 11704);
  float *d_A1 = toDevice(A1), *d_A2 = toDevice(A2), *d_a = toDevice(a), *d_b = toDevice(b), *d_c;
  float *d_o[4];
  for (float *&p : d_o) CHECK(cudaMalloc(&p, rows * sizeof(float)));
  CHECK(cudaMalloc(&d_c, ne * sizeof(float)));

  cudaStream_t s;
  CHECK(cudaStreamCreate(&s));
  const unsigned threads = 128, grid = blocksFor(rows, threads);

  // (a) The graph, built by hand: one kernel node over A1 -> o1.
  const float *gIn = d_A1;
  float *gOut = d_o[0];
  void *gArgs[] = {&gIn, &gOut, &rows, &cols};
  cudaKernelNodeParams kp = {};
  kp.func = (void *)row_sum;
  kp.gridDim = dim3(grid);
  kp.blockDim = dim3(threads);
  kp.sharedMemBytes = 0;
  kp.kernelParams = gArgs;
  kp.extra = nullptr;
  cudaGraph_t graph;
  cudaGraphNode_t node;
  cudaGraphExec_t exec;
  CHECK(cudaGraphCreate(&graph, 0));
  CHECK(cudaGraphAddKernelNode(&node, graph, nullptr, 0, &kp));
  CHECK(cudaGraphInstantiate(&exec, graph, 0));

  // (b) The cooperative launch needs every block co-resident.
  int dev = 0, coop = 0, numSms = 0, perSm = 0;
  CHECK(cudaGetDevice(&dev));
  CHECK(cudaDeviceGetAttribute(&coop, cudaDevAttrCooperativeLaunch, dev));
  CHECK(cudaDeviceGetAttribute(&numSms, cudaDevAttrMultiProcessorCount, dev));
  CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&perSm, row_sum, threads, 0));
  if (!coop || long(grid) > long(perSm) * numSms) {
    std::fprintf(stderr, "cooperative launch: %u blocks do not fit (%d a SM x %d SMs, coop %d)\n", grid, perSm,
                 numSms, coop);
    return 1;
  }
  CHECK(cudaDeviceSynchronize());

  GpuTimer t;
  t.start();
  CHECK(cudaGraphLaunch(exec, s));
  gIn = d_A2;
  gOut = d_o[1];
  CHECK(cudaGraphExecKernelNodeSetParams(exec, node, &kp));
  CHECK(cudaGraphLaunch(exec, s));

  const float *cIn = d_A1;
  float *cOut = d_o[2];
  void *cArgs[] = {&cIn, &cOut, &rows, &cols};
  CHECK(cudaLaunchCooperativeKernel((void *)row_sum, dim3(grid), dim3(threads), cArgs, 0, s));

  const float *tIn = d_A2;
  float *tOut = d_o[3];
  void *tArgs[] = {&tIn, &tOut, &rows, &cols};
  CHECK(cudaLaunchKernel(row_sum, dim3(grid), dim3(threads), tArgs, 0, s));  // the C++ template overload

  cudaLaunchConfig_t cfg = {};
  cfg.gridDim = dim3(blocksFor(nx, 16), blocksFor(ny, 16));
  cfg.blockDim = dim3(16, 16);
  cfg.dynamicSmemBytes = 0;
  cfg.stream = s;
  cudaLaunchAttribute attr[1];
  attr[0].id = cudaLaunchAttributeClusterDimension;
  attr[0].val.clusterDim.x = 1;
  attr[0].val.clusterDim.y = 1;
  attr[0].val.clusterDim.z = 1;
  cfg.attrs = attr;
  cfg.numAttrs = 1;
  const float *ea = d_a, *eb = d_b;
  float *ec = d_c;
  void *eArgs[] = {&ea, &eb, &ec, &nx, &ny};
  CHECK(cudaLaunchKernelExC(&cfg, (const void *)colmajor_add, eArgs));
  CHECK_LAUNCH();
  CHECK(cudaStreamSynchronize(s));
  float ms = t.stop();

  std::vector<float> go[4];
  for (int k = 0; k < 4; k++) go[k] = fromDevice(d_o[k], rows);
  std::vector<float> gc = fromDevice(d_c, ne);

  std::vector<float> w1(rows), w2(rows), wc(ne);
  for (size_t r = 0; r < size_t(rows); r++) {
    float s1 = 0.0f, s2 = 0.0f;
    for (size_t c = 0; c < size_t(cols); c++) {
      s1 += A1[r * cols + c];
      s2 += A2[r * cols + c];
    }
    w1[r] = s1;
    w2[r] = s2;
  }
  for (size_t k = 0; k < ne; k++) wc[k] = a[k] + b[k];
  bool ok = checkExact("graph launch (A1)", go[0].data(), w1.data(), rows);
  ok = checkExact("graph launch after SetParams (A2)", go[1].data(), w2.data(), rows) && ok;
  ok = checkExact("cooperative launch (A1)", go[2].data(), w1.data(), rows) && ok;
  ok = checkExact("cudaLaunchKernel<T> (A2)", go[3].data(), w2.data(), rows) && ok;
  ok = checkExact("cudaLaunchKernelExC colmajor_add", gc.data(), wc.data(), ne) && ok;

  CHECK(cudaGraphExecDestroy(exec));
  CHECK(cudaGraphDestroy(graph));
  CHECK(cudaStreamDestroy(s));
  float *bufs[] = {d_A1, d_A2, d_a, d_b, d_c, d_o[0], d_o[1], d_o[2], d_o[3]};
  for (float *p : bufs) CHECK(cudaFree(p));
  return finish(ms, ok);
}
