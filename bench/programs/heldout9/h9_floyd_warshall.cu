// h9_floyd_warshall: PolyBench floyd-warshall, int path lengths, `#define N
// 4096` (the matrix is 64 MiB), weights 1..1000 off the diagonal, 0 on it,
// updated in place, one step k per launch. (1) PolyBench/GPU's shape: a
// thread per (i, j), 32 x 8 blocks, `unsigned` indices, `if (via <
// path[i*N + j]) path[i*N + j] = via` (a conditional store); (2) the same
// step written thread per row, blocks of 128, `int` indices: `for (j = 0; j
// < N; j++) path[i*N + j] = min(path[i*N + j], path[i*N + k] + path[k*N +
// j])` (a row walk that reads its own row's column-k element every step
// and row k, which its own thread (i == k) is told to skip). Within step k
// neither row k nor column k changes (the diagonal stays 0), so both are
// race-free. Steps 0..K2D-1 with (1), then K2D..K2D+KROW-1 with (2). Sizes:
// K2D KROW = 12 4 (argv). Timed: all launches. Checked: the whole matrix,
// exactly (integer).
#include "../common.h"

#define N 4096

__global__ void fw_step_2d(int *path, unsigned k) {
  unsigned j = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < N && j < N) {
    int via = path[i * N + k] + path[k * N + j];
    if (via < path[i * N + j]) path[i * N + j] = via;
  }
}

__global__ void fw_step_rows(int *path, int k) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N && i != k) {
    for (int j = 0; j < N; j++) path[i * N + j] = min(path[i * N + j], path[i * N + k] + path[k * N + j]);
  }
}

int main(int argc, char **argv) {
  const int k2d = argInt(argc, argv, 1, 12), krow = argInt(argc, argv, 2, 4);
  const size_t nn = size_t(N) * N;
  std::vector<int> P(nn);
  for (size_t i = 0; i < N; i++)
    for (size_t j = 0; j < N; j++) P[i * N + j] = i == j ? 0 : int(1 + hashAt(9101, i * N + j) % 1000);
  int *d_P = toDevice(P);
  CHECK(cudaDeviceSynchronize());

  dim3 block(32, 8), grid(N / 32, N / 8);
  GpuTimer t;
  t.start();
  for (int k = 0; k < k2d; k++) {
    fw_step_2d<<<grid, block>>>(d_P, unsigned(k));
    CHECK_LAUNCH();
  }
  for (int k = k2d; k < k2d + krow; k++) {
    fw_step_rows<<<blocksFor(N, 128), 128>>>(d_P, k);
    CHECK_LAUNCH();
  }
  float ms = t.stop();
  std::vector<int> gP = fromDevice(d_P, nn);

  for (int k = 0; k < k2d + krow; k++)
    for (size_t i = 0; i < N; i++) {
      const int dik = P[i * N + k];
      for (size_t j = 0; j < N; j++) {
        int via = dik + P[size_t(k) * N + j];
        if (via < P[i * N + j]) P[i * N + j] = via;
      }
    }
  bool ok = checkExact("floyd path", gP.data(), P.data(), nn);
  CHECK(cudaFree(d_P));
  return finish(ms, ok);
}
