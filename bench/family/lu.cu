// LU elimination without pivoting, one step per column k and two launches
// per step: the pivot row scaled, then the trailing (n-k-1) x (n-k-1)
// submatrix updated. The grids cover only what is left, so they shrink
// every step: 2(n-1) launches per run, with many distinct shapes (n = 1024:
// 2046 launches, about 130 shapes), the issue's "LU elimination with
// shrinking launches". float, diagonally dominant (the values stay finite);
// n = 512 (1 MB), 1024 (4 MB), 2048 (16 MB).
#include "family.h"

__global__ void lu_scale_row(float *A, int n, int k) {
  int j = k + 1 + blockIdx.x * blockDim.x + threadIdx.x;
  if (j < n) A[k * n + j] = A[k * n + j] / A[k * n + k];
}

__global__ void lu_update(float *A, int n, int k) {
  int j = k + 1 + blockIdx.x * blockDim.x + threadIdx.x;
  int i = k + 1 + blockIdx.y * blockDim.y + threadIdx.y;
  if (i < n && j < n) A[i * n + j] = A[i * n + j] - A[i * n + k] * A[k * n + j];
}

// Makes the matrix diagonally dominant: off-diagonal values are under 1.5,
// the diagonal gets 2n more (grid-stride, run once per reset).
__global__ void add_diagonal(float *A, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) A[i * n + i] += float(2 * n);
}

int main(int argc, char **argv) {
  Options o = parseOptions(argc, argv, "lu");
  Hasher hash;
  const int sizes[] = {512, 1024, 2048};
  const dim3 rowBlock(256), block(32, 8);
  // each run is 2(n-1) launches (4 us and more each): half the repetitions
  Options lo = o;
  lo.reps = o.reps > 0 ? std::max(1, o.reps / 2) : 0;
  for (int n : sizes) {
    size_t count = size_t(n) * n, bytes = count * sizeof(float);
    if (bytes / 1048576.0 > o.maxMB) continue;
    float *A = alloc<float>(count);
    Case c{"lu_scale_row+lu_update<float>", fmt("block=256,32x8,grid=shrinking"), fmt("%dx%d", n, n), bytes, 2 * (n - 1)};
    bench(
        lo, c,
        [&] {
          fill(A, count, 11);
          add_diagonal<<<8, 256>>>(A, n);
        },
        [&] {
          for (int k = 0; k < n - 1; ++k) {
            int left = n - k - 1;
            lu_scale_row<<<cdiv(left, rowBlock.x), rowBlock>>>(A, n, k);
            lu_update<<<dim3(cdiv(left, block.x), cdiv(left, block.y)), block>>>(A, n, k);
          }
        },
        [&] { return hash(A, count, 0); });
    CHECK(cudaFree(A));
  }
  return 0;
}
