// h9_seidel_redblack: PolyBench seidel-2d made parallel the usual way, a
// red-black Gauss-Seidel sweep in place on one float grid (rows x cols =
// 4001 x 4099, 66 MB, runtime sizes): a cell of the sweep's colour
// ((i + j) & 1 == colour) becomes `0.2f * (A[i][j] + A[i-1][j] + A[i+1][j]
// + A[i][j-1] + A[i][j+1])` (it reads its own old value and four neighbours
// of the other colour, which this launch does not write; the border is
// never written). (1) a thread per cell, 16 x 16 blocks, `int` indices, the
// colour and the interior test in one guard; (2) a thread per row,
// blocks of 64, `unsigned` indices, the colour test inside the j loop
// (`if (((i + j) & 1) == colour)`), a row walk with every other element
// stored. Iterations: IT1 = 3 (red, black) with (1), then IT2 = 3 with (2).
// Timed: all 12 launches. Checked: the whole grid, exactly (adds in order,
// then the multiply: nothing to contract).
#include "../common.h"

__global__ void rb_sweep_2d(float *A, int rows, int cols, int colour) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i >= 1 && i < rows - 1 && j >= 1 && j < cols - 1 && ((i + j) & 1) == colour)
    A[i * cols + j] =
        0.2f * (A[i * cols + j] + A[(i - 1) * cols + j] + A[(i + 1) * cols + j] + A[i * cols + j - 1] + A[i * cols + j + 1]);
}

__global__ void rb_sweep_rows(float *A, unsigned rows, unsigned cols, unsigned colour) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= 1 && i < rows - 1) {
    for (unsigned j = 1; j < cols - 1; j++) {
      if (((i + j) & 1) == colour)
        A[i * cols + j] = 0.2f * (A[i * cols + j] + A[(i - 1) * cols + j] + A[(i + 1) * cols + j] +
                                  A[i * cols + j - 1] + A[i * cols + j + 1]);
    }
  }
}

static void hostSweep(std::vector<float> &A, int rows, int cols, int colour) {
  for (int i = 1; i < rows - 1; i++)
    for (int j = 1; j < cols - 1; j++)
      if (((i + j) & 1) == colour) {
        size_t c = size_t(i) * cols + j;
        float s = A[c] + A[c - cols];
        s = s + A[c + cols];
        s = s + A[c - 1];
        s = s + A[c + 1];
        A[c] = 0.2f * s;
      }
}

int main(int argc, char **argv) {
  const int rows = argInt(argc, argv, 1, 4001), cols = argInt(argc, argv, 2, 4099);
  const int it1 = argInt(argc, argv, 3, 3), it2 = argInt(argc, argv, 4, 3);
  const size_t n = size_t(rows) * cols;
  std::vector<float> A(n);
  fillFloats(A, 9201);
  float *d_A = toDevice(A);
  CHECK(cudaDeviceSynchronize());

  dim3 block(16, 16), grid((cols + 15) / 16, (rows + 15) / 16);
  GpuTimer t;
  t.start();
  for (int it = 0; it < it1; it++)
    for (int colour = 0; colour < 2; colour++) {
      rb_sweep_2d<<<grid, block>>>(d_A, rows, cols, colour);
      CHECK_LAUNCH();
    }
  for (int it = 0; it < it2; it++)
    for (unsigned colour = 0; colour < 2; colour++) {
      rb_sweep_rows<<<blocksFor(rows, 64), 64>>>(d_A, unsigned(rows), unsigned(cols), colour);
      CHECK_LAUNCH();
    }
  float ms = t.stop();
  std::vector<float> gA = fromDevice(d_A, n);

  for (int it = 0; it < it1 + it2; it++)
    for (int colour = 0; colour < 2; colour++) hostSweep(A, rows, cols, colour);
  bool ok = checkExact("seidel grid", gA.data(), A.data(), n);
  CHECK(cudaFree(d_A));
  return finish(ms, ok);
}
