// Built with --default-stream per-thread: four host threads launch on their
// own default streams at once, and a CUDA graph captured from a stream
// replays three launches (one of a kernel with clones) several times.
// FLAGS: -O3 -std=c++17 --default-stream per-thread
#include "common.h"
#include <thread>

__global__ void colInc(const int *in, int *out) {
  int i = threadIdx.x * gridDim.x + blockIdx.x;
  out[i] = in[i] + 1;
}

__global__ void scale8(const unsigned char *in, unsigned char *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = (unsigned char)(in[i] * 3);
}

__global__ void addOne(int *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] += 1;
}

int main() {
  const unsigned grid = 2048, block = 256;
  const size_t n = size_t(grid) * block;
  std::vector<int> in(n);
  fill(in, 3);
  std::vector<std::vector<int>> outs(4);
  std::vector<std::thread> ts;
  for (int t = 0; t < 4; ++t)
    ts.emplace_back([&, t] {
      int *din = toDevice(in), *dout;
      CHECK(cudaMalloc(&dout, n * sizeof(int)));
      for (int r = 0; r < 10; ++r) colInc<<<grid, block>>>(din, dout);  // this thread's default stream
      CHECK(cudaGetLastError());
      CHECK(cudaStreamSynchronize(cudaStreamPerThread));
      outs[t] = fromDevice(dout, n);
      CHECK(cudaFree(din));
      CHECK(cudaFree(dout));
    });
  for (auto &t : ts) t.join();
  std::vector<int> want(n);
  for (size_t i = 0; i < n; ++i) want[i] = in[i] + 1;
  for (int t = 0; t < 4; ++t) {
    report(label("colInc host thread %d", t), outs[t], want);
  }

  // graph: scale8 -> colInc -> addOne, captured once, replayed 3 times
  int m = 1 << 20;
  std::vector<unsigned char> b(m);
  fill(b, 7);
  unsigned char *db = toDevice(b), *db2;
  CHECK(cudaMalloc(&db2, m));
  int *din = toDevice(in), *dout;
  CHECK(cudaMalloc(&dout, n * sizeof(int)));
  cudaStream_t s;
  CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  cudaGraph_t g;
  CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  scale8<<<(m + 255) / 256, 256, 0, s>>>(db, db2, m);
  colInc<<<grid, block, 0, s>>>(din, dout);
  addOne<<<(n + 127) / 128, 128, 0, s>>>(dout, int(n));
  CHECK(cudaStreamEndCapture(s, &g));
  cudaGraphExec_t ge;
  CHECK(cudaGraphInstantiate(&ge, g, 0));
  for (int r = 0; r < 3; ++r) CHECK(cudaGraphLaunch(ge, s));
  CHECK(cudaStreamSynchronize(s));
  std::vector<unsigned char> wb(m);
  for (int i = 0; i < m; ++i) wb[i] = (unsigned char)(b[i] * 3);
  report("graph scale8", fromDevice(db2, m), wb);
  for (size_t i = 0; i < n; ++i) want[i] = in[i] + 2;
  report("graph colInc+addOne", fromDevice(dout, n), want);
  CHECK(cudaGraphExecDestroy(ge));
  CHECK(cudaGraphDestroy(g));
  CHECK(cudaStreamDestroy(s));
  return 0;
}
