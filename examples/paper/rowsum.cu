// Our own example 1: a transposed reduction, the sum of each row of a
// row-major matrix with one thread per row. It is the natural first port of
// a CPU loop (`for r: for k: s += a[r][k]`), and common in real code (row
// norms, softmax denominators, per-sample losses). Consecutive threads read
// addresses a whole row apart, on every iteration.
//
// naive       one thread per row, loop over the columns.
// hand_paper  the straightforward fix: one warp per row, lanes read
//             consecutive columns (coalesced), shuffle reduction.
// hand_best   one warp per row with 16-byte (float4) loads, shuffle reduction.
//
// Size: 65536 rows x 1024 columns of float (256 MiB).
#include "common.h"

extern "C" __global__ void rowsum_naive(const float *a, float *sums, int rows, int cols) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < rows) {
    float s = 0.0f;
    for (int k = 0; k < cols; k++) s += a[r * cols + k];
    sums[r] = s;
  }
}

__device__ __forceinline__ float warpSum(float s) {
  for (int o = 16; o > 0; o >>= 1) s += __shfl_xor_sync(0xffffffffu, s, o);
  return s;
}

extern "C" __global__ void rowsum_hand_paper(const float *__restrict__ a, float *__restrict__ sums, int rows,
                                             int cols) {
  int r = (blockIdx.x * blockDim.x + threadIdx.x) / 32, lane = threadIdx.x & 31;
  if (r >= rows) return;
  float s = 0.0f;
  for (int k = lane; k < cols; k += 32) s += a[size_t(r) * cols + k];
  s = warpSum(s);
  if (lane == 0) sums[r] = s;
}

extern "C" __global__ void rowsum_hand_best(const float *__restrict__ a, float *__restrict__ sums, int rows,
                                            int cols) {  // cols a multiple of 4
  int r = (blockIdx.x * blockDim.x + threadIdx.x) / 32, lane = threadIdx.x & 31;
  if (r >= rows) return;
  const float4 *row = reinterpret_cast<const float4 *>(a + size_t(r) * cols);
  float s = 0.0f;
#pragma unroll 4
  for (int k = lane; k < cols / 4; k += 32) {
    float4 v = row[k];
    s += (v.x + v.y) + (v.z + v.w);
  }
  s = warpSum(s);
  if (lane == 0) sums[r] = s;
}

int main(int argc, char **argv) {
  ex::Bench B(argc, argv, "rowsum", "rowsum_naive");
  const int rows = B.small() ? 1024 : 65536, cols = 1024;
  const size_t n = size_t(rows) * cols;
  std::string size = std::to_string(rows) + "x" + std::to_string(cols);
  if (!B.wantSize(size, 0, 1)) return 0;
  std::vector<float> a(n), ref(rows), got;
  ex::fillFloats(a, 19);
  for (int r = 0; r < rows; r++) {
    double s = 0;
    for (int k = 0; k < cols; k++) s += a[size_t(r) * cols + k];
    ref[r] = float(s);
  }
  ex::DevBuf<float> da(n), ds(rows);
  da.upload(a);
  double bytes = double(n) * sizeof(float) + double(rows) * sizeof(float);
  auto reset = [&] { ds.zero(); };
  auto verify = [&] {
    ds.download(got);
    return ex::closeTo(got, ref, 0.0, 1e-4, "sums");
  };
  const float *pa = da.p;
  float *ps = ds.p;
  int nr = rows, nc = cols;
  void *args[] = {&pa, &ps, &nr, &nc};
  dim3 blk(256), grid(rows / 256);
  B.naive(size, bytes, [&] { rowsum_naive<<<grid, blk>>>(pa, ps, nr, nc); }, grid, blk, args, reset, verify);
  B.hand(size, "hand_paper", bytes, [&] { rowsum_hand_paper<<<rows * 32 / 256, 256>>>(pa, ps, nr, nc); }, reset, verify);
  B.hand(size, "hand_best", bytes, [&] { rowsum_hand_best<<<rows * 32 / 256, 256>>>(pa, ps, nr, nc); }, reset, verify);
  return B.exitCode();
}
