// h4_conv3d: PolyBench-GPU 3DConvolution with 27 weights, one thread per
// interior output point of an ni x nj x nk float volume (256^3: A and B
// 64 MB each), k from threadIdx.x, j from threadIdx.y (32 x 8 blocks) and
// i from blockIdx.z (the suite's per-i launches folded into a 3-D grid),
// `int` indices, the guard `if (i > 0 && j > 0 && k > 0 && i < ni-1 && j <
// nj-1 && k < nk-1)`, the sum written out term by term in the suite's style
// (c111 * A[(i-1)*(nj*nk) + (j-1)*nk + (k-1)] + c112 * ... + c333 * ...).
// The border of B stays zero. Launched 3 times (the same output each time).
// Timed: the 3 launches. Checked exactly (the PTX: one mul.f32 for the first
// term, then fma.rn for each further term in the source order).
#include "../common.h"

typedef float DATA_TYPE;

#define IDX(i, j, k) ((i) * (nj * nk) + (j) * nk + (k))

__global__ void convolution3D_kernel(DATA_TYPE *A, DATA_TYPE *B, int ni, int nj, int nk) {
  int k = blockIdx.x * blockDim.x + threadIdx.x;
  int j = blockIdx.y * blockDim.y + threadIdx.y;
  int i = blockIdx.z;

  DATA_TYPE c111 = +2, c112 = -3, c113 = +4, c121 = +5, c122 = +6, c123 = +7, c131 = -8, c132 = -9, c133 = +10;
  DATA_TYPE c211 = -1, c212 = +3, c213 = -2, c221 = +4, c222 = +12, c223 = +4, c231 = -2, c232 = +3, c233 = -1;
  DATA_TYPE c311 = +6, c312 = -5, c313 = +2, c321 = -7, c322 = +8, c323 = -7, c331 = +2, c332 = -5, c333 = +6;

  if ((i > 0) && (j > 0) && (k > 0) && (i < (ni - 1)) && (j < (nj - 1)) && (k < (nk - 1))) {
    B[IDX(i, j, k)] = c111 * A[IDX(i - 1, j - 1, k - 1)] + c112 * A[IDX(i - 1, j - 1, k)] + c113 * A[IDX(i - 1, j - 1, k + 1)] +
                      c121 * A[IDX(i - 1, j, k - 1)] + c122 * A[IDX(i - 1, j, k)] + c123 * A[IDX(i - 1, j, k + 1)] +
                      c131 * A[IDX(i - 1, j + 1, k - 1)] + c132 * A[IDX(i - 1, j + 1, k)] + c133 * A[IDX(i - 1, j + 1, k + 1)] +
                      c211 * A[IDX(i, j - 1, k - 1)] + c212 * A[IDX(i, j - 1, k)] + c213 * A[IDX(i, j - 1, k + 1)] +
                      c221 * A[IDX(i, j, k - 1)] + c222 * A[IDX(i, j, k)] + c223 * A[IDX(i, j, k + 1)] +
                      c231 * A[IDX(i, j + 1, k - 1)] + c232 * A[IDX(i, j + 1, k)] + c233 * A[IDX(i, j + 1, k + 1)] +
                      c311 * A[IDX(i + 1, j - 1, k - 1)] + c312 * A[IDX(i + 1, j - 1, k)] + c313 * A[IDX(i + 1, j - 1, k + 1)] +
                      c321 * A[IDX(i + 1, j, k - 1)] + c322 * A[IDX(i + 1, j, k)] + c323 * A[IDX(i + 1, j, k + 1)] +
                      c331 * A[IDX(i + 1, j + 1, k - 1)] + c332 * A[IDX(i + 1, j + 1, k)] + c333 * A[IDX(i + 1, j + 1, k + 1)];
  }
}

int main(int argc, char **argv) {
  const int ni = argInt(argc, argv, 1, 256), nj = argInt(argc, argv, 2, 256), nk = argInt(argc, argv, 3, 256);
  const size_t total = size_t(ni) * nj * nk;
  std::vector<float> A(total);
  fillFloats(A, 4701);
  float *dA = toDevice(A), *dB;
  CHECK(cudaMalloc(&dB, total * sizeof(float)));
  CHECK(cudaMemset(dB, 0, total * sizeof(float)));
  CHECK(cudaDeviceSynchronize());
  dim3 block(32, 8);
  dim3 grid(blocksFor(nk, 32), blocksFor(nj, 8), ni);
  GpuTimer t;
  t.start();
  for (int it = 0; it < 3; it++) {
    convolution3D_kernel<<<grid, block>>>(dA, dB, ni, nj, nk);
    CHECK_LAUNCH();
  }
  float ms = t.stop();
  std::vector<float> gB = fromDevice(dB, total);

  // The 27 weights in the source order (di, dj, dk each -1, 0, +1).
  const float c[27] = {2, -3, 4, 5, 6, 7, -8, -9, 10, -1, 3, -2, 4, 12, 4, -2, 3, -1, 6, -5, 2, -7, 8, -7, 2, -5, 6};
  std::vector<float> rB(total, 0.0f);
  const size_t sj = size_t(nk), si = size_t(nj) * nk;
  for (size_t i = 1; i + 1 < size_t(ni); i++)
    for (size_t j = 1; j + 1 < size_t(nj); j++)
      for (size_t k = 1; k + 1 < size_t(nk); k++) {
        const float *a = &A[i * si + j * sj + k];
        float s = 0.0f;
        int t = 0;
        for (int di = -1; di <= 1; di++)
          for (int dj = -1; dj <= 1; dj++)
            for (int dk = -1; dk <= 1; dk++, t++) {
              const float v = a[long(di) * long(si) + long(dj) * long(sj) + dk];
              s = t == 0 ? c[0] * v : std::fmaf(c[t], v, s);
            }
        rB[i * si + j * sj + k] = s;
      }
  bool ok = checkExact("conv3d", gB.data(), rB.data(), total);
  CHECK(cudaFree(dA));
  CHECK(cudaFree(dB));
  return finish(ms, ok);
}
