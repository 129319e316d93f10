// h4_covariance: PolyBench-GPU covariance on an n x m float data matrix
// (n = 96 observations of m = 4096 variables), three kernels with `size_t`
// indices: (1) mean_kernel, one thread per column j (blocks of 128) walking
// the rows, `mean[j] += data[i*m + j]` in global memory, then `/= float_n`;
// (2) reduce_kernel, one thread per element (16 x 16 blocks), `data[i*m + j]
// -= mean[j]`; (3) covar_kernel, one thread per j1 (blocks of 128), loops
// over j2 >= j1 and i, `symmat[j1*m + j2] += data[i*m + j1] * data[i*m + j2]`
// accumulated in global memory, mirrored `symmat[j2*m + j1] = symmat[j1*m +
// j2]` (symmat m x m = 64 MB). Each kernel launched once. Timed: the three
// kernels. Checked exactly (fmaf where the PTX has fma.rn; IEEE division).
#include "../common.h"

typedef float DATA_TYPE;

__global__ void mean_kernel(DATA_TYPE *mean, DATA_TYPE *data, DATA_TYPE float_n, size_t m, size_t n) {
  size_t j = blockIdx.x * blockDim.x + threadIdx.x;

  if (j < m) {
    mean[j] = 0.0;

    for (size_t i = 0; i < n; i++) {
      mean[j] += data[i * m + j];
    }
    mean[j] /= float_n;
  }
}

__global__ void reduce_kernel(DATA_TYPE *mean, DATA_TYPE *data, size_t m, size_t n) {
  size_t j = blockIdx.x * blockDim.x + threadIdx.x;
  size_t i = blockIdx.y * blockDim.y + threadIdx.y;

  if ((i < n) && (j < m)) {
    data[i * m + j] -= mean[j];
  }
}

__global__ void covar_kernel(DATA_TYPE *symmat, DATA_TYPE *data, size_t m, size_t n) {
  size_t j1 = blockIdx.x * blockDim.x + threadIdx.x;

  if (j1 < m) {
    for (size_t j2 = j1; j2 < m; j2++) {
      symmat[j1 * m + j2] = 0.0;
      for (size_t i = 0; i < n; i++) {
        symmat[j1 * m + j2] += data[i * m + j1] * data[i * m + j2];
      }
      symmat[j2 * m + j1] = symmat[j1 * m + j2];
    }
  }
}

int main(int argc, char **argv) {
  const size_t n = size_t(argInt(argc, argv, 1, 96)), m = size_t(argInt(argc, argv, 2, 4096));
  const float float_n = float(n);
  const size_t nm = n * m, mm = m * m;
  std::vector<float> data(nm);
  fillFloats(data, 4301);
  float *ddata = toDevice(data), *dmean, *dsym;
  CHECK(cudaMalloc(&dmean, m * sizeof(float)));
  CHECK(cudaMalloc(&dsym, mm * sizeof(float)));
  CHECK(cudaMemset(dsym, 0, mm * sizeof(float)));
  CHECK(cudaDeviceSynchronize());
  GpuTimer t;
  t.start();
  mean_kernel<<<blocksFor(long(m), 128), 128>>>(dmean, ddata, float_n, m, n);
  CHECK_LAUNCH();
  reduce_kernel<<<dim3(blocksFor(long(m), 16), blocksFor(long(n), 16)), dim3(16, 16)>>>(dmean, ddata, m, n);
  CHECK_LAUNCH();
  covar_kernel<<<blocksFor(long(m), 128), 128>>>(dsym, ddata, m, n);
  CHECK_LAUNCH();
  float ms = t.stop();
  std::vector<float> gmean = fromDevice(dmean, m), gdata = fromDevice(ddata, nm), gsym = fromDevice(dsym, mm);

  std::vector<float> rmean(m), rdata(data), rsym(mm);
  for (size_t j = 0; j < m; j++) {
    float s = 0.0f;
    for (size_t i = 0; i < n; i++) s += data[i * m + j];
    rmean[j] = s / float_n;
  }
  for (size_t i = 0; i < n; i++)
    for (size_t j = 0; j < m; j++) rdata[i * m + j] = data[i * m + j] - rmean[j];
  std::vector<float> tr(nm);  // column j contiguous
  for (size_t i = 0; i < n; i++)
    for (size_t j = 0; j < m; j++) tr[j * n + i] = rdata[i * m + j];
  for (size_t j1 = 0; j1 < m; j1++) {
    const float *c1 = &tr[j1 * n];
    for (size_t j2 = j1; j2 < m; j2++) {
      const float *c2 = &tr[j2 * n];
      float s = 0.0f;
      for (size_t i = 0; i < n; i++) s = std::fmaf(c1[i], c2[i], s);
      rsym[j1 * m + j2] = s;
      rsym[j2 * m + j1] = s;
    }
  }
  bool ok = checkExact("covariance mean", gmean.data(), rmean.data(), m);
  ok = checkExact("covariance data", gdata.data(), rdata.data(), nm) && ok;
  ok = checkExact("covariance symmat", gsym.data(), rsym.data(), mm) && ok;
  CHECK(cudaFree(ddata));
  CHECK(cudaFree(dmean));
  CHECK(cudaFree(dsym));
  return finish(ms, ok);
}
