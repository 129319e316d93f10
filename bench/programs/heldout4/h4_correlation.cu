// h4_correlation: PolyBench-GPU correlation on an n x m float data matrix
// (n = 128 observations of m = 4096 variables), four kernels with `int`
// indices, as the suite writes them: (1) mean_kernel, one thread per column
// j walking the rows, `mean[j] += data[i*m + j]` in global memory, then
// `mean[j] /= float_n`; (2) std_kernel, the same walk, `std[j] += (data[i*m+j]
// - mean[j]) * (data[i*m+j] - mean[j])`, then `/= float_n`, `sqrt`, and 1.0
// where `<= EPS`; (3) reduce_kernel, one thread per element (32 x 8 blocks),
// `data[i*m+j] -= mean[j]; data[i*m+j] /= sqrt(float_n) * std[j]`; (4)
// corr_kernel, one thread per j1 (blocks of 256) with loops over j2 and i,
// `symmat[j1*m + j2] += data[i*m + j1] * data[i*m + j2]` accumulated in global
// memory, then mirrored `symmat[j2*m + j1] = symmat[j1*m + j2]` (symmat is
// m x m = 64 MB, its rows written with stride m across threads). Each kernel
// launched once. Timed: the four kernels. Checked exactly (fmaf where the
// PTX has fma.rn; IEEE division and square root on both sides).
#include "../common.h"

#define EPS 0.005f
typedef float DATA_TYPE;

__global__ void mean_kernel(DATA_TYPE *mean, DATA_TYPE *data, DATA_TYPE float_n, int m, int n) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;

  if (j < m) {
    mean[j] = 0.0;

    int i;
    for (i = 0; i < n; i++) {
      mean[j] += data[i * m + j];
    }

    mean[j] /= (DATA_TYPE)float_n;
  }
}

__global__ void std_kernel(DATA_TYPE *mean, DATA_TYPE *std, DATA_TYPE *data, DATA_TYPE float_n, int m, int n) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;

  if (j < m) {
    std[j] = 0.0;

    int i;
    for (i = 0; i < n; i++) {
      std[j] += (data[i * m + j] - mean[j]) * (data[i * m + j] - mean[j]);
    }
    std[j] /= (float_n);
    std[j] = sqrt(std[j]);
    if (std[j] <= EPS) {
      std[j] = 1.0;
    }
  }
}

__global__ void reduce_kernel(DATA_TYPE *mean, DATA_TYPE *std, DATA_TYPE *data, DATA_TYPE float_n, int m, int n) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  int i = blockIdx.y * blockDim.y + threadIdx.y;

  if ((i < n) && (j < m)) {
    data[i * m + j] -= mean[j];
    data[i * m + j] /= (sqrt(float_n) * std[j]);
  }
}

__global__ void corr_kernel(DATA_TYPE *symmat, DATA_TYPE *data, int m, int n) {
  int j1 = blockIdx.x * blockDim.x + threadIdx.x;

  int i, j2;
  if (j1 < m) {
    symmat[j1 * m + j1] = 1.0;

    for (j2 = (j1 + 1); j2 < m; j2++) {
      symmat[j1 * m + j2] = 0.0;

      for (i = 0; i < n; i++) {
        symmat[j1 * m + j2] += data[i * m + j1] * data[i * m + j2];
      }
      symmat[j2 * m + j1] = symmat[j1 * m + j2];
    }
  }
}

int main(int argc, char **argv) {
  const int n = argInt(argc, argv, 1, 128), m = argInt(argc, argv, 2, 4096);
  const float float_n = float(n);
  const size_t nm = size_t(n) * m, mm = size_t(m) * m;
  std::vector<float> data(nm);
  fillFloats(data, 4201);
  float *ddata = toDevice(data), *dmean, *dstd, *dsym;
  CHECK(cudaMalloc(&dmean, m * sizeof(float)));
  CHECK(cudaMalloc(&dstd, m * sizeof(float)));
  CHECK(cudaMalloc(&dsym, mm * sizeof(float)));
  CHECK(cudaMemset(dsym, 0, mm * sizeof(float)));
  CHECK(cudaDeviceSynchronize());
  GpuTimer t;
  t.start();
  mean_kernel<<<blocksFor(m, 256), 256>>>(dmean, ddata, float_n, m, n);
  CHECK_LAUNCH();
  std_kernel<<<blocksFor(m, 256), 256>>>(dmean, dstd, ddata, float_n, m, n);
  CHECK_LAUNCH();
  reduce_kernel<<<dim3(blocksFor(m, 32), blocksFor(n, 8)), dim3(32, 8)>>>(dmean, dstd, ddata, float_n, m, n);
  CHECK_LAUNCH();
  corr_kernel<<<blocksFor(m, 256), 256>>>(dsym, ddata, m, n);
  CHECK_LAUNCH();
  float ms = t.stop();
  std::vector<float> gmean = fromDevice(dmean, m), gstd = fromDevice(dstd, m), gdata = fromDevice(ddata, nm),
                     gsym = fromDevice(dsym, mm);

  std::vector<float> rmean(m), rstd(m), rdata(data), rsym(mm, 0.0f);
  for (int j = 0; j < m; j++) {
    float s = 0.0f;
    for (int i = 0; i < n; i++) s += data[size_t(i) * m + j];
    rmean[j] = s / float_n;
    float v = 0.0f;
    for (int i = 0; i < n; i++) {
      const float d = data[size_t(i) * m + j] - rmean[j];
      v = std::fmaf(d, d, v);
    }
    v = std::sqrt(v / float_n);
    rstd[j] = v <= EPS ? 1.0f : v;
  }
  const float sq = std::sqrt(float_n);
  for (size_t i = 0; i < size_t(n); i++)
    for (size_t j = 0; j < size_t(m); j++) {
      const float d = data[i * m + j] - rmean[j];
      rdata[i * m + j] = d / (sq * rstd[j]);
    }
  // The reduced data transposed (column j contiguous) for the O(m*m*n) loop.
  std::vector<float> tr(nm);
  for (size_t i = 0; i < size_t(n); i++)
    for (size_t j = 0; j < size_t(m); j++) tr[j * n + i] = rdata[i * m + j];
  for (size_t j1 = 0; j1 < size_t(m); j1++) {
    rsym[j1 * m + j1] = 1.0f;
    const float *c1 = &tr[j1 * n];
    for (size_t j2 = j1 + 1; j2 < size_t(m); j2++) {
      const float *c2 = &tr[j2 * n];
      float s = 0.0f;
      for (size_t i = 0; i < size_t(n); i++) s = std::fmaf(c1[i], c2[i], s);
      rsym[j1 * m + j2] = s;
      rsym[j2 * m + j1] = s;
    }
  }
  bool ok = checkExact("correlation mean", gmean.data(), rmean.data(), m);
  ok = checkExact("correlation std", gstd.data(), rstd.data(), m) && ok;
  ok = checkExact("correlation data", gdata.data(), rdata.data(), nm) && ok;
  ok = checkExact("correlation symmat", gsym.data(), rsym.data(), mm) && ok;
  CHECK(cudaFree(ddata));
  CHECK(cudaFree(dmean));
  CHECK(cudaFree(dstd));
  CHECK(cudaFree(dsym));
  return finish(ms, ok);
}
