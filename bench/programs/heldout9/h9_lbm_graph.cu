// h9_lbm_graph: a D3Q19 lattice-Boltzmann BGK solver after Parboil lbm,
// written the way a user writes it first: distributions stored cell-major
// (array of structures, `f[cell*Q + q]`, Q = 19, `#define Q 19`), a pull
// scheme with periodic boundaries. (1) stream-and-collide, a thread per
// cell (x, y), z = blockIdx.z, 32 x 4 blocks, bounds-tested, `int`
// coordinates: gathers the 19 values of its upwind neighbours (`src[((zs*ny
// + ys)*nx + xs)*Q + q]`, wrapped with `%`), computes density and velocity,
// relaxes to the equilibrium, writes its own 19 values; (2) density, a
// thread per cell walking its row of 19 (`rho[cell] = sum_q f[cell*Q +
// q]`), `size_t`, blocks of 256. nx ny nz = 150 110 64 (1,056,000 cells,
// 80 MB a grid, two grids). One replay = (1) A -> B, (1) B -> A, (2) on A;
// the three launches are captured from a created stream into a CUDA graph,
// instantiated, and the graph launched REPLAYS = 3 times (6 time steps).
// Sizes: nx ny nz REPLAYS (argv). Timed: the graph launches (the stream
// synchronized before the stop event; capture and instantiation not
// timed). Checked: the final distributions and densities, rtol 1e-5 (floor
// 1e-2; the host repeats the arithmetic in the same order, the device
// contracts).
#include "../common.h"

#define Q 19

__constant__ int c_cx[Q], c_cy[Q], c_cz[Q];
__constant__ float c_w[Q];

static const int h_cx[Q] = {0, 1, -1, 0, 0, 0, 0, 1, -1, 1, -1, 1, -1, 1, -1, 0, 0, 0, 0};
static const int h_cy[Q] = {0, 0, 0, 1, -1, 0, 0, 1, 1, -1, -1, 0, 0, 0, 0, 1, -1, 1, -1};
static const int h_cz[Q] = {0, 0, 0, 0, 0, 1, -1, 0, 0, 0, 0, 1, 1, -1, -1, 1, 1, -1, -1};
static const float h_w[Q] = {1.f / 3,  1.f / 18, 1.f / 18, 1.f / 18, 1.f / 18, 1.f / 18, 1.f / 18,
                             1.f / 36, 1.f / 36, 1.f / 36, 1.f / 36, 1.f / 36, 1.f / 36, 1.f / 36,
                             1.f / 36, 1.f / 36, 1.f / 36, 1.f / 36, 1.f / 36};

__global__ void lbm_stream_collide(const float *src, float *dst, int nx, int ny, int nz, float omega) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  int z = blockIdx.z;
  if (x >= nx || y >= ny) return;
  float f[Q];
  float rho = 0.0f, ux = 0.0f, uy = 0.0f, uz = 0.0f;
#pragma unroll
  for (int q = 0; q < Q; q++) {
    int xs = (x - c_cx[q] + nx) % nx, ys = (y - c_cy[q] + ny) % ny, zs = (z - c_cz[q] + nz) % nz;
    f[q] = src[((zs * ny + ys) * nx + xs) * Q + q];
    rho += f[q];
    ux += c_cx[q] * f[q];
    uy += c_cy[q] * f[q];
    uz += c_cz[q] * f[q];
  }
  ux /= rho;
  uy /= rho;
  uz /= rho;
  float usq = 1.5f * (ux * ux + uy * uy + uz * uz);
  int cell = (z * ny + y) * nx + x;
#pragma unroll
  for (int q = 0; q < Q; q++) {
    float cu = 3.0f * (c_cx[q] * ux + c_cy[q] * uy + c_cz[q] * uz);
    float feq = c_w[q] * rho * (1.0f + cu + 0.5f * cu * cu - usq);
    dst[cell * Q + q] = f[q] - omega * (f[q] - feq);
  }
}

__global__ void lbm_density(const float *f, float *rho, size_t cells) {
  size_t cell = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (cell < cells) {
    float s = 0.0f;
    for (int q = 0; q < Q; q++) s += f[cell * Q + q];
    rho[cell] = s;
  }
}

static void hostStep(const std::vector<float> &src, std::vector<float> &dst, int nx, int ny, int nz, float omega) {
  for (int z = 0; z < nz; z++)
    for (int y = 0; y < ny; y++)
      for (int x = 0; x < nx; x++) {
        float f[Q], rho = 0.0f, ux = 0.0f, uy = 0.0f, uz = 0.0f;
        for (int q = 0; q < Q; q++) {
          int xs = (x - h_cx[q] + nx) % nx, ys = (y - h_cy[q] + ny) % ny, zs = (z - h_cz[q] + nz) % nz;
          f[q] = src[(size_t(zs * ny + ys) * nx + xs) * Q + q];
          rho += f[q];
          ux += h_cx[q] * f[q];
          uy += h_cy[q] * f[q];
          uz += h_cz[q] * f[q];
        }
        ux /= rho, uy /= rho, uz /= rho;
        float usq = 1.5f * (ux * ux + uy * uy + uz * uz);
        size_t cell = size_t(z * ny + y) * nx + x;
        for (int q = 0; q < Q; q++) {
          float cu = 3.0f * (h_cx[q] * ux + h_cy[q] * uy + h_cz[q] * uz);
          float feq = h_w[q] * rho * (1.0f + cu + 0.5f * cu * cu - usq);
          dst[cell * Q + q] = f[q] - omega * (f[q] - feq);
        }
      }
}

int main(int argc, char **argv) {
  const int nx = argInt(argc, argv, 1, 150), ny = argInt(argc, argv, 2, 110), nz = argInt(argc, argv, 3, 64);
  const int replays = argInt(argc, argv, 4, 3);
  const float omega = 1.2f;
  const size_t cells = size_t(nx) * ny * nz, n = cells * Q;
  std::vector<float> f(n);
  fillFloats(f, 9901, 0.9f, 1.1f);
  for (size_t i = 0; i < n; i++) f[i] *= h_w[i % Q];
  CHECK(cudaMemcpyToSymbol(c_cx, h_cx, sizeof(h_cx)));
  CHECK(cudaMemcpyToSymbol(c_cy, h_cy, sizeof(h_cy)));
  CHECK(cudaMemcpyToSymbol(c_cz, h_cz, sizeof(h_cz)));
  CHECK(cudaMemcpyToSymbol(c_w, h_w, sizeof(h_w)));
  float *d_A = toDevice(f), *d_B, *d_rho;
  CHECK(cudaMalloc(&d_B, n * sizeof(float)));
  CHECK(cudaMalloc(&d_rho, cells * sizeof(float)));
  cudaStream_t s;
  CHECK(cudaStreamCreate(&s));
  CHECK(cudaDeviceSynchronize());

  dim3 block(32, 4), grid((nx + 31) / 32, (ny + 3) / 4, nz);
  cudaGraph_t graph;
  cudaGraphExec_t exec;
  CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  lbm_stream_collide<<<grid, block, 0, s>>>(d_A, d_B, nx, ny, nz, omega);
  CHECK_LAUNCH();
  lbm_stream_collide<<<grid, block, 0, s>>>(d_B, d_A, nx, ny, nz, omega);
  CHECK_LAUNCH();
  lbm_density<<<blocksFor(long(cells), 256), 256, 0, s>>>(d_A, d_rho, cells);
  CHECK_LAUNCH();
  CHECK(cudaStreamEndCapture(s, &graph));
  CHECK(cudaGraphInstantiate(&exec, graph, 0));

  GpuTimer t;
  t.start();
  for (int r = 0; r < replays; r++) CHECK(cudaGraphLaunch(exec, s));
  CHECK(cudaStreamSynchronize(s));
  float ms = t.stop();
  std::vector<float> gf = fromDevice(d_A, n), grho = fromDevice(d_rho, cells);

  std::vector<float> g(n), rho(cells);
  for (int r = 0; r < replays; r++) {
    hostStep(f, g, nx, ny, nz, omega);
    hostStep(g, f, nx, ny, nz, omega);
  }
  for (size_t c = 0; c < cells; c++) {
    float sum = 0.0f;
    for (int q = 0; q < Q; q++) sum += f[c * Q + q];
    rho[c] = sum;
  }
  bool ok = checkFloats("lbm f", gf.data(), f.data(), n, 1e-5, 1e-2);
  ok = checkFloats("lbm rho", grho.data(), rho.data(), cells, 1e-5, 1e-2) && ok;
  CHECK(cudaGraphExecDestroy(exec));
  CHECK(cudaGraphDestroy(graph));
  CHECK(cudaStreamDestroy(s));
  CHECK(cudaFree(d_A));
  CHECK(cudaFree(d_B));
  CHECK(cudaFree(d_rho));
  return finish(ms, ok);
}
