// h6_batched_gemv_transpose: a batch of B = 64 float matrices of M x N =
// 500 x 1000 (128 MB in all), `size_t` indices: (1) batched GEMV, batch =
// blockIdx.y, one thread per row (blocks of 128), `acc += A[base + row*N +
// j] * x[b*N + j]` with base = b*M*N; (2) batched naive transpose of the
// same matrices, batch = blockIdx.z, 16 x 16 blocks, `out[base + col*M +
// row] = in[base + row*N + col]` (M, N not multiples of 16). One launch
// each. Timed: both. Checked exactly (fmaf in order; data movement).
#include "../common.h"

__global__ void batched_gemv(const float *A, const float *x, float *y, size_t M, size_t N) {
  size_t b = blockIdx.y;
  size_t row = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (row < M) {
    size_t base = b * M * N;
    float acc = 0.0f;
    for (size_t j = 0; j < N; j++) acc += A[base + row * N + j] * x[b * N + j];
    y[b * M + row] = acc;
  }
}

__global__ void batched_transpose(const float *in, float *out, size_t M, size_t N) {
  size_t b = blockIdx.z;
  size_t col = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  size_t row = (size_t)blockIdx.y * blockDim.y + threadIdx.y;
  if (row < M && col < N) {
    size_t base = b * M * N;
    out[base + col * M + row] = in[base + row * N + col];
  }
}

int main(int argc, char **argv) {
  const int B = argInt(argc, argv, 1, 64), M = argInt(argc, argv, 2, 500), N = argInt(argc, argv, 3, 1000);
  const size_t total = size_t(B) * M * N;
  std::vector<float> A(total), x(size_t(B) * N);
  fillFloats(A, 1401);
  fillFloats(x, 1402, 0.01f, 0.02f);
  float *dA = toDevice(A), *dx = toDevice(x), *dy, *dAt;
  CHECK(cudaMalloc(&dy, size_t(B) * M * sizeof(float)));
  CHECK(cudaMalloc(&dAt, total * sizeof(float)));
  CHECK(cudaDeviceSynchronize());

  dim3 gb(128), gg((M + 127) / 128, B);
  dim3 tb(16, 16), tg((N + 15) / 16, (M + 15) / 16, B);
  GpuTimer t;
  t.start();
  batched_gemv<<<gg, gb>>>(dA, dx, dy, M, N);
  CHECK_LAUNCH();
  batched_transpose<<<tg, tb>>>(dA, dAt, M, N);
  CHECK_LAUNCH();
  float ms = t.stop();
  std::vector<float> y = fromDevice(dy, size_t(B) * M), At = fromDevice(dAt, total);

  std::vector<float> yref(size_t(B) * M), tref(total);
  for (size_t b = 0; b < size_t(B); b++) {
    const float *a = A.data() + b * M * N, *xb = x.data() + b * N;
    float *tb_ = tref.data() + b * M * N;
    for (size_t r = 0; r < size_t(M); r++) {
      float acc = 0.0f;
      for (size_t j = 0; j < size_t(N); j++) {
        acc = std::fmaf(a[r * N + j], xb[j], acc);
        tb_[j * M + r] = a[r * N + j];
      }
      yref[b * M + r] = acc;
    }
  }
  bool ok = checkExact("batched gemv", y.data(), yref.data(), size_t(B) * M);
  ok = checkExact("batched transpose", At.data(), tref.data(), total) && ok;
  CHECK(cudaFree(dA));
  CHECK(cudaFree(dx));
  CHECK(cudaFree(dy));
  CHECK(cudaFree(dAt));
  return finish(ms, ok);
}
