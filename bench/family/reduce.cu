// Row and column reductions as PolyBench/GPU's ATAX and BiCG write them:
// one thread per row summing A[i][j] * x[j] into tmp[i] in memory (each
// thread walks its row: uncoalesced), and one thread per column summing
// A[i][j] * v[i] into y[j] (coalesced). float, blocks of 256, square
// matrices from 512x512 (1 MB, L2-resident) to 16384x16384 (1 GB). One
// launch per run; tmp and y start at zero.
#include "family.h"

__global__ void row_reduce(const float *A, const float *x, float *tmp, int nx, int ny) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < nx) {
    for (int j = 0; j < ny; j++) tmp[i] += A[i * ny + j] * x[j];
  }
}

__global__ void col_reduce(const float *A, const float *v, float *y, int nx, int ny) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j < ny) {
    for (int i = 0; i < nx; i++) y[j] += A[i * ny + j] * v[i];
  }
}

int main(int argc, char **argv) {
  Options o = parseOptions(argc, argv, "reduce");
  Hasher hash;
  const int sizes[] = {512, 2048, 8192, 16384};
  const unsigned blk = 256;
  // a thread walks a whole row or column: 16384 dependent steps at 16384
  // (milliseconds per launch): half the repetitions
  Options ro = o;
  ro.reps = o.reps > 0 ? std::max(1, o.reps / 2) : 0;
  for (int n : sizes) {
    size_t count = size_t(n) * n, bytes = (count + 2 * size_t(n)) * sizeof(float);
    if (bytes / 1048576.0 > o.maxMB) continue;
    float *A = alloc<float>(count), *x = alloc<float>(n), *out = alloc<float>(n);
    fill(A, count, 19);
    fill(x, n, 20);
    unsigned g = cdiv(n, blk);
    std::string shape = fmt("block=%u,grid=%u", blk, g), size = fmt("%dx%d", n, n);
    auto zero = [&] { CHECK(cudaMemsetAsync(out, 0, n * sizeof(float))); };
    bench(ro, {"row_reduce<float>", shape, size, bytes, 1}, zero, [&] { row_reduce<<<g, blk>>>(A, x, out, n, n); },
          [&] { return hash(out, n, 0); });
    bench(ro, {"col_reduce<float>", shape, size, bytes, 1}, zero, [&] { col_reduce<<<g, blk>>>(A, x, out, n, n); },
          [&] { return hash(out, n, 0); });
    CHECK(cudaFree(A));
    CHECK(cudaFree(x));
    CHECK(cudaFree(out));
  }
  return 0;
}
