// h8_sgemm_matmul_convsep: three kernels, each launched by an explicit
// `cudaLaunchKernel(&kernel, grid, block, args, 0, stream)` on a created
// stream. (1) Parboil sgemm's naive NT kernel, column-major: `for (i = 0; i
// < k; ++i) c += A[m + i*lda] * B[n + i*ldb]; C[m + n*ldc] = C[m + n*ldc] *
// beta + alpha * c` (C read and written in place), m from threadIdx.x, 16 x
// 16 blocks, `int` indices; (2) a matrixMul written with the row index taken
// from threadIdx.x, `template <int BLOCK_SIZE>` (16), `sum += A[row*K + k] *
// B[k*N + col]`, `int` indices; both read the same 64 MB buffer A (as a
// column-major 16384 x 1024 matrix in (1), as a row-major 16384 x 1024
// matrix in (2)) against a 1024 x 64 matrix B; (3) the CUDA samples'
// convolutionSeparable column pass written without shared memory: thread
// per pixel, `#define KERNEL_RADIUS 8`, taps in __constant__ memory, `if (d
// >= 0 && d < imageH) sum += src[d*imageW + x] * c_Kernel[KERNEL_RADIUS -
// k]` (the guard inside the loop), 32 x 8 blocks, image 4096 x 4200 floats
// (69 MB). Timed: the three launches (the stream synchronized before the
// stop event). Checked: (1) and (2) exactly (fmaf in order) on every 16th
// row, all 64 columns ((1)'s last line is fma(alpha, c, C*beta) in the
// PTX); (3) exactly (fmaf in order) on every pixel.
#include "../common.h"

#define KERNEL_RADIUS 8
#define KERNEL_LENGTH (2 * KERNEL_RADIUS + 1)

__constant__ float c_Kernel[KERNEL_LENGTH];

__global__ void mysgemmNT(const float *A, int lda, const float *B, int ldb, float *C, int ldc, int k, float alpha,
                          float beta) {
  float c = 0.0f;
  int m = blockIdx.x * blockDim.x + threadIdx.x;
  int n = blockIdx.y * blockDim.y + threadIdx.y;
  for (int i = 0; i < k; ++i) {
    float a = A[m + i * lda];
    float b = B[n + i * ldb];
    c += a * b;
  }
  C[m + n * ldc] = C[m + n * ldc] * beta + alpha * c;
}

template <int BLOCK_SIZE>
__global__ void matmul_rowx(const float *A, const float *B, float *C, int M, int N, int K) {
  int row = blockIdx.x * BLOCK_SIZE + threadIdx.x;
  int col = blockIdx.y * BLOCK_SIZE + threadIdx.y;
  if (row < M && col < N) {
    float sum = 0.0f;
    for (int k = 0; k < K; k++) sum += A[row * K + k] * B[k * N + col];
    C[row * N + col] = sum;
  }
}

__global__ void convolutionColumnsNaive(float *d_Dst, const float *d_Src, int imageW, int imageH) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < imageW && y < imageH) {
    float sum = 0;
    for (int k = -KERNEL_RADIUS; k <= KERNEL_RADIUS; k++) {
      int d = y + k;
      if (d >= 0 && d < imageH) sum += d_Src[d * imageW + x] * c_Kernel[KERNEL_RADIUS - k];
    }
    d_Dst[y * imageW + x] = sum;
  }
}

int main(int argc, char **argv) {
  int M = argInt(argc, argv, 1, 16384), N = argInt(argc, argv, 2, 64), K = argInt(argc, argv, 3, 1024);
  int imageW = argInt(argc, argv, 4, 4096), imageH = argInt(argc, argv, 5, 4200);
  if (M % 16 || N % 16) {
    std::fprintf(stderr, "M and N must be multiples of 16\n");
    return 1;
  }
  float alpha = 1.5f, beta = 0.75f;
  const size_t na = size_t(M) * K, nb = size_t(K) * N, nc = size_t(M) * N, ni = size_t(imageW) * imageH;

  std::vector<float> A(na), B(nb), C(nc), img(ni), taps(KERNEL_LENGTH);
  fillFloats(A, 8401);
  fillFloats(B, 8402);
  fillFloats(C, 8403);
  fillFloats(img, 8404);
  fillFloats(taps, 8405, 0.01f, 0.1f);

  float *d_A = toDevice(A), *d_B = toDevice(B), *d_C = toDevice(C), *d_C2, *d_img = toDevice(img), *d_conv;
  CHECK(cudaMalloc(&d_C2, nc * sizeof(float)));
  CHECK(cudaMalloc(&d_conv, ni * sizeof(float)));
  CHECK(cudaMemcpyToSymbol(c_Kernel, taps.data(), KERNEL_LENGTH * sizeof(float)));
  cudaStream_t s;
  CHECK(cudaStreamCreate(&s));
  CHECK(cudaDeviceSynchronize());

  // (1): B is the N x K matrix of the NT product (ldb = N), C is M x N.
  int lda = M, ldb = N, ldc = M;
  void *args1[] = {&d_A, &lda, &d_B, &ldb, &d_C, &ldc, &K, &alpha, &beta};
  void *args2[] = {&d_A, &d_B, &d_C2, &M, &N, &K};
  void *args3[] = {&d_conv, &d_img, &imageW, &imageH};
  dim3 b16(16, 16), g1(M / 16, N / 16), g2((M + 15) / 16, (N + 15) / 16);
  dim3 b3(32, 8), g3((imageW + 31) / 32, (imageH + 7) / 8);

  GpuTimer t;
  t.start();
  CHECK(cudaLaunchKernel(&mysgemmNT, g1, b16, args1, 0, s));
  CHECK(cudaLaunchKernel(&matmul_rowx<16>, g2, b16, args2, 0, s));
  CHECK(cudaLaunchKernel(&convolutionColumnsNaive, g3, b3, args3, 0, s));
  CHECK(cudaStreamSynchronize(s));
  float ms = t.stop();
  std::vector<float> gC = fromDevice(d_C, nc), gC2 = fromDevice(d_C2, nc), gconv = fromDevice(d_conv, ni);

  // Every 16th row m, all columns n.
  std::vector<float> got1, want1, got2, want2;
  for (size_t m = 0; m < size_t(M); m += 16)
    for (size_t n = 0; n < size_t(N); n++) {
      float c = 0.0f;
      for (size_t i = 0; i < size_t(K); i++) c = std::fmaf(A[m + i * lda], B[n + i * ldb], c);
      got1.push_back(gC[m + n * ldc]);
      want1.push_back(std::fmaf(alpha, c, C[m + n * ldc] * beta));  // the PTX's order
      float sum = 0.0f;
      for (size_t k = 0; k < size_t(K); k++) sum = std::fmaf(A[m * K + k], B[k * N + n], sum);
      got2.push_back(gC2[m * N + n]);
      want2.push_back(sum);
    }
  std::vector<float> cref(ni);
  for (size_t y = 0; y < size_t(imageH); y++)
    for (size_t x = 0; x < size_t(imageW); x++) {
      float sum = 0.0f;
      for (int k = -KERNEL_RADIUS; k <= KERNEL_RADIUS; k++) {
        long d = long(y) + k;
        if (d >= 0 && d < imageH) sum = std::fmaf(img[size_t(d) * imageW + x], taps[KERNEL_RADIUS - k], sum);
      }
      cref[y * imageW + x] = sum;
    }
  bool ok = checkExact("sgemm NT (sampled rows)", got1.data(), want1.data(), got1.size());
  ok = checkExact("matmul row-from-x (sampled rows)", got2.data(), want2.data(), got2.size()) && ok;
  ok = checkExact("convolution columns", gconv.data(), cref.data(), ni) && ok;
  CHECK(cudaStreamDestroy(s));
  CHECK(cudaFree(d_A));
  CHECK(cudaFree(d_B));
  CHECK(cudaFree(d_C));
  CHECK(cudaFree(d_C2));
  CHECK(cudaFree(d_img));
  CHECK(cudaFree(d_conv));
  return finish(ms, ok);
}
