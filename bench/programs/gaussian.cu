// gaussian (Rodinia gaussian): forward elimination of a diagonally dominant
// 512 x 512 float system A x = b, Rodinia's kernels as written: Fan1 computes
// the multipliers of column t (512 threads a block), Fan2 updates the rows
// below t and b (4 x 4 blocks, x indexing the rows), for t = 0 .. n-2. The
// grids shrink with t (Rodinia launches full grids; its kernels' early
// returns make that the same work): 1022 launches. m, a and b are copied
// back, as Rodinia does before its host back-substitution.
// Timed: all kernels. Checked against the CPU (fma on the device).
#include "common.h"

#define MAXBLOCKSIZE 512
#define BLOCK_SIZE_XY 4

__global__ void Fan1(float *m_cuda, float *a_cuda, int Size, int t) {
  if (threadIdx.x + blockIdx.x * blockDim.x >= Size - 1 - t) return;
  *(m_cuda + Size * (blockDim.x * blockIdx.x + threadIdx.x + t + 1) + t) =
      *(a_cuda + Size * (blockDim.x * blockIdx.x + threadIdx.x + t + 1) + t) / *(a_cuda + Size * t + t);
}

__global__ void Fan2(float *m_cuda, float *a_cuda, float *b_cuda, int Size, int j1, int t) {
  if (threadIdx.x + blockIdx.x * blockDim.x >= Size - 1 - t) return;
  if (threadIdx.y + blockIdx.y * blockDim.y >= Size - t) return;
  int xidx = blockIdx.x * blockDim.x + threadIdx.x;
  int yidx = blockIdx.y * blockDim.y + threadIdx.y;
  a_cuda[Size * (xidx + 1 + t) + (yidx + t)] -= m_cuda[Size * (xidx + 1 + t) + t] * a_cuda[Size * t + (yidx + t)];
  if (yidx == 0) b_cuda[xidx + 1 + t] -= m_cuda[Size * (xidx + 1 + t) + (yidx + t)] * b_cuda[t];
}

int main(int argc, char **argv) {
  const int Size = argInt(argc, argv, 1, 512);
  const size_t n2 = size_t(Size) * Size;
  std::vector<float> a(n2), b(Size), m(n2, 0.0f);
  fillFloats(a, 151);
  fillFloats(b, 152);
  for (int i = 0; i < Size; i++) a[size_t(i) * Size + i] += float(Size);
  float *m_cuda = toDevice(m), *a_cuda = toDevice(a), *b_cuda = toDevice(b);
  GpuTimer timer;
  timer.start();
  for (int t = 0; t < Size - 1; t++) {
    const int rows = Size - 1 - t, cols = Size - t;
    Fan1<<<blocksFor(rows, MAXBLOCKSIZE), MAXBLOCKSIZE>>>(m_cuda, a_cuda, Size, t);
    CHECK_LAUNCH();
    Fan2<<<dim3(blocksFor(rows, BLOCK_SIZE_XY), blocksFor(cols, BLOCK_SIZE_XY)), dim3(BLOCK_SIZE_XY, BLOCK_SIZE_XY)>>>(
        m_cuda, a_cuda, b_cuda, Size, Size - t, t);
    CHECK_LAUNCH();
  }
  float ms = timer.stop();
  std::vector<float> gm = fromDevice(m_cuda, n2), ga = fromDevice(a_cuda, n2), gb = fromDevice(b_cuda, Size);

  for (int t = 0; t < Size - 1; t++) {
    for (int i = t + 1; i < Size; i++) m[size_t(i) * Size + t] = a[size_t(i) * Size + t] / a[size_t(t) * Size + t];
    for (int i = t + 1; i < Size; i++) {
      const float mi = m[size_t(i) * Size + t];
      for (int j = t; j < Size; j++) a[size_t(i) * Size + j] -= mi * a[size_t(t) * Size + j];
      b[i] -= mi * b[t];
    }
  }
  bool ok = checkFloats("m", gm.data(), m.data(), n2, 1e-3, 1.0);
  ok = checkFloats("a", ga.data(), a.data(), n2, 1e-3, 1.0) && ok;
  ok = checkFloats("b", gb.data(), b.data(), Size, 1e-3, 1.0) && ok;
  return finish(ms, ok);
}
