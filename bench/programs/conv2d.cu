// conv2d (PolyBench/GPU 2DCONV, stepped): a 3 x 3 convolution with
// PolyBench's coefficients (scaled by 1/4.5 so the field stays bounded),
// 1024 x 1024 float, applied 20 times ping-pong between two arrays (the
// border kept); blocks of 16 x 16: 20 launches. Timed: all kernels. Checked
// against the CPU with a tolerance relative to the field's largest value
// (the device contracts into fma).
#include "common.h"

__global__ void convolution2D_kernel(const float *A, float *B, int ni, int nj) {
  const float s = 1.0f / 4.5f;
  const float c11 = +0.2f * s, c21 = +0.5f * s, c31 = -0.8f * s;
  const float c12 = -0.3f * s, c22 = +0.6f * s, c32 = -0.9f * s;
  const float c13 = +0.4f * s, c23 = +0.7f * s, c33 = +0.10f * s;
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i > 0 && i < ni - 1 && j > 0 && j < nj - 1)
    B[i * nj + j] = c11 * A[(i - 1) * nj + (j - 1)] + c21 * A[(i - 1) * nj + j] + c31 * A[(i - 1) * nj + (j + 1)] +
                    c12 * A[i * nj + (j - 1)] + c22 * A[i * nj + j] + c32 * A[i * nj + (j + 1)] +
                    c13 * A[(i + 1) * nj + (j - 1)] + c23 * A[(i + 1) * nj + j] + c33 * A[(i + 1) * nj + (j + 1)];
}

int main(int argc, char **argv) {
  const int n = argInt(argc, argv, 1, 1024), steps = argInt(argc, argv, 2, 20);
  const int ni = n, nj = n;
  std::vector<float> A(size_t(ni) * nj);
  fillFloats(A, 121);
  std::vector<float> B = A;  // the same border in both
  float *dA = toDevice(A), *dB = toDevice(B);
  dim3 block(16, 16), grid(blocksFor(nj, 16), blocksFor(ni, 16));
  GpuTimer t;
  t.start();
  for (int s = 0; s < steps; s++) {
    convolution2D_kernel<<<grid, block>>>(dA, dB, ni, nj);
    CHECK_LAUNCH();
    std::swap(dA, dB);
  }
  float ms = t.stop();
  std::vector<float> got = fromDevice(dA, size_t(ni) * nj);

  const float sc = 1.0f / 4.5f;
  const float c11 = +0.2f * sc, c21 = +0.5f * sc, c31 = -0.8f * sc;
  const float c12 = -0.3f * sc, c22 = +0.6f * sc, c32 = -0.9f * sc;
  const float c13 = +0.4f * sc, c23 = +0.7f * sc, c33 = +0.10f * sc;
  for (int s = 0; s < steps; s++) {
    for (int i = 1; i < ni - 1; i++)
      for (int j = 1; j < nj - 1; j++) {
        const float *a = &A[size_t(i) * nj + j];
        B[size_t(i) * nj + j] = c11 * a[-nj - 1] + c21 * a[-nj] + c31 * a[-nj + 1] + c12 * a[-1] + c22 * a[0] +
                                c32 * a[1] + c13 * a[nj - 1] + c23 * a[nj] + c33 * a[nj + 1];
      }
    std::swap(A, B);
  }
  float scale = maxAbs(A.data(), A.size());
  return finish(ms, checkFloats("A", got.data(), A.data(), A.size(), 1e-4, scale));
}
