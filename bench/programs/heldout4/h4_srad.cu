// h4_srad: Rodinia srad (speckle-reducing anisotropic diffusion, v2's
// formulas) written without shared-memory tiles: one thread per pixel of a
// rows x cols float image (4096 x 4096, 64 MB; J, dN, dS, dW, dE and c are
// 384 MB in all), 16 x 16 blocks, `int` indices, Rodinia's clamped
// neighbour index arrays iN, iS (rows) and jW, jE (columns). (1)
// srad_cuda_1: the four neighbour differences `dN[k] = J[iN[i]*cols + j] -
// Jc` (and dS, dW, dE) stored, the gradient and Laplacian terms, and the
// diffusion coefficient `c = 1 / (1 + (qsqr - q0sqr) / (q0sqr * (1 +
// q0sqr)))` clamped to [0, 1]; (2) srad_cuda_2: `D = cN*dN + cS*dS + cW*dW +
// cE*dE` with cN = cW = c[k], cS = c[iS[i]*cols + j], cE = c[i*cols + jE[j]],
// `J[k] = J[k] + 0.25f*lambda*D`. q0sqr from the initial image's region of
// interest (rows and columns 0..127), computed on the host once. 2
// iterations (2 + 2 launches). Timed: the 4 launches. Checked exactly (the
// device's operation order read from the PTX: fmaf where it has fma.rn or a
// contractable mul/add pair; IEEE division).
#include "../common.h"

#include <algorithm>

__global__ void srad_cuda_1(float *J, float *dN, float *dS, float *dW, float *dE, float *C, const int *iN, const int *iS,
                            const int *jW, const int *jE, int rows, int cols, float q0sqr) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  int i = blockIdx.y * blockDim.y + threadIdx.y;

  if (i < rows && j < cols) {
    int k = i * cols + j;
    float Jc = J[k];

    // directional derivatives
    float n = J[iN[i] * cols + j] - Jc;
    float s = J[iS[i] * cols + j] - Jc;
    float w = J[i * cols + jW[j]] - Jc;
    float e = J[i * cols + jE[j]] - Jc;
    dN[k] = n;
    dS[k] = s;
    dW[k] = w;
    dE[k] = e;

    float G2 = (n * n + s * s + w * w + e * e) / (Jc * Jc);
    float L = (n + s + w + e) / Jc;

    float num = (0.5f * G2) - ((1.0f / 16.0f) * (L * L));
    float den = 1 + (.25f * L);
    float qsqr = num / (den * den);

    // diffusion coefficient (equ 33)
    den = (qsqr - q0sqr) / (q0sqr * (1 + q0sqr));
    float c = 1.0f / (1.0f + den);

    // saturate diffusion coefficient
    if (c < 0) {
      C[k] = 0;
    } else if (c > 1) {
      C[k] = 1;
    } else {
      C[k] = c;
    }
  }
}

__global__ void srad_cuda_2(float *J, const float *dN, const float *dS, const float *dW, const float *dE, const float *C,
                            const int *iS, const int *jE, int rows, int cols, float lambda) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  int i = blockIdx.y * blockDim.y + threadIdx.y;

  if (i < rows && j < cols) {
    int k = i * cols + j;
    float cN = C[k];
    float cS = C[iS[i] * cols + j];
    float cW = C[k];
    float cE = C[i * cols + jE[j]];

    // divergence (equ 58)
    float D = cN * dN[k] + cS * dS[k] + cW * dW[k] + cE * dE[k];

    // image update (equ 61)
    J[k] = J[k] + 0.25f * lambda * D;
  }
}

int main(int argc, char **argv) {
  const int rows = argInt(argc, argv, 1, 4096), cols = argInt(argc, argv, 2, 4096), iters = argInt(argc, argv, 3, 2);
  const float lambda = 0.5f;
  const size_t total = size_t(rows) * cols;
  std::vector<float> J(total);
  fillFloats(J, 5101);
  std::vector<int> iN(rows), iS(rows), jW(cols), jE(cols);
  for (int i = 0; i < rows; i++) {
    iN[i] = i == 0 ? 0 : i - 1;
    iS[i] = i == rows - 1 ? rows - 1 : i + 1;
  }
  for (int j = 0; j < cols; j++) {
    jW[j] = j == 0 ? 0 : j - 1;
    jE[j] = j == cols - 1 ? cols - 1 : j + 1;
  }
  // q0sqr over the region of interest rows, cols 0..127 (Rodinia's r1..r2, c1..c2).
  double sum = 0, sum2 = 0;
  const int r2 = std::min(rows, 128), c2 = std::min(cols, 128);
  for (int i = 0; i < r2; i++)
    for (int j = 0; j < c2; j++) {
      const double v = J[size_t(i) * cols + j];
      sum += v;
      sum2 += v * v;
    }
  const double meanROI = sum / (r2 * c2), varROI = sum2 / (r2 * c2) - meanROI * meanROI;
  const float q0sqr = float(varROI / (meanROI * meanROI));

  float *dJ = toDevice(J), *ddN, *ddS, *ddW, *ddE, *dC;
  for (float **p : {&ddN, &ddS, &ddW, &ddE, &dC}) CHECK(cudaMalloc(p, total * sizeof(float)));
  int *diN = toDevice(iN), *diS = toDevice(iS), *djW = toDevice(jW), *djE = toDevice(jE);
  CHECK(cudaDeviceSynchronize());
  dim3 block(16, 16);
  dim3 grid(blocksFor(cols, 16), blocksFor(rows, 16));
  GpuTimer t;
  t.start();
  for (int it = 0; it < iters; it++) {
    srad_cuda_1<<<grid, block>>>(dJ, ddN, ddS, ddW, ddE, dC, diN, diS, djW, djE, rows, cols, q0sqr);
    CHECK_LAUNCH();
    srad_cuda_2<<<grid, block>>>(dJ, ddN, ddS, ddW, ddE, dC, diS, djE, rows, cols, lambda);
    CHECK_LAUNCH();
  }
  float ms = t.stop();
  std::vector<float> gJ = fromDevice(dJ, total), gC = fromDevice(dC, total), gN = fromDevice(ddN, total);

  std::vector<float> rN(total), rS(total), rW(total), rE(total), rC(total);
  const float qden = q0sqr * (1 + q0sqr);
  for (int it = 0; it < iters; it++) {
    for (size_t i = 0; i < size_t(rows); i++)
      for (size_t j = 0; j < size_t(cols); j++) {
        const size_t k = i * cols + j;
        const float Jc = J[k];
        const float n = J[size_t(iN[i]) * cols + j] - Jc, s = J[size_t(iS[i]) * cols + j] - Jc;
        const float w = J[i * cols + jW[j]] - Jc, e = J[i * cols + jE[j]] - Jc;
        rN[k] = n, rS[k] = s, rW[k] = w, rE[k] = e;
        // The PTX's order (nvcc 13.0).
        const float g2 = std::fmaf(e, e, std::fmaf(w, w, std::fmaf(n, n, s * s))) / (Jc * Jc);
        const float L = (((n + s) + w) + e) / Jc;
        const float num = std::fmaf(g2, 0.5f, (L * L) * -0.0625f);
        const float den = std::fmaf(0.25f, L, 1.0f);
        const float qsqr = num / (den * den);
        const float d2 = (qsqr - q0sqr) / qden;
        const float c = 1.0f / (d2 + 1.0f);
        rC[k] = c < 0 ? 0.0f : (c > 1 ? 1.0f : c);
      }
    const float f = 0.25f * lambda;
    for (size_t i = 0; i < size_t(rows); i++)
      for (size_t j = 0; j < size_t(cols); j++) {
        const size_t k = i * cols + j;
        const float cN = rC[k], cS = rC[size_t(iS[i]) * cols + j], cE = rC[i * cols + jE[j]];
        // The PTX: fma(cE, dE, fma(cW, dW, fma(cN, dN, cS * dS))).
        const float D = std::fmaf(cE, rE[k], std::fmaf(cN, rW[k], std::fmaf(cN, rN[k], cS * rS[k])));
        J[k] = std::fmaf(f, D, J[k]);
      }
  }
  bool ok = checkExact("srad J", gJ.data(), J.data(), total);
  ok = checkExact("srad c", gC.data(), rC.data(), total) && ok;
  ok = checkExact("srad dN", gN.data(), rN.data(), total) && ok;
  CHECK(cudaFree(dJ));
  for (float *p : {ddN, ddS, ddW, ddE, dC}) CHECK(cudaFree(p));
  for (int *p : {diN, diS, djW, djE}) CHECK(cudaFree(p));
  return finish(ms, ok);
}
