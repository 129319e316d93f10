// h2_row_softmax: naive row softmax of a rows x cols float matrix (8192 x
// 1024, 32 MB in, 32 MB out), one thread per row, three passes over the row
// in global memory: (1) the row max with fmaxf, (2) the sum of
// expf(x - max), (3) out[j] = expf(x - max) / sum written to a separate
// output array (the input is left untouched). Blocks of 256 threads. One
// launch. Timed: the kernel only. Checked: relative 1e-3 (the device's expf
// is not the host's), and the input unchanged (exact).
#include "../common.h"

__global__ void softmax_rows(const float *in, float *out, int rows, int cols) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  const float *x = in + (size_t)r * cols;
  float *y = out + (size_t)r * cols;
  float mx = x[0];
  for (int j = 1; j < cols; j++) mx = fmaxf(mx, x[j]);
  float sum = 0.0f;
  for (int j = 0; j < cols; j++) sum += expf(x[j] - mx);
  for (int j = 0; j < cols; j++) y[j] = expf(x[j] - mx) / sum;
}

int main(int argc, char **argv) {
  const int rows = argInt(argc, argv, 1, 8192), cols = argInt(argc, argv, 2, 1024);
  const size_t n = size_t(rows) * cols;
  std::vector<float> in(n);
  fillFloats(in, 1401, 0.25f, 6.25f);
  float *din = toDevice(in), *dout;
  CHECK(cudaMalloc(&dout, n * sizeof(float)));
  CHECK(cudaDeviceSynchronize());
  GpuTimer t;
  t.start();
  softmax_rows<<<blocksFor(rows, 256), 256>>>(din, dout, rows, cols);
  CHECK_LAUNCH();
  float ms = t.stop();
  std::vector<float> out = fromDevice(dout, n);
  std::vector<float> inAfter = fromDevice(din, n);

  std::vector<float> ref(n);
  for (int r = 0; r < rows; r++) {
    const float *x = in.data() + size_t(r) * cols;
    float mx = x[0];
    for (int j = 1; j < cols; j++) mx = std::fmax(mx, x[j]);
    double sum = 0.0;
    for (int j = 0; j < cols; j++) sum += std::exp(double(x[j]) - mx);
    for (int j = 0; j < cols; j++) ref[size_t(r) * cols + j] = float(std::exp(double(x[j]) - mx) / sum);
  }
  bool ok = checkFloats("softmax", out.data(), ref.data(), n, 1e-3);
  ok = checkExact("input", inAfter.data(), in.data(), n) && ok;
  CHECK(cudaFree(din));
  CHECK(cudaFree(dout));
  return finish(ms, ok);
}
