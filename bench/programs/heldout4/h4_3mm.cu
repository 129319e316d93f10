// h4_3mm: PolyBench-GPU 3mm, G = (A*B) * (C*D), three naive matmul kernels,
// one thread per output element (j from threadIdx.x, i from threadIdx.y,
// DIM_THREAD_BLOCK_X 32, DIM_THREAD_BLOCK_Y 8), the output element zeroed and
// then accumulated in global memory inside the k loop as the suite writes it:
// (1) E[i*NJ+j] += A[i*NK+k]*B[k*NJ+j] (NI x NJ); (2) F[i*NL+j] +=
// C[i*NM+k]*D[k*NL+j] (NJ x NL); (3) G[i*NL+j] += E[i*NJ+k]*F[k*NL+j]
// (NI x NL, 64 MB at the defaults). Sizes runtime, with `if (i < ni && j < nj)`
// guards. Each kernel launched once. Timed: the three kernels. Checked
// exactly against CPU loops with fmaf in the k order (the PTX has fma.rn).
#include "../common.h"

#define DIM_THREAD_BLOCK_X 32
#define DIM_THREAD_BLOCK_Y 8
typedef float DATA_TYPE;

__global__ void mm3_kernel1(int ni, int nj, int nk, DATA_TYPE *A, DATA_TYPE *B, DATA_TYPE *E) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  int i = blockIdx.y * blockDim.y + threadIdx.y;

  if ((i < ni) && (j < nj)) {
    E[i * nj + j] = 0;
    int k;
    for (k = 0; k < nk; k++) {
      E[i * nj + j] += A[i * nk + k] * B[k * nj + j];
    }
  }
}

__global__ void mm3_kernel2(int nj, int nl, int nm, DATA_TYPE *C, DATA_TYPE *D, DATA_TYPE *F) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  int i = blockIdx.y * blockDim.y + threadIdx.y;

  if ((i < nj) && (j < nl)) {
    F[i * nl + j] = 0;
    int k;
    for (k = 0; k < nm; k++) {
      F[i * nl + j] += C[i * nm + k] * D[k * nl + j];
    }
  }
}

__global__ void mm3_kernel3(int ni, int nl, int nj, DATA_TYPE *E, DATA_TYPE *F, DATA_TYPE *G) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  int i = blockIdx.y * blockDim.y + threadIdx.y;

  if ((i < ni) && (j < nl)) {
    G[i * nl + j] = 0;
    int k;
    for (k = 0; k < nj; k++) {
      G[i * nl + j] += E[i * nj + k] * F[k * nl + j];
    }
  }
}

// C[i][j] = sum_k X[i][k]*Y[k][j] in the k order with fmaf (i, k, j loops: each
// element still accumulates in k order).
static void refMatmul(const std::vector<float> &X, const std::vector<float> &Y, std::vector<float> &Z, int n, int m,
                      int kk) {
  Z.assign(size_t(n) * m, 0.0f);
  for (size_t i = 0; i < size_t(n); i++)
    for (size_t k = 0; k < size_t(kk); k++) {
      const float x = X[i * kk + k];
      const float *y = &Y[k * m];
      float *z = &Z[i * m];
      for (size_t j = 0; j < size_t(m); j++) z[j] = std::fmaf(x, y[j], z[j]);
    }
}

int main(int argc, char **argv) {
  const int ni = argInt(argc, argv, 1, 4096), nj = argInt(argc, argv, 2, 64), nk = argInt(argc, argv, 3, 128),
            nl = argInt(argc, argv, 4, 4096), nm = argInt(argc, argv, 5, 128);
  std::vector<float> A(size_t(ni) * nk), B(size_t(nk) * nj), C(size_t(nj) * nm), D(size_t(nm) * nl);
  fillFloats(A, 4101);
  fillFloats(B, 4102);
  fillFloats(C, 4103);
  fillFloats(D, 4104);
  float *dA = toDevice(A), *dB = toDevice(B), *dC = toDevice(C), *dD = toDevice(D), *dE, *dF, *dG;
  CHECK(cudaMalloc(&dE, size_t(ni) * nj * sizeof(float)));
  CHECK(cudaMalloc(&dF, size_t(nj) * nl * sizeof(float)));
  CHECK(cudaMalloc(&dG, size_t(ni) * nl * sizeof(float)));
  CHECK(cudaDeviceSynchronize());
  dim3 block(DIM_THREAD_BLOCK_X, DIM_THREAD_BLOCK_Y);
  dim3 grid1(blocksFor(nj, DIM_THREAD_BLOCK_X), blocksFor(ni, DIM_THREAD_BLOCK_Y));
  dim3 grid2(blocksFor(nl, DIM_THREAD_BLOCK_X), blocksFor(nj, DIM_THREAD_BLOCK_Y));
  dim3 grid3(blocksFor(nl, DIM_THREAD_BLOCK_X), blocksFor(ni, DIM_THREAD_BLOCK_Y));
  GpuTimer t;
  t.start();
  mm3_kernel1<<<grid1, block>>>(ni, nj, nk, dA, dB, dE);
  CHECK_LAUNCH();
  mm3_kernel2<<<grid2, block>>>(nj, nl, nm, dC, dD, dF);
  CHECK_LAUNCH();
  mm3_kernel3<<<grid3, block>>>(ni, nl, nj, dE, dF, dG);
  CHECK_LAUNCH();
  float ms = t.stop();
  std::vector<float> gE = fromDevice(dE, size_t(ni) * nj), gF = fromDevice(dF, size_t(nj) * nl),
                     gG = fromDevice(dG, size_t(ni) * nl);

  std::vector<float> rE, rF, rG;
  refMatmul(A, B, rE, ni, nj, nk);
  refMatmul(C, D, rF, nj, nl, nm);
  refMatmul(rE, rF, rG, ni, nl, nj);
  bool ok = checkExact("3mm E", gE.data(), rE.data(), rE.size());
  ok = checkExact("3mm F", gF.data(), rF.data(), rF.size()) && ok;
  ok = checkExact("3mm G", gG.data(), rG.data(), rG.size()) && ok;
  CHECK(cudaFree(dA));
  CHECK(cudaFree(dB));
  CHECK(cudaFree(dC));
  CHECK(cudaFree(dD));
  CHECK(cudaFree(dE));
  CHECK(cudaFree(dF));
  CHECK(cudaFree(dG));
  return finish(ms, ok);
}
