// Matrix adds written with the thread index on the row (the form of the
// paper's Fig. 6-a and of many tutorials), uncoalesced as written:
//   madd_rows: row = blockIdx.x * blockDim.x + threadIdx.x, col from y
//              (2-D blocks 32x8, 16x16 and 256x1; float and 8-bit);
//   madd_tid:  i = threadIdx.x * gridDim.x + blockIdx.x (1-D blocks of
//              1024 threads, one block per column; float).
// From 1.5-3 MB (L2-resident) to 384-768 MB. One launch per run.
#include "family.h"

template <class T> __global__ void madd_rows(const T *A, const T *B, T *C, int rows, int cols) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  int col = blockIdx.y * blockDim.y + threadIdx.y;
  if (row < rows && col < cols) C[row * cols + col] = A[row * cols + col] + B[row * cols + col];
}

__global__ void madd_tid(const float *A, const float *B, float *C) {
  int i = threadIdx.x * gridDim.x + blockIdx.x;
  C[i] = A[i] + B[i];
}

// n x n matrices, n from `sizes` (3 MB, 48 MB and 768 MB for the three)
template <class T> static void runRows(const Options &o, const char *type, const int (&sizes)[3], Hasher &hash) {
  const dim3 blocks[] = {{32, 8}, {16, 16}, {256, 1}};
  for (int n : sizes) {
    size_t count = size_t(n) * n, bytes = 3 * count * sizeof(T);
    if (bytes / 1048576.0 > o.maxMB) continue;
    T *A = alloc<T>(count), *B = alloc<T>(count), *C = alloc<T>(count);
    fill(A, count, 21);
    fill(B, count, 22);
    for (dim3 b : blocks) {
      dim3 g(cdiv(n, b.x), cdiv(n, b.y));
      bench(o, {fmt("madd_rows<%s>", type), fmt("block=%ux%u,grid=%ux%u", b.x, b.y, g.x, g.y), fmt("%dx%d", n, n), bytes, 1},
            [&] { CHECK(cudaMemsetAsync(C, 0, count * sizeof(T))); },
            [&] { madd_rows<T><<<g, b>>>(A, B, C, n, n); }, [&] { return hash(C, count, 0); });
    }
    CHECK(cudaFree(A));
    CHECK(cudaFree(B));
    CHECK(cudaFree(C));
  }
}

int main(int argc, char **argv) {
  Options o = parseOptions(argc, argv, "matadd2d");
  Hasher hash;
  runRows<float>(o, "float", {512, 2048, 8192}, hash);
  runRows<unsigned char>(o, "u8", {1024, 4096, 16384}, hash);
  // madd_tid: 1024 rows of `cols` columns, one block per column (1.5 MB,
  // 48 MB, 384 MB; the last grid is large enough for the split clone)
  for (int cols : {128, 4096, 32768}) {
    size_t count = size_t(cols) * 1024, bytes = 3 * count * sizeof(float);
    if (bytes / 1048576.0 > o.maxMB) continue;
    float *A = alloc<float>(count), *B = alloc<float>(count), *C = alloc<float>(count);
    fill(A, count, 23);
    fill(B, count, 24);
    bench(o, {"madd_tid<float>", fmt("block=1024,grid=%d", cols), fmt("1024x%d", cols), bytes, 1},
          [&] { CHECK(cudaMemsetAsync(C, 0, count * sizeof(float))); },
          [&] { madd_tid<<<cols, 1024>>>(A, B, C); }, [&] { return hash(C, count, 0); });
    CHECK(cudaFree(A));
    CHECK(cudaFree(B));
    CHECK(cudaFree(C));
  }
  return 0;
}
