// reduce: the sum of 2^24 unsigned ints, the CUDA samples' reduction #4
// (each thread adds two elements, a shared-memory tree with __syncthreads),
// 256 threads a block, two passes (2^24 -> 32768 partial sums -> 64); the
// 64 partial sums are copied back and added on the host. Timed: both
// kernels. Checked exactly (unsigned sums wrap the same in any order).
#include "common.h"

__global__ void reduce4(const unsigned *g_idata, unsigned *g_odata, unsigned n) {
  extern __shared__ unsigned sdata[];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * (blockDim.x * 2) + threadIdx.x;
  unsigned mySum = (i < n) ? g_idata[i] : 0;
  if (i + blockDim.x < n) mySum += g_idata[i + blockDim.x];
  sdata[tid] = mySum;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s) sdata[tid] = mySum = mySum + sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0) g_odata[blockIdx.x] = mySum;
}

int main(int argc, char **argv) {
  const unsigned n = unsigned(argInt(argc, argv, 1, 1 << 24));
  const unsigned threads = 256;
  std::vector<unsigned> in(n);
  for (unsigned i = 0; i < n; i++) in[i] = 1 + (hashAt(211, i) & 1023);
  const unsigned blocks1 = (n + threads * 2 - 1) / (threads * 2);
  const unsigned blocks2 = (blocks1 + threads * 2 - 1) / (threads * 2);
  unsigned *din = toDevice(in), *dpart1, *dpart2;
  CHECK(cudaMalloc(&dpart1, blocks1 * sizeof(unsigned)));
  CHECK(cudaMalloc(&dpart2, blocks2 * sizeof(unsigned)));
  GpuTimer t;
  t.start();
  reduce4<<<blocks1, threads, threads * sizeof(unsigned)>>>(din, dpart1, n);
  CHECK_LAUNCH();
  reduce4<<<blocks2, threads, threads * sizeof(unsigned)>>>(dpart1, dpart2, blocks1);
  CHECK_LAUNCH();
  float ms = t.stop();
  std::vector<unsigned> part = fromDevice(dpart2, blocks2);
  unsigned got = 0, want = 0;
  for (unsigned v : part) got += v;
  for (unsigned v : in) want += v;
  if (got != want) std::fprintf(stderr, "sum: got %u want %u\n", got, want);
  return finish(ms, got == want);
}
