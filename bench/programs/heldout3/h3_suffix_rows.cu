// h3_suffix_rows: a 2-D image kernel that walks each row from its right end
// down to column 0, one thread per row, writing the running (suffix) sum:
// `for (j = n-1; j >= 0; --j) { s += in[row*n + j]; out[row*n + j] = s; }`.
// float (rows x n = 8192 x 2048, 64 MB in, 64 MB out; 1-D blocks of 128)
// and int (the same sizes; blocks of 256, `n` a compile-time 2048 in a
// template parameter). Each launched twice. Timed: the 4 launches. Checked
// exactly (the float sums in the same order).
#include "../common.h"

__global__ void suffixSumRowsF(const float *in, float *out, int rows, int n) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < rows) {
    float s = 0.0f;
    for (int j = n - 1; j >= 0; --j) {
      s += in[row * n + j];
      out[row * n + j] = s;
    }
  }
}

template <int N> __global__ void suffixSumRowsI(const int *in, int *out, int rows) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < rows) {
    int s = 0;
    for (int j = N - 1; j >= 0; --j) {
      s += in[row * N + j];
      out[row * N + j] = s;
    }
  }
}

int main(int argc, char **argv) {
  const int rows = argInt(argc, argv, 1, 8192);
  const int n = 2048;
  const size_t total = size_t(rows) * n;
  std::vector<float> fin(total);
  fillFloats(fin, 3901);
  std::vector<int> iin(total);
  for (size_t k = 0; k < total; k++) {
    int v = int(hashAt(3902, k) % 2000u) - 1000;  // -1000 .. 1000 without 0
    iin[k] = v >= 0 ? v + 1 : v;
  }
  float *dfin = toDevice(fin), *dfout;
  int *diin = toDevice(iin), *diout;
  CHECK(cudaMalloc(&dfout, total * sizeof(float)));
  CHECK(cudaMalloc(&diout, total * sizeof(int)));
  CHECK(cudaDeviceSynchronize());
  GpuTimer t;
  t.start();
  for (int it = 0; it < 2; it++) {
    suffixSumRowsF<<<blocksFor(rows, 128), 128>>>(dfin, dfout, rows, n);
    CHECK_LAUNCH();
    suffixSumRowsI<2048><<<blocksFor(rows, 256), 256>>>(diin, diout, rows);
    CHECK_LAUNCH();
  }
  float ms = t.stop();
  std::vector<float> fout = fromDevice(dfout, total);
  std::vector<int> iout = fromDevice(diout, total);

  std::vector<float> fref(total);
  std::vector<int> iref(total);
  for (size_t r = 0; r < size_t(rows); r++) {
    float s = 0.0f;
    int si = 0;
    for (long j = n - 1; j >= 0; --j) {
      s += fin[r * n + j];
      fref[r * n + j] = s;
      si += iin[r * n + j];
      iref[r * n + j] = si;
    }
  }
  bool ok = checkExact("suffixSumRowsF", fout.data(), fref.data(), total);
  ok = checkExact("suffixSumRowsI", iout.data(), iref.data(), total) && ok;
  CHECK(cudaFree(dfin));
  CHECK(cudaFree(dfout));
  CHECK(cudaFree(diin));
  CHECK(cudaFree(diout));
  return finish(ms, ok);
}
