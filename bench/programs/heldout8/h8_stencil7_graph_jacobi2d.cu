// h8_stencil7_graph_jacobi2d: (1) Parboil stencil's 7-point kernel (`#define
// Index3D(nx, ny, i, j, k)`, thread per (i, j) with i from threadIdx.x, a
// loop over k = 1 .. nz-2, `Anext = (six neighbours) * c1 - A0 * c0`,
// c0 = 1/6, c1 = 1/36), nx ny nz = 256 256 256 floats (64 MiB each
// buffer), 32 x 4 blocks, `int` indices; run 4 times ping-pong as a CUDA
// graph built by hand (cudaGraphCreate + cudaGraphAddKernelNode, one kernel
// node) whose input and output pointers are swapped with
// cudaGraphExecKernelNodeSetParams before each replay; (2) and (3)
// PolyBench/GPU jacobi-2d with its global-memory copy back: (2) `B[i*n + j] =
// 0.2f * (A[i*n + j] + A[i*n + j-1] + A[i*n + j+1] + A[(i+1)*n + j] +
// A[(i-1)*n + j])`, (3) `A[i*n + j] = B[i*n + j]`, both on the interior,
// with the row index i taken from threadIdx.x (a column-major walk), 32 x 8
// blocks, `int` indices, n = 4096 (64 MiB each matrix), 3 time steps,
// `<<<>>>` on the same stream. Timed: the 4 graph launches and the 6 jacobi
// launches (the stream synchronized before the stop event; building and
// instantiating the graph are not timed). Checked: exactly ((1) plain adds
// for the neighbour sum, then fmaf(sum, c1, -(A0*c0)): the PTX's mul, mul,
// sub, which ptxas contracts (the first product fused, read from the sm_90
// SASS); (2) plain adds and a multiply; (3) a copy).
#include "../common.h"

#define Index3D(_nx, _ny, _i, _j, _k) ((_i) + (_nx) * ((_j) + (_ny) * (_k)))

__global__ void stencil7(float c0, float c1, const float *A0, float *Anext, int nx, int ny, int nz) {
  int i = blockIdx.x * blockDim.x + threadIdx.x + 1;
  int j = blockIdx.y * blockDim.y + threadIdx.y + 1;
  if (i < nx - 1 && j < ny - 1) {
    for (int k = 1; k < nz - 1; k++) {
      Anext[Index3D(nx, ny, i, j, k)] = (A0[Index3D(nx, ny, i, j, k + 1)] + A0[Index3D(nx, ny, i, j, k - 1)] +
                                         A0[Index3D(nx, ny, i, j + 1, k)] + A0[Index3D(nx, ny, i, j - 1, k)] +
                                         A0[Index3D(nx, ny, i + 1, j, k)] + A0[Index3D(nx, ny, i - 1, j, k)]) *
                                            c1 -
                                        A0[Index3D(nx, ny, i, j, k)] * c0;
    }
  }
}

__global__ void jacobi2d_kernel1(int n, float *A, float *B) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j = blockIdx.y * blockDim.y + threadIdx.y;
  if ((i >= 1) && (i < (n - 1)) && (j >= 1) && (j < (n - 1)))
    B[i * n + j] = 0.2f * (A[i * n + j] + A[i * n + (j - 1)] + A[i * n + (1 + j)] + A[(1 + i) * n + j] +
                           A[(i - 1) * n + j]);
}

__global__ void jacobi2d_kernel2(int n, float *A, float *B) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j = blockIdx.y * blockDim.y + threadIdx.y;
  if ((i >= 1) && (i < (n - 1)) && (j >= 1) && (j < (n - 1))) A[i * n + j] = B[i * n + j];
}

int main(int argc, char **argv) {
  int nx = argInt(argc, argv, 1, 256), ny = argInt(argc, argv, 2, 256), nz = argInt(argc, argv, 3, 256);
  const int n = argInt(argc, argv, 4, 4096);
  const int iters = 4, tsteps = 3;
  float c0 = 1.0f / 6.0f, c1 = 1.0f / 6.0f / 6.0f;
  const size_t ns = size_t(nx) * ny * nz, nj = size_t(n) * n;

  std::vector<float> s0(ns), A(nj), B(nj);
  fillFloats(s0, 8501);
  fillFloats(A, 8502);
  fillFloats(B, 8503);
  float *d_s0 = toDevice(s0), *d_s1 = toDevice(s0);  // both hold the borders
  float *d_A = toDevice(A), *d_B = toDevice(B);
  cudaStream_t s;
  CHECK(cudaStreamCreate(&s));

  dim3 sb(32, 4), sg((nx - 2 + 31) / 32, (ny - 2 + 3) / 4);
  const float *in = d_s0;
  float *out = d_s1;
  void *args[] = {&c0, &c1, &in, &out, &nx, &ny, &nz};
  cudaKernelNodeParams p = {};
  p.func = (void *)stencil7;
  p.gridDim = sg;
  p.blockDim = sb;
  p.sharedMemBytes = 0;
  p.kernelParams = args;
  p.extra = nullptr;
  cudaGraph_t graph;
  cudaGraphNode_t node;
  cudaGraphExec_t exec;
  CHECK(cudaGraphCreate(&graph, 0));
  CHECK(cudaGraphAddKernelNode(&node, graph, nullptr, 0, &p));
  CHECK(cudaGraphInstantiate(&exec, graph, 0));
  CHECK(cudaDeviceSynchronize());

  dim3 jb(32, 8), jg((n + 31) / 32, (n + 7) / 8);
  GpuTimer t;
  t.start();
  for (int it = 0; it < iters; it++) {
    in = it % 2 == 0 ? d_s0 : d_s1;
    out = it % 2 == 0 ? d_s1 : d_s0;
    CHECK(cudaGraphExecKernelNodeSetParams(exec, node, &p));
    CHECK(cudaGraphLaunch(exec, s));
  }
  for (int ts = 0; ts < tsteps; ts++) {
    jacobi2d_kernel1<<<jg, jb, 0, s>>>(n, d_A, d_B);
    CHECK_LAUNCH();
    jacobi2d_kernel2<<<jg, jb, 0, s>>>(n, d_A, d_B);
    CHECK_LAUNCH();
  }
  CHECK(cudaStreamSynchronize(s));
  float ms = t.stop();
  std::vector<float> g0 = fromDevice(d_s0, ns), g1 = fromDevice(d_s1, ns);
  std::vector<float> gA = fromDevice(d_A, nj), gB = fromDevice(d_B, nj);

  std::vector<float> h0 = s0, h1 = s0;
  for (int it = 0; it < iters; it++) {
    const std::vector<float> &a0 = it % 2 == 0 ? h0 : h1;
    std::vector<float> &an = it % 2 == 0 ? h1 : h0;
    for (int k = 1; k < nz - 1; k++)
      for (int j = 1; j < ny - 1; j++)
        for (int i = 1; i < nx - 1; i++) {
          float sum = a0[Index3D(nx, ny, i, j, k + 1)] + a0[Index3D(nx, ny, i, j, k - 1)] +
                      a0[Index3D(nx, ny, i, j + 1, k)] + a0[Index3D(nx, ny, i, j - 1, k)] +
                      a0[Index3D(nx, ny, i + 1, j, k)] + a0[Index3D(nx, ny, i - 1, j, k)];
          // The PTX has two multiplies and a subtract; ptxas fuses the first
          // multiply into the subtract (sm_90 SASS: FMUL, then FFMA).
          an[Index3D(nx, ny, i, j, k)] = std::fmaf(sum, c1, -(a0[Index3D(nx, ny, i, j, k)] * c0));
        }
  }
  for (int ts = 0; ts < tsteps; ts++) {
    for (size_t i = 1; i < size_t(n) - 1; i++)
      for (size_t j = 1; j < size_t(n) - 1; j++)
        B[i * n + j] = 0.2f * (A[i * n + j] + A[i * n + (j - 1)] + A[i * n + (1 + j)] + A[(1 + i) * n + j] +
                               A[(i - 1) * n + j]);
    for (size_t i = 1; i < size_t(n) - 1; i++)
      for (size_t j = 1; j < size_t(n) - 1; j++) A[i * n + j] = B[i * n + j];
  }
  bool ok = checkExact("stencil buffer 0", g0.data(), h0.data(), ns);
  ok = checkExact("stencil buffer 1", g1.data(), h1.data(), ns) && ok;
  ok = checkExact("jacobi A", gA.data(), A.data(), nj) && ok;
  ok = checkExact("jacobi B", gB.data(), B.data(), nj) && ok;
  CHECK(cudaGraphExecDestroy(exec));
  CHECK(cudaGraphDestroy(graph));
  CHECK(cudaStreamDestroy(s));
  CHECK(cudaFree(d_s0));
  CHECK(cudaFree(d_s1));
  CHECK(cudaFree(d_A));
  CHECK(cudaFree(d_B));
  return finish(ms, ok);
}
