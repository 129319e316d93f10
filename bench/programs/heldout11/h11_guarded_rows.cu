// h11_guarded_rows: row walks with a guard or a clamp inside the loop, a
// thread per row of one float matrix M, rows x cols = 8192 x 4096 (134 MB),
// about 40% of its entries exactly 0 (the rest in [0.25, 1.25)).
// (1) threshold count, `int` indices: `if (M[r*cols + j] > t) cnt++` into
// an int (t 0.75), 128-thread blocks; (2) clamped sum, `unsigned` indices:
// `v = min(max(v, lo), hi); s += v` (lo 0.5, hi 1.0; the zeros clamp up to
// lo), 256-thread blocks; (3) skip-zero dot, `size_t` indices: `if (v !=
// 0.0f) s += v*x[j]`, 128-thread blocks. Sizes: rows cols (argv); t, lo, hi
// runtime parameters. Each kernel launched once. Timed: the 3 launches.
// Checked: (1) exact; (2) exact (plain float adds, the CPU adds the same
// clamped floats in the same order); (3) against a double CPU sum, relative
// tolerance 1e-3 (fma contraction on the device; positive inputs).
#include "../common.h"

__global__ void count_above(const float *M, int *cnt, int rows, int cols, float t) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < rows) {
    int c = 0;
    for (int j = 0; j < cols; j++)
      if (M[r * cols + j] > t) c++;
    cnt[r] = c;
  }
}

__global__ void clamp_sum(const float *M, float *out, unsigned rows, unsigned cols, float lo, float hi) {
  unsigned r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < rows) {
    float s = 0.0f;
    for (unsigned j = 0; j < cols; j++) {
      float v = M[r * cols + j];
      v = min(max(v, lo), hi);
      s += v;
    }
    out[r] = s;
  }
}

__global__ void skipzero_dot(const float *M, const float *x, float *y, size_t rows, size_t cols) {
  size_t r = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (r < rows) {
    float s = 0.0f;
    for (size_t j = 0; j < cols; j++) {
      float v = M[r * cols + j];
      if (v != 0.0f) s += v * x[j];
    }
    y[r] = s;
  }
}

int main(int argc, char **argv) {
  const int rows = argInt(argc, argv, 1, 8192), cols = argInt(argc, argv, 2, 4096);
  const float t = 0.75f, lo = 0.5f, hi = 1.0f;
  const size_t nm = size_t(rows) * cols;
  std::vector<float> M(nm), x(cols);
  fillFloats(M, 11301);
  for (size_t k = 0; k < nm; k++)
    if (hashAt(11302, k) % 5 < 2) M[k] = 0.0f;
  fillFloats(x, 11303);
  float *d_M = toDevice(M), *d_x = toDevice(x), *d_cl, *d_y;
  int *d_cnt;
  CHECK(cudaMalloc(&d_cnt, rows * sizeof(int)));
  CHECK(cudaMalloc(&d_cl, rows * sizeof(float)));
  CHECK(cudaMalloc(&d_y, rows * sizeof(float)));
  CHECK(cudaDeviceSynchronize());

  GpuTimer tm;
  tm.start();
  count_above<<<blocksFor(rows, 128), 128>>>(d_M, d_cnt, rows, cols, t);
  CHECK_LAUNCH();
  clamp_sum<<<blocksFor(rows, 256), 256>>>(d_M, d_cl, rows, cols, lo, hi);
  CHECK_LAUNCH();
  skipzero_dot<<<blocksFor(rows, 128), 128>>>(d_M, d_x, d_y, rows, cols);
  CHECK_LAUNCH();
  float ms = tm.stop();
  std::vector<int> gcnt = fromDevice(d_cnt, rows);
  std::vector<float> gcl = fromDevice(d_cl, rows), gy = fromDevice(d_y, rows);

  std::vector<int> wcnt(rows);
  std::vector<float> wcl(rows), wy(rows);
  for (int r = 0; r < rows; r++) {
    int c = 0;
    float s = 0.0f;
    double d = 0;
    for (int j = 0; j < cols; j++) {
      float v = M[size_t(r) * cols + j];
      if (v > t) c++;
      s += std::min(std::max(v, lo), hi);
      if (v != 0.0f) d += double(v) * x[j];
    }
    wcnt[r] = c;
    wcl[r] = s;
    wy[r] = float(d);
  }
  bool ok = checkExact("count_above", gcnt.data(), wcnt.data(), rows);
  ok = checkExact("clamp_sum", gcl.data(), wcl.data(), rows) && ok;
  ok = checkFloats("skipzero_dot", gy.data(), wy.data(), rows, 1e-3) && ok;

  CHECK(cudaFree(d_M));
  CHECK(cudaFree(d_x));
  CHECK(cudaFree(d_cnt));
  CHECK(cudaFree(d_cl));
  CHECK(cudaFree(d_y));
  return finish(ms, ok);
}
