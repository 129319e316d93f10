// hv_bicg (PolyBench/GPU bicg): s = A^T r and q = A p, A nx x ny float
// (4096 x 4096, 64 MB). Two kernels as PolyBench/GPU writes them, 256
// threads a block, int indices, the accumulators in global memory:
// kernel 1 a thread per column (`s[j] += A[i*ny+j]*r[i]`), kernel 2 a thread
// per row (`q[i] += A[i*ny+j]*p[j]`). One launch each. Timed: both kernels.
// Checked: relative 1e-3.
#include "../common.h"

__global__ void bicg_kernel1(const float *A, const float *r, float *s, int nx, int ny) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  if (j < ny) {
    s[j] = 0.0f;
    for (int i = 0; i < nx; i++) s[j] += A[i * ny + j] * r[i];
  }
}

__global__ void bicg_kernel2(const float *A, const float *p, float *q, int nx, int ny) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < nx) {
    q[i] = 0.0f;
    for (int j = 0; j < ny; j++) q[i] += A[i * ny + j] * p[j];
  }
}

int main(int argc, char **argv) {
  const int nx = argInt(argc, argv, 1, 4096), ny = argInt(argc, argv, 2, 4096);
  std::vector<float> A(size_t(nx) * ny), r(nx), p(ny);
  fillFloats(A, 311);
  fillFloats(r, 312);
  fillFloats(p, 313);
  float *dA = toDevice(A), *dr = toDevice(r), *dp = toDevice(p), *ds, *dq;
  CHECK(cudaMalloc(&ds, size_t(ny) * sizeof(float)));
  CHECK(cudaMalloc(&dq, size_t(nx) * sizeof(float)));
  GpuTimer t;
  t.start();
  bicg_kernel1<<<blocksFor(ny, 256), 256>>>(dA, dr, ds, nx, ny);
  CHECK_LAUNCH();
  bicg_kernel2<<<blocksFor(nx, 256), 256>>>(dA, dp, dq, nx, ny);
  CHECK_LAUNCH();
  float ms = t.stop();
  std::vector<float> s = fromDevice(ds, ny), q = fromDevice(dq, nx);

  std::vector<float> sref(ny, 0.0f), qref(nx, 0.0f);
  for (int i = 0; i < nx; i++)
    for (int j = 0; j < ny; j++) sref[j] += A[size_t(i) * ny + j] * r[i];
  for (int i = 0; i < nx; i++) {
    float acc = 0.0f;
    for (int j = 0; j < ny; j++) acc += A[size_t(i) * ny + j] * p[j];
    qref[i] = acc;
  }
  bool ok = checkFloats("s", s.data(), sref.data(), ny, 1e-3);
  ok = checkFloats("q", q.data(), qref.data(), nx, 1e-3) && ok;
  return finish(ms, ok);
}
