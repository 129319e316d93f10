// fdtd2d (PolyBench/GPU fdtd-2d): 2-D finite-difference time domain,
// 1024 x 1024 float fields ex, ey, hz, 20 time steps of three kernels
// (ey with the source row, ex, hz), blocks of 32 x 8: 60 launches.
// Timed: all kernels. Checked against the CPU with a tolerance relative to
// the field's largest value (fma on the device).
#include "common.h"

__global__ void fdtd_step1_kernel(const float *fict, float *ex, float *ey, const float *hz, int t, int nx, int ny) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < nx && j < ny) {
    if (i == 0)
      ey[i * ny + j] = fict[t];
    else
      ey[i * ny + j] = ey[i * ny + j] - 0.5f * (hz[i * ny + j] - hz[(i - 1) * ny + j]);
  }
}

__global__ void fdtd_step2_kernel(float *ex, const float *ey, const float *hz, int nx, int ny) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < nx && j < ny && j > 0) ex[i * ny + j] = ex[i * ny + j] - 0.5f * (hz[i * ny + j] - hz[i * ny + (j - 1)]);
}

__global__ void fdtd_step3_kernel(const float *ex, const float *ey, float *hz, int nx, int ny) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < nx - 1 && j < ny - 1)
    hz[i * ny + j] = hz[i * ny + j] - 0.7f * (ex[i * ny + (j + 1)] - ex[i * ny + j] + ey[(i + 1) * ny + j] - ey[i * ny + j]);
}

int main(int argc, char **argv) {
  const int nx = argInt(argc, argv, 1, 1024), ny = argInt(argc, argv, 2, 1024), tmax = argInt(argc, argv, 3, 20);
  const size_t cells = size_t(nx) * ny;
  std::vector<float> fict(tmax), ex(cells), ey(cells), hz(cells);
  for (int t = 0; t < tmax; t++) fict[t] = float(t) + 1.0f;
  fillFloats(ex, 141);
  fillFloats(ey, 142);
  fillFloats(hz, 143);
  float *dfict = toDevice(fict), *dex = toDevice(ex), *dey = toDevice(ey), *dhz = toDevice(hz);
  dim3 block(32, 8), grid(blocksFor(ny, 32), blocksFor(nx, 8));
  GpuTimer timer;
  timer.start();
  for (int t = 0; t < tmax; t++) {
    fdtd_step1_kernel<<<grid, block>>>(dfict, dex, dey, dhz, t, nx, ny);
    CHECK_LAUNCH();
    fdtd_step2_kernel<<<grid, block>>>(dex, dey, dhz, nx, ny);
    CHECK_LAUNCH();
    fdtd_step3_kernel<<<grid, block>>>(dex, dey, dhz, nx, ny);
    CHECK_LAUNCH();
  }
  float ms = timer.stop();
  std::vector<float> gex = fromDevice(dex, cells), gey = fromDevice(dey, cells), ghz = fromDevice(dhz, cells);

  for (int t = 0; t < tmax; t++) {
    for (int j = 0; j < ny; j++) ey[j] = fict[t];
    for (int i = 1; i < nx; i++)
      for (int j = 0; j < ny; j++) ey[i * ny + j] = ey[i * ny + j] - 0.5f * (hz[i * ny + j] - hz[(i - 1) * ny + j]);
    for (int i = 0; i < nx; i++)
      for (int j = 1; j < ny; j++) ex[i * ny + j] = ex[i * ny + j] - 0.5f * (hz[i * ny + j] - hz[i * ny + (j - 1)]);
    for (int i = 0; i < nx - 1; i++)
      for (int j = 0; j < ny - 1; j++)
        hz[i * ny + j] = hz[i * ny + j] - 0.7f * (ex[i * ny + (j + 1)] - ex[i * ny + j] + ey[(i + 1) * ny + j] - ey[i * ny + j]);
  }
  bool ok = checkFloats("ex", gex.data(), ex.data(), cells, 1e-4, maxAbs(ex.data(), cells));
  ok = checkFloats("ey", gey.data(), ey.data(), cells, 1e-4, maxAbs(ey.data(), cells)) && ok;
  ok = checkFloats("hz", ghz.data(), hz.data(), cells, 1e-4, maxAbs(hz.data(), cells)) && ok;
  return finish(ms, ok);
}
