// h6_hotspot_transpose: a Rodinia-hotspot-like explicit thermal step on a
// rows x cols = 4000 x 4100 float grid (temp + power, 131 MB read a step),
// one thread per cell, 16 x 16 blocks, int indices, neighbours clamped at the
// borders (`N = (r == 0) ? c : c - cols`, ...): `out = t + step_div_cap *
// (power + (S + N - 2t)*Ry_1 + (E + W - 2t)*Rx_1 + (amb - t)*Rz_1)`; 2 steps,
// ping-pong. Then a naive transpose of the result, 8 x 8 blocks,
// `out[x*rows + y] = in[y*cols + x]` (neither size a multiple of 8 or 16).
// Timed: the 2 steps and the transpose. Checked: the temperatures against a
// float CPU reference with rtol 1e-5 (the device contracts into fma); the
// transpose exactly against the transpose of the device's temperatures.
#include "../common.h"

#define BLOCK_SIZE 16
#define TBLOCK 8

__global__ void hotspot_step(const float *power, const float *temp_src, float *temp_dst, int rows, int cols,
                             float step_div_cap, float Rx_1, float Ry_1, float Rz_1, float amb_temp) {
  int bx = blockIdx.x, by = blockIdx.y;
  int tx = threadIdx.x, ty = threadIdx.y;
  int c = bx * BLOCK_SIZE + tx;
  int r = by * BLOCK_SIZE + ty;
  if (r >= rows || c >= cols) return;
  int idx = r * cols + c;
  int N = (r == 0) ? idx : idx - cols;
  int S = (r == rows - 1) ? idx : idx + cols;
  int W = (c == 0) ? idx : idx - 1;
  int E = (c == cols - 1) ? idx : idx + 1;
  float t = temp_src[idx];
  temp_dst[idx] = t + step_div_cap * (power[idx] + (temp_src[S] + temp_src[N] - 2.0f * t) * Ry_1 +
                                      (temp_src[E] + temp_src[W] - 2.0f * t) * Rx_1 + (amb_temp - t) * Rz_1);
}

__global__ void transpose_naive(const float *in, float *out, int rows, int cols) {
  int x = blockIdx.x * TBLOCK + threadIdx.x;
  int y = blockIdx.y * TBLOCK + threadIdx.y;
  if (x < cols && y < rows) out[x * rows + y] = in[y * cols + x];
}

int main(int argc, char **argv) {
  const int rows = argInt(argc, argv, 1, 4000), cols = argInt(argc, argv, 2, 4100);
  const size_t n = size_t(rows) * cols;
  const float step_div_cap = 0.5f, Rx_1 = 0.1f, Ry_1 = 0.1f, Rz_1 = 0.01f, amb = 80.0f;
  std::vector<float> temp(n), power(n);
  fillFloats(temp, 801, 320.0f, 340.0f);
  fillFloats(power, 802, 0.1f, 2.0f);
  float *dPower = toDevice(power), *dT0 = toDevice(temp), *dT1, *dTr;
  CHECK(cudaMalloc(&dT1, n * sizeof(float)));
  CHECK(cudaMalloc(&dTr, n * sizeof(float)));
  CHECK(cudaDeviceSynchronize());

  dim3 dimBlock(BLOCK_SIZE, BLOCK_SIZE);
  dim3 dimGrid((cols + BLOCK_SIZE - 1) / BLOCK_SIZE, (rows + BLOCK_SIZE - 1) / BLOCK_SIZE);
  dim3 tBlock(TBLOCK, TBLOCK);
  dim3 tGrid((cols + TBLOCK - 1) / TBLOCK, (rows + TBLOCK - 1) / TBLOCK);
  float *MatrixTemp[2] = {dT0, dT1};
  int src = 1, dst = 0;
  const int total_iterations = 2;
  GpuTimer t;
  t.start();
  for (int i = 0; i < total_iterations; i++) {
    int tmp = src;
    src = dst;
    dst = tmp;
    hotspot_step<<<dimGrid, dimBlock>>>(dPower, MatrixTemp[src], MatrixTemp[dst], rows, cols, step_div_cap, Rx_1,
                                        Ry_1, Rz_1, amb);
    CHECK_LAUNCH();
  }
  transpose_naive<<<tGrid, tBlock>>>(MatrixTemp[dst], dTr, rows, cols);
  CHECK_LAUNCH();
  float ms = t.stop();
  std::vector<float> res = fromDevice(MatrixTemp[dst], n), tr = fromDevice(dTr, n);

  std::vector<float> a(temp), b(n);
  for (int it = 0; it < total_iterations; it++) {
    for (int r = 0; r < rows; r++)
      for (int c = 0; c < cols; c++) {
        size_t idx = size_t(r) * cols + c;
        float tc = a[idx];
        float tn = a[r == 0 ? idx : idx - cols], ts = a[r == rows - 1 ? idx : idx + cols];
        float tw = a[c == 0 ? idx : idx - 1], te = a[c == cols - 1 ? idx : idx + 1];
        b[idx] = tc + step_div_cap * (power[idx] + (ts + tn - 2.0f * tc) * Ry_1 + (te + tw - 2.0f * tc) * Rx_1 +
                                      (amb - tc) * Rz_1);
      }
    a.swap(b);
  }
  bool ok = checkFloats("hotspot temperatures", res.data(), a.data(), n, 1e-5);
  std::vector<float> tref(n);
  for (size_t y = 0; y < size_t(rows); y++)
    for (size_t x = 0; x < size_t(cols); x++) tref[x * rows + y] = res[y * cols + x];
  ok = checkExact("transpose of the result", tr.data(), tref.data(), n) && ok;
  CHECK(cudaFree(dPower));
  CHECK(cudaFree(dT0));
  CHECK(cudaFree(dT1));
  CHECK(cudaFree(dTr));
  return finish(ms, ok);
}
