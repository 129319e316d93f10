// h8_gemver_graph: PolyBench/GPU gemver, float, `#define N 4096` (A is
// 64 MiB), ALPHA 43532.0f, BETA 12313.0f, `int` indices, no __restrict__:
// (1) `a[i*N + j] += u1[i]*v1[j] + u2[i]*v2[j]` (A updated in place; 32 x
// 8 blocks); (2) thread per i, `x[i] += BETA * a[j*N + i] * y[j]` over j
// (a column walk accumulated in global memory), then `x[i] += z[i]`
// (blocks of 256); (3) thread per i, `w[i] += ALPHA * a[i*N + j] * x[j]`
// over j (a row walk accumulated in global memory; blocks of 256). The
// three launches are captured from a created stream into a CUDA graph,
// instantiated, and the graph launched twice (the second replay starts from
// the first's A, x and w). All inputs non-zero, x and w included. Timed: the
// 2 graph launches (the stream synchronized before the stop event; capture
// and instantiation not timed). Checked: A, x and w after both replays,
// exactly (fmaf in the PTX's order: (1) a + fma(u1, v1, u2*v2); (2), (3)
// fma(BETA*a, y, x), fma(ALPHA*a, x, w)).
#include "../common.h"

#define N 4096
#define ALPHA 43532.0f
#define BETA 12313.0f
#define DIM_THREAD_BLOCK_KERNEL_1_X 32
#define DIM_THREAD_BLOCK_KERNEL_1_Y 8
#define DIM_THREAD_BLOCK_KERNEL_2_X 256
#define DIM_THREAD_BLOCK_KERNEL_3_X 256

__global__ void gemver_kernel1(float *a, float *v1, float *v2, float *u1, float *u2) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  if ((i < N) && (j < N)) a[i * N + j] += u1[i] * v1[j] + u2[i] * v2[j];
}

__global__ void gemver_kernel2(float *a, float *x, float *y, float *z) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N) {
    int j;
    for (j = 0; j < N; j++) x[i] += BETA * a[j * N + i] * y[j];
    x[i] += z[i];
  }
}

__global__ void gemver_kernel3(float *a, float *x, float *w) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if ((i >= 0) && (i < N)) {
    int j;
    for (j = 0; j < N; j++) w[i] += ALPHA * a[i * N + j] * x[j];
  }
}

int main() {
  const int replays = 2;
  const size_t nn = size_t(N) * N;
  std::vector<float> A(nn), u1(N), v1(N), u2(N), v2(N), w(N), x(N), y(N), z(N);
  fillFloats(A, 8601);
  fillFloats(u1, 8602);
  fillFloats(v1, 8603);
  fillFloats(u2, 8604);
  fillFloats(v2, 8605);
  fillFloats(w, 8606);
  fillFloats(x, 8607);
  fillFloats(y, 8608);
  fillFloats(z, 8609);
  float *d_A = toDevice(A), *d_u1 = toDevice(u1), *d_v1 = toDevice(v1), *d_u2 = toDevice(u2), *d_v2 = toDevice(v2);
  float *d_w = toDevice(w), *d_x = toDevice(x), *d_y = toDevice(y), *d_z = toDevice(z);
  cudaStream_t s;
  CHECK(cudaStreamCreate(&s));
  CHECK(cudaDeviceSynchronize());

  dim3 block1(DIM_THREAD_BLOCK_KERNEL_1_X, DIM_THREAD_BLOCK_KERNEL_1_Y);
  dim3 grid1((N + block1.x - 1) / block1.x, (N + block1.y - 1) / block1.y);
  dim3 block2(DIM_THREAD_BLOCK_KERNEL_2_X), grid2((N + block2.x - 1) / block2.x);
  dim3 block3(DIM_THREAD_BLOCK_KERNEL_3_X), grid3((N + block3.x - 1) / block3.x);
  cudaGraph_t graph;
  cudaGraphExec_t exec;
  CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  gemver_kernel1<<<grid1, block1, 0, s>>>(d_A, d_v1, d_v2, d_u1, d_u2);
  CHECK_LAUNCH();
  gemver_kernel2<<<grid2, block2, 0, s>>>(d_A, d_x, d_y, d_z);
  CHECK_LAUNCH();
  gemver_kernel3<<<grid3, block3, 0, s>>>(d_A, d_x, d_w);
  CHECK_LAUNCH();
  CHECK(cudaStreamEndCapture(s, &graph));
  CHECK(cudaGraphInstantiate(&exec, graph, 0));

  GpuTimer t;
  t.start();
  for (int r = 0; r < replays; r++) CHECK(cudaGraphLaunch(exec, s));
  CHECK(cudaStreamSynchronize(s));
  float ms = t.stop();
  std::vector<float> gA = fromDevice(d_A, nn), gx = fromDevice(d_x, N), gw = fromDevice(d_w, N);

  for (int r = 0; r < replays; r++) {
    for (size_t i = 0; i < N; i++)
      for (size_t j = 0; j < N; j++) A[i * N + j] = A[i * N + j] + std::fmaf(u1[i], v1[j], u2[i] * v2[j]);
    // x[i] accumulates over j in order; j outermost for the host's cache.
    for (size_t j = 0; j < N; j++)
      for (size_t i = 0; i < N; i++) x[i] = std::fmaf(BETA * A[j * N + i], y[j], x[i]);
    for (size_t i = 0; i < N; i++) x[i] = x[i] + z[i];
    for (size_t i = 0; i < N; i++) {
      float wi = w[i];
      for (size_t j = 0; j < N; j++) wi = std::fmaf(ALPHA * A[i * N + j], x[j], wi);
      w[i] = wi;
    }
  }
  bool ok = checkExact("gemver A", gA.data(), A.data(), nn);
  ok = checkExact("gemver x", gx.data(), x.data(), N) && ok;
  ok = checkExact("gemver w", gw.data(), w.data(), N) && ok;
  CHECK(cudaGraphExecDestroy(exec));
  CHECK(cudaGraphDestroy(graph));
  CHECK(cudaStreamDestroy(s));
  CHECK(cudaFree(d_A));
  CHECK(cudaFree(d_u1));
  CHECK(cudaFree(d_v1));
  CHECK(cudaFree(d_u2));
  CHECK(cudaFree(d_v2));
  CHECK(cudaFree(d_w));
  CHECK(cudaFree(d_x));
  CHECK(cudaFree(d_y));
  CHECK(cudaFree(d_z));
  return finish(ms, ok);
}
