// h7_affine_transpose_rowsum: (1) a fused scale-shift transpose, W x H =
// 4500 x 4096 float (74 MB), 16 x 16 blocks, `long long` indices,
// `out[x*H + y] = alpha * in[y*W + x] + beta` (alpha = 1.5, beta = 0.25,
// runtime arguments); (2) thread-per-row sums, rows x N = 18000 x 1000
// float (72 MB), blocks of 128, `unsigned` index arithmetic `s +=
// a[r * N + i]`. One launch each. Timed: both. Checked: (1) exactly (fmaf:
// the device contracts alpha*x + beta into fma.rn), (2) exactly (plain adds
// in order).
#include "../common.h"

__global__ void scale_shift_transpose(const float *in, float *out, long long W, long long H, float alpha,
                                      float beta) {
  long long x = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  long long y = blockIdx.y * (long long)blockDim.y + threadIdx.y;
  if (x < W && y < H) out[x * H + y] = alpha * in[y * W + x] + beta;
}

__global__ void row_sums(const float *a, float *sums, unsigned rows, unsigned N) {
  unsigned r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < rows) {
    float s = 0.0f;
    for (unsigned i = 0; i < N; i++) s += a[r * N + i];
    sums[r] = s;
  }
}

int main(int argc, char **argv) {
  const long long W = argInt(argc, argv, 1, 4500), H = argInt(argc, argv, 2, 4096);
  const unsigned rows = unsigned(argInt(argc, argv, 3, 18000)), N = unsigned(argInt(argc, argv, 4, 1000));
  const float alpha = 1.5f, beta = 0.25f;
  const size_t n = size_t(W) * size_t(H), nm = size_t(rows) * N;

  std::vector<float> in(n), m(nm);
  fillFloats(in, 7301);
  fillFloats(m, 7302);
  float *d_in = toDevice(in), *d_m = toDevice(m), *d_out, *d_sums;
  CHECK(cudaMalloc(&d_out, n * sizeof(float)));
  CHECK(cudaMalloc(&d_sums, rows * sizeof(float)));
  CHECK(cudaDeviceSynchronize());

  dim3 block(16, 16), grid(unsigned((W + 15) / 16), unsigned((H + 15) / 16));
  GpuTimer t;
  t.start();
  scale_shift_transpose<<<grid, block>>>(d_in, d_out, W, H, alpha, beta);
  CHECK_LAUNCH();
  row_sums<<<blocksFor(rows, 128), 128>>>(d_m, d_sums, rows, N);
  CHECK_LAUNCH();
  float ms = t.stop();
  std::vector<float> out = fromDevice(d_out, n), sums = fromDevice(d_sums, rows);

  std::vector<float> ref(n), sref(rows);
  for (size_t y = 0; y < size_t(H); y++)
    for (size_t x = 0; x < size_t(W); x++) ref[x * H + y] = std::fmaf(alpha, in[y * W + x], beta);
  for (size_t r = 0; r < rows; r++) {
    float s = 0.0f;
    for (size_t i = 0; i < N; i++) s += m[r * N + i];
    sref[r] = s;
  }
  bool ok = checkExact("scale-shift transpose", out.data(), ref.data(), n);
  ok = checkExact("row sums", sums.data(), sref.data(), rows) && ok;
  CHECK(cudaFree(d_in));
  CHECK(cudaFree(d_m));
  CHECK(cudaFree(d_out));
  CHECK(cudaFree(d_sums));
  return finish(ms, ok);
}
