// h11_bicg_gesummv_unsigned: several matrices walked in one row loop, float,
// a thread per row, register accumulators, `unsigned` indices throughout.
// All three matrices are rows x cols = 6144 x 4096 (100 MB each).
// (1) PolyBench gesummv with the accumulators in registers: `t += A[k]*x[j];
// s += B[k]*x[j]` with k = i*cols + j, then tmp[i] = t and y[i] = alpha*t +
// beta*s (alpha 1.5, beta 1.25), 256-thread blocks; (2) bicg-style, one
// matrix row shared by two products: `a = C[i*cols + j]; u += a*p[j]; v +=
// a*r[j]`, two outputs u, v, 128-thread blocks; (3) three matrices in one
// loop: `d += A[k]*x[j] + B[k]*z[j] + C[k]*w[j]`, 256-thread blocks. Sizes:
// rows cols (argv). Each kernel launched once. Timed: the 3 launches.
// Checked: tmp, y, u, v, d against double CPU sums, relative tolerance 1e-3
// (fma contraction on the device; positive inputs, no cancellation).
#include "../common.h"

__global__ void gesummv_rows(const float *A, const float *B, const float *x, float *tmp, float *y, unsigned rows,
                             unsigned cols, float alpha, float beta) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < rows) {
    float t = 0.0f, s = 0.0f;
    for (unsigned j = 0; j < cols; j++) {
      t += A[i * cols + j] * x[j];
      s += B[i * cols + j] * x[j];
    }
    tmp[i] = t;
    y[i] = alpha * t + beta * s;
  }
}

__global__ void bicg_two_outputs(const float *C, const float *p, const float *r, float *u, float *v, unsigned rows,
                                 unsigned cols) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < rows) {
    float su = 0.0f, sv = 0.0f;
    for (unsigned j = 0; j < cols; j++) {
      float a = C[i * cols + j];
      su += a * p[j];
      sv += a * r[j];
    }
    u[i] = su;
    v[i] = sv;
  }
}

__global__ void three_matrix_rows(const float *A, const float *B, const float *C, const float *x, const float *z,
                                  const float *w, float *d, unsigned rows, unsigned cols) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < rows) {
    float s = 0.0f;
    for (unsigned j = 0; j < cols; j++) {
      unsigned k = i * cols + j;
      s += A[k] * x[j] + B[k] * z[j] + C[k] * w[j];
    }
    d[i] = s;
  }
}

int main(int argc, char **argv) {
  const unsigned rows = argInt(argc, argv, 1, 6144), cols = argInt(argc, argv, 2, 4096);
  const float alpha = 1.5f, beta = 1.25f;
  const size_t nm = size_t(rows) * cols;
  std::vector<float> A(nm), B(nm), C(nm), x(cols), z(cols), w(cols), p(cols), r(cols);
  fillFloats(A, 11201);
  fillFloats(B, 11202);
  fillFloats(C, 11203);
  fillFloats(x, 11204);
  fillFloats(z, 11205);
  fillFloats(w, 11206);
  fillFloats(p, 11207);
  fillFloats(r, 11208);
  float *d_A = toDevice(A), *d_B = toDevice(B), *d_C = toDevice(C), *d_x = toDevice(x), *d_z = toDevice(z),
        *d_w = toDevice(w), *d_p = toDevice(p), *d_r = toDevice(r);
  float *d_tmp, *d_y, *d_u, *d_v, *d_d;
  CHECK(cudaMalloc(&d_tmp, rows * sizeof(float)));
  CHECK(cudaMalloc(&d_y, rows * sizeof(float)));
  CHECK(cudaMalloc(&d_u, rows * sizeof(float)));
  CHECK(cudaMalloc(&d_v, rows * sizeof(float)));
  CHECK(cudaMalloc(&d_d, rows * sizeof(float)));
  CHECK(cudaDeviceSynchronize());

  GpuTimer t;
  t.start();
  gesummv_rows<<<blocksFor(rows, 256), 256>>>(d_A, d_B, d_x, d_tmp, d_y, rows, cols, alpha, beta);
  CHECK_LAUNCH();
  bicg_two_outputs<<<blocksFor(rows, 128), 128>>>(d_C, d_p, d_r, d_u, d_v, rows, cols);
  CHECK_LAUNCH();
  three_matrix_rows<<<blocksFor(rows, 256), 256>>>(d_A, d_B, d_C, d_x, d_z, d_w, d_d, rows, cols);
  CHECK_LAUNCH();
  float ms = t.stop();
  std::vector<float> gtmp = fromDevice(d_tmp, rows), gy = fromDevice(d_y, rows), gu = fromDevice(d_u, rows),
                     gv = fromDevice(d_v, rows), gd = fromDevice(d_d, rows);

  std::vector<float> wtmp(rows), wy(rows), wu(rows), wv(rows), wd(rows);
  for (size_t i = 0; i < rows; i++) {
    double t1 = 0, s1 = 0, u1 = 0, v1 = 0, d1 = 0;
    for (size_t j = 0; j < cols; j++) {
      size_t k = i * cols + j;
      t1 += double(A[k]) * x[j];
      s1 += double(B[k]) * x[j];
      u1 += double(C[k]) * p[j];
      v1 += double(C[k]) * r[j];
      d1 += double(A[k]) * x[j] + double(B[k]) * z[j] + double(C[k]) * w[j];
    }
    wtmp[i] = float(t1);
    wy[i] = float(double(alpha) * t1 + double(beta) * s1);
    wu[i] = float(u1);
    wv[i] = float(v1);
    wd[i] = float(d1);
  }
  bool ok = checkFloats("gesummv tmp", gtmp.data(), wtmp.data(), rows, 1e-3);
  ok = checkFloats("gesummv y", gy.data(), wy.data(), rows, 1e-3) && ok;
  ok = checkFloats("bicg u", gu.data(), wu.data(), rows, 1e-3) && ok;
  ok = checkFloats("bicg v", gv.data(), wv.data(), rows, 1e-3) && ok;
  ok = checkFloats("three matrices d", gd.data(), wd.data(), rows, 1e-3) && ok;

  float *bufs[] = {d_A, d_B, d_C, d_x, d_z, d_w, d_p, d_r, d_tmp, d_y, d_u, d_v, d_d};
  for (float *b : bufs) CHECK(cudaFree(b));
  return finish(ms, ok);
}
