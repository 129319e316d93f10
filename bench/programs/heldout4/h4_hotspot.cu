// h4_hotspot: Rodinia hotspot written without the pyramid tiling: one thread
// per grid cell (16 x 16 blocks, BLOCK_SIZE 16), the temperature and power
// arrays row-major (rows x cols = 4096 x 4096 floats, 64 MB each), neighbour
// indices clamped at the chip's edges, `temp_dst[idx] = temp_src[idx] +
// step_div_Cap * (power[idx] + (temp_src[S] + temp_src[N] - 2.0f*temp_src[idx])
// * Ry_1 + (temp_src[E] + temp_src[W] - 2.0f*temp_src[idx]) * Rx_1 + (amb_temp
// - temp_src[idx]) * Rz_1)`, with step/Cap and 1/R computed in the kernel
// as Rodinia does. The chip constants follow Rodinia's (t_chip 0.0005,
// 0.016 m chip, K_SI 100, SPEC_HEAT_SI 1.75e6, FACTOR_CHIP 0.5). 4 time
// steps, ping-pong between two temperature buffers (4 launches). Timed: the
// 4 launches. Checked exactly (the device's operation order read from the
// PTX, with fmaf where it has fma.rn or a contractable mul/add pair).
#include "../common.h"

#define BLOCK_SIZE 16

__global__ void hotspot_naive(float *power, float *temp_src, float *temp_dst, int grid_cols, int grid_rows, float Cap,
                              float Rx, float Ry, float Rz, float step) {
  float amb_temp = 80.0f;
  float step_div_Cap = step / Cap;
  float Rx_1 = 1 / Rx;
  float Ry_1 = 1 / Ry;
  float Rz_1 = 1 / Rz;

  int c = blockIdx.x * BLOCK_SIZE + threadIdx.x;
  int r = blockIdx.y * BLOCK_SIZE + threadIdx.y;

  if (r < grid_rows && c < grid_cols) {
    int idx = r * grid_cols + c;
    int N = (r == 0) ? idx : idx - grid_cols;
    int S = (r == grid_rows - 1) ? idx : idx + grid_cols;
    int W = (c == 0) ? idx : idx - 1;
    int E = (c == grid_cols - 1) ? idx : idx + 1;

    temp_dst[idx] = temp_src[idx] + step_div_Cap * (power[idx] + (temp_src[S] + temp_src[N] - 2.0f * temp_src[idx]) * Ry_1 +
                                                    (temp_src[E] + temp_src[W] - 2.0f * temp_src[idx]) * Rx_1 +
                                                    (amb_temp - temp_src[idx]) * Rz_1);
  }
}

// The PTX's order (nvcc 13.0); c2 = t + t for 2.0f*t.
static float refCell(float t, float n, float s, float e, float w, float p, float sdc, float rx1, float ry1, float rz1) {
  const float c2 = t + t;
  const float v = (s + n) - c2;
  const float h = (e + w) - c2;
  float acc = std::fmaf(v, ry1, p);
  acc = std::fmaf(h, rx1, acc);
  acc = std::fmaf(80.0f - t, rz1, acc);
  return std::fmaf(sdc, acc, t);
}

int main(int argc, char **argv) {
  const int rows = argInt(argc, argv, 1, 4096), cols = argInt(argc, argv, 2, 4096), iters = argInt(argc, argv, 3, 4);
  const size_t total = size_t(rows) * cols;
  // Rodinia's chip parameters.
  const double t_chip = 0.0005, chip_height = 0.016, chip_width = 0.016, K_SI = 100, SPEC_HEAT_SI = 1.75e6,
               FACTOR_CHIP = 0.5, MAX_PD = 3.0e6, PRECISION = 0.001;
  const float grid_height = float(chip_height / rows), grid_width = float(chip_width / cols);
  const float Cap = float(FACTOR_CHIP * SPEC_HEAT_SI * t_chip * grid_width * grid_height);
  const float Rx = float(grid_width / (2.0 * K_SI * t_chip * grid_height));
  const float Ry = float(grid_height / (2.0 * K_SI * t_chip * grid_width));
  const float Rz = float(t_chip / (K_SI * grid_height * grid_width));
  const float max_slope = float(MAX_PD / (FACTOR_CHIP * t_chip * SPEC_HEAT_SI));
  const float step = float(PRECISION / max_slope);

  std::vector<float> temp(total), power(total);
  fillFloats(temp, 4801, 323.0f, 343.0f);
  fillFloats(power, 4802, 1e-6f, 5e-4f);
  float *dpower = toDevice(power), *dt0 = toDevice(temp), *dt1;
  CHECK(cudaMalloc(&dt1, total * sizeof(float)));
  CHECK(cudaDeviceSynchronize());
  dim3 block(BLOCK_SIZE, BLOCK_SIZE);
  dim3 grid(blocksFor(cols, BLOCK_SIZE), blocksFor(rows, BLOCK_SIZE));
  GpuTimer t;
  t.start();
  float *src = dt0, *dst = dt1;
  for (int it = 0; it < iters; it++) {
    hotspot_naive<<<grid, block>>>(dpower, src, dst, cols, rows, Cap, Rx, Ry, Rz, step);
    CHECK_LAUNCH();
    std::swap(src, dst);
  }
  float ms = t.stop();
  std::vector<float> gout = fromDevice(src, total);

  const float sdc = step / Cap, rx1 = 1 / Rx, ry1 = 1 / Ry, rz1 = 1 / Rz;
  std::vector<float> a(temp), b(total);
  for (int it = 0; it < iters; it++) {
    for (size_t r = 0; r < size_t(rows); r++)
      for (size_t c = 0; c < size_t(cols); c++) {
        const size_t idx = r * cols + c;
        const size_t N = r == 0 ? idx : idx - cols, S = r == size_t(rows) - 1 ? idx : idx + cols;
        const size_t W = c == 0 ? idx : idx - 1, E = c == size_t(cols) - 1 ? idx : idx + 1;
        b[idx] = refCell(a[idx], a[N], a[S], a[E], a[W], power[idx], sdc, rx1, ry1, rz1);
      }
    std::swap(a, b);
  }
  bool ok = checkExact("hotspot", gout.data(), a.data(), total);
  CHECK(cudaFree(dpower));
  CHECK(cudaFree(dt0));
  CHECK(cudaFree(dt1));
  return finish(ms, ok);
}
