// h9_hotspot3d: Rodinia hotspot3D. (1) Rodinia's `hotspotOpt1` as
// written: a thread per (x, y), 64 x 4 blocks, no bounds test (nx, ny
// multiples of the block), walking z with temp1/temp2/temp3 kept in
// registers, W/E/N/S clamped at the faces (`W = (i == 0) ? c : c - 1`),
// `int` indices, c += xy per layer; (2) the same update written thread per
// x-row, a thread per (y, z), blocks of 128, `int`, walking x with the
// clamps inside the loop (a row walk over the three arrays). Float
// temperature and power grids nx x ny x nz = 512 x 512 x 64 (64 MiB each,
// three of them), Rodinia's chip constants, ping-pong: ITERS1 = 4 launches
// of (1), then ITERS2 = 2 of (2). Sizes: nx ny nz ITERS1 ITERS2 (argv).
// Timed: all 6 launches. Checked: the final grid, rtol 1e-5 (the host
// evaluates the same sum in the same order; the device may contract).
#include "../common.h"

#define MAX_PD (3.0e6)
#define PRECISION 0.001
#define SPEC_HEAT_SI 1.75e6
#define K_SI 100
#define FACTOR_CHIP 0.5
#define AMB_TEMP 80.0f

__global__ void hotspotOpt1(float *p, float *tIn, float *tOut, float sdc, int nx, int ny, int nz, float ce, float cw,
                            float cn, float cs, float ct, float cb, float cc) {
  float amb_temp = AMB_TEMP;
  int i = blockDim.x * blockIdx.x + threadIdx.x;
  int j = blockDim.y * blockIdx.y + threadIdx.y;
  int c = i + j * nx;
  int xy = nx * ny;
  int W = (i == 0) ? c : c - 1;
  int E = (i == nx - 1) ? c : c + 1;
  int N = (j == 0) ? c : c - nx;
  int S = (j == ny - 1) ? c : c + nx;
  float temp1, temp2, temp3;
  temp1 = temp2 = tIn[c];
  temp3 = tIn[c + xy];
  tOut[c] = cc * temp2 + cw * tIn[W] + ce * tIn[E] + cs * tIn[S] + cn * tIn[N] + cb * temp1 + ct * temp3 +
            sdc * p[c] + ct * amb_temp;
  c += xy;
  W += xy;
  E += xy;
  N += xy;
  S += xy;
  for (int k = 1; k < nz - 1; ++k) {
    temp1 = temp2;
    temp2 = temp3;
    temp3 = tIn[c + xy];
    tOut[c] = cc * temp2 + cw * tIn[W] + ce * tIn[E] + cs * tIn[S] + cn * tIn[N] + cb * temp1 + ct * temp3 +
              sdc * p[c] + ct * amb_temp;
    c += xy;
    W += xy;
    E += xy;
    N += xy;
    S += xy;
  }
  temp1 = temp2;
  temp2 = temp3;
  tOut[c] = cc * temp2 + cw * tIn[W] + ce * tIn[E] + cs * tIn[S] + cn * tIn[N] + cb * temp1 + ct * temp3 +
            sdc * p[c] + ct * amb_temp;
}

__global__ void hotspot_rows(const float *p, const float *tIn, float *tOut, float sdc, int nx, int ny, int nz, float ce,
                             float cw, float cn, float cs, float ct, float cb, float cc) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < ny * nz) {
    int j = r % ny, k = r / ny, xy = nx * ny;
    int row = k * xy + j * nx;
    for (int i = 0; i < nx; i++) {
      int c = row + i;
      int W = (i == 0) ? c : c - 1;
      int E = (i == nx - 1) ? c : c + 1;
      int N = (j == 0) ? c : c - nx;
      int S = (j == ny - 1) ? c : c + nx;
      int B = (k == 0) ? c : c - xy;
      int T = (k == nz - 1) ? c : c + xy;
      tOut[c] = cc * tIn[c] + cw * tIn[W] + ce * tIn[E] + cs * tIn[S] + cn * tIn[N] + cb * tIn[B] + ct * tIn[T] +
                sdc * p[c] + ct * AMB_TEMP;
    }
  }
}

int main(int argc, char **argv) {
  const int nx = argInt(argc, argv, 1, 512), ny = argInt(argc, argv, 2, 512), nz = argInt(argc, argv, 3, 64);
  const int it1 = argInt(argc, argv, 4, 4), it2 = argInt(argc, argv, 5, 2);
  if (nx % 64 || ny % 4 || nz < 2) {
    std::fprintf(stderr, "nx must be a multiple of 64, ny of 4, nz >= 2\n");
    return 1;
  }
  const float t_chip = 0.0005f, chip_height = 0.016f, chip_width = 0.016f;
  float dx = chip_height / nx, dy = chip_width / ny, dz = t_chip / nz;
  float Cap = FACTOR_CHIP * SPEC_HEAT_SI * t_chip * dx * dy;
  float Rx = dy / (2.0 * K_SI * t_chip * dx), Ry = dx / (2.0 * K_SI * t_chip * dy), Rz = dz / (K_SI * dx * dy);
  float max_slope = MAX_PD / (FACTOR_CHIP * t_chip * SPEC_HEAT_SI);
  float dt = PRECISION / max_slope, stepDivCap = dt / Cap;
  float ce = stepDivCap / Rx, cw = ce, cn = stepDivCap / Ry, cs = cn, ct = stepDivCap / Rz, cb = ct;
  float cc = 1.0 - (2.0 * ce + 2.0 * cn + 3.0 * ct);

  const size_t n = size_t(nx) * ny * nz;
  std::vector<float> temp(n), power(n);
  fillFloats(temp, 9801, 320.0f, 340.0f);
  fillFloats(power, 9802, 0.0005f, 0.0025f);
  float *d_p = toDevice(power), *d_a = toDevice(temp), *d_b;
  CHECK(cudaMalloc(&d_b, n * sizeof(float)));
  CHECK(cudaDeviceSynchronize());

  dim3 block(64, 4), grid(nx / 64, ny / 4);
  GpuTimer t;
  t.start();
  float *in = d_a, *out = d_b;
  for (int it = 0; it < it1; it++) {
    hotspotOpt1<<<grid, block>>>(d_p, in, out, stepDivCap, nx, ny, nz, ce, cw, cn, cs, ct, cb, cc);
    CHECK_LAUNCH();
    std::swap(in, out);
  }
  for (int it = 0; it < it2; it++) {
    hotspot_rows<<<blocksFor(long(ny) * nz, 128), 128>>>(d_p, in, out, stepDivCap, nx, ny, nz, ce, cw, cn, cs, ct, cb,
                                                          cc);
    CHECK_LAUNCH();
    std::swap(in, out);
  }
  float ms = t.stop();
  std::vector<float> gT = fromDevice(in, n);

  std::vector<float> a = temp, b(n);
  const size_t xy = size_t(nx) * ny;
  for (int it = 0; it < it1 + it2; it++) {
    for (int k = 0; k < nz; k++)
      for (int j = 0; j < ny; j++)
        for (int i = 0; i < nx; i++) {
          size_t c = k * xy + size_t(j) * nx + i;
          size_t W = i == 0 ? c : c - 1, E = i == nx - 1 ? c : c + 1;
          size_t N = j == 0 ? c : c - nx, S = j == ny - 1 ? c : c + nx;
          size_t B = k == 0 ? c : c - xy, T = k == nz - 1 ? c : c + xy;
          b[c] = cc * a[c] + cw * a[W] + ce * a[E] + cs * a[S] + cn * a[N] + cb * a[B] + ct * a[T] + stepDivCap * power[c] +
                 ct * AMB_TEMP;
        }
    a.swap(b);
  }
  bool ok = checkFloats("hotspot3d temperature", gT.data(), a.data(), n, 1e-5);
  CHECK(cudaFree(d_p));
  CHECK(cudaFree(d_a));
  CHECK(cudaFree(d_b));
  return finish(ms, ok);
}
