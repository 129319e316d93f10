// The ways a CUDA program launches kernels: <<<>>> with dynamic shared memory
// and created streams, cudaLaunchKernel and cudaLaunchKernelEx, a kernel in a
// namespace, a struct parameter, __launch_bounds__, a shared-memory reduction
// with barriers (never cloned), the same kernel in a loop of sizes, and
// cudaFuncGetAttributes on a kernel that has clones.
// FLAGS: -O3 -std=c++17
#include "common.h"

struct Params {
  const short *in;
  short *out;
  int n;
  short bias;
};

namespace img {
__global__ void __launch_bounds__(256) addBias(Params p) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < p.n) p.out[i] = p.in[i] + p.bias;
}
}  // namespace img

template <class T> __global__ void axpy(T a, const T *x, T *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

__global__ void colCopy(const int *in, int *out) {
  int i = threadIdx.x * gridDim.x + blockIdx.x;
  out[i] = in[i] + 1;
}

__global__ void blockSum(const int *in, int *out, int n) {
  extern __shared__ int s[];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  s[threadIdx.x] = i < n ? in[i] : 0;
  __syncthreads();
  for (int k = blockDim.x / 2; k > 0; k /= 2) {
    if (threadIdx.x < k) s[threadIdx.x] += s[threadIdx.x + k];
    __syncthreads();
  }
  if (threadIdx.x == 0) out[blockIdx.x] = s[0];
}

template <class T> static void runAxpy(const char *type, int n, cudaStream_t st) {
  std::vector<T> x(n), y(n);
  fill(x, n);
  fill(y, n + 1);
  T *dx = toDevice(x), *dy = toDevice(y);
  axpy<T><<<(n + 255) / 256, 256, 0, st>>>(T(2), dx, dy, n);
  CHECK(cudaGetLastError());
  CHECK(cudaStreamSynchronize(st));
  std::vector<T> got = fromDevice(dy, n), want(n);
  for (int i = 0; i < n; ++i) want[i] = T(T(2) * x[i] + y[i]);
  report(label("axpy<%s> n=%d", type, n), got, want);
  CHECK(cudaFree(dx));
  CHECK(cudaFree(dy));
}

int main() {
  cudaStream_t s1, s2;
  CHECK(cudaStreamCreate(&s1));
  CHECK(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));

  for (int n : {1 << 20, (1 << 20) + 3, 4097, 100}) {
    runAxpy<float>("float", n, s1);
    runAxpy<int>("int", n, s2);
    runAxpy<short>("short", n, 0);
    runAxpy<signed char>("schar", n, s1);
  }

  {  // struct parameter, namespace, launch bounds
    int n = 1000000;
    std::vector<short> in(n);
    fill(in, 5);
    short *din = toDevice(in), *dout;
    CHECK(cudaMalloc(&dout, n * sizeof(short)));
    Params p{din, dout, n, 17};
    img::addBias<<<(n + 255) / 256, 256, 0, s2>>>(p);
    CHECK(cudaGetLastError());
    std::vector<short> got = fromDevice(dout, n), want(n);
    for (int i = 0; i < n; ++i) want[i] = short(in[i] + 17);
    report("img::addBias n=1000000", got, want);
    CHECK(cudaFree(din));
    CHECK(cudaFree(dout));
  }

  {  // cudaLaunchKernel, cudaLaunchKernelEx and <<<>>> of the same kernel
    unsigned grid = 1024, block = 512;
    size_t n = size_t(grid) * block;
    std::vector<int> in(n);
    fill(in, 9);
    int *din = toDevice(in), *d1, *d2, *d3;
    CHECK(cudaMalloc(&d1, n * sizeof(int)));
    CHECK(cudaMalloc(&d2, n * sizeof(int)));
    CHECK(cudaMalloc(&d3, n * sizeof(int)));
    void *args[] = {&din, &d1};
    CHECK(cudaLaunchKernel((const void *)colCopy, dim3(grid), dim3(block), args, 0, s1));
    cudaLaunchConfig_t cfg = {};
    cfg.gridDim = dim3(grid);
    cfg.blockDim = dim3(block);
    cfg.stream = s1;
    CHECK(cudaLaunchKernelEx(&cfg, colCopy, (const int *)din, d2));
    colCopy<<<grid, block, 0, s1>>>(din, d3);
    CHECK(cudaGetLastError());
    CHECK(cudaStreamSynchronize(s1));
    std::vector<int> want(n);
    for (size_t i = 0; i < n; ++i) want[i] = in[i] + 1;
    report("colCopy cudaLaunchKernel", fromDevice(d1, n), want);
    report("colCopy cudaLaunchKernelEx", fromDevice(d2, n), want);
    report("colCopy <<<>>>", fromDevice(d3, n), want);
    cudaFuncAttributes attr;
    CHECK(cudaFuncGetAttributes(&attr, colCopy));
    std::printf("result colCopy attributes maxThreadsPerBlock>=%d ok=%d\n", 512, attr.maxThreadsPerBlock >= 512);
    CHECK(cudaFree(din));
    CHECK(cudaFree(d1));
    CHECK(cudaFree(d2));
    CHECK(cudaFree(d3));
  }

  {  // dynamic shared memory reduction
    int n = 1 << 18, block = 256, grid = n / block;
    std::vector<int> in(n);
    fill(in, 11);
    int *din = toDevice(in), *dout;
    CHECK(cudaMalloc(&dout, grid * sizeof(int)));
    blockSum<<<grid, block, block * sizeof(int), s2>>>(din, dout, n);
    CHECK(cudaGetLastError());
    std::vector<int> got = fromDevice(dout, grid), want(grid, 0);
    for (int i = 0; i < n; ++i) want[i / block] += in[i];
    report("blockSum n=262144", got, want);
    CHECK(cudaFree(din));
    CHECK(cudaFree(dout));
  }
  CHECK(cudaStreamDestroy(s1));
  CHECK(cudaStreamDestroy(s2));
  return 0;
}
