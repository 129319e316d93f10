// h8_adi_fdtd_apml: PolyBench kernels whose loop-carried updates stay in one
// thread. (1), (2) PolyBench/GPU adi's row sweeps, thread per row, the
// matrices updated in place (each step reads the value the same thread
// wrote one step earlier): (1) forward, `int` indices, `X[i1*n + i2] =
// X[i1*n + i2] - X[i1*n + i2-1] * A[i1*n + i2] / B[i1*n + i2-1]; B[i1*n +
// i2] = B[i1*n + i2] - A[i1*n + i2] * A[i1*n + i2] / B[i1*n + i2-1]` for
// i2 = 1 .. n-1; (2) backward, `size_t` indices, `X[i1*n + n-1] /= B[i1*n +
// n-1]`, then `X[i1*n + n-i2-2] = (X[i1*n + n-2-i2] - X[i1*n + n-3-i2] *
// A[i1*n + n-i2-3]) / B[i1*n + n-3-i2]` for i2 = 0 .. n-3; n = 4096 floats
// (A, B, X 64 MiB each), blocks of 64 (1) and 128 (2). (3) PolyBench
// fdtd-apml's main update ported thread per (iz, iy) (iy from threadIdx.x,
// iz = blockIdx.y), each thread walking ix = 0 .. CXM-1 and then the ix =
// CXM column: `clf = Ex[iz][iy][ix] - Ex[iz][iy+1][ix] + Ey[iz][iy][ix+1] -
// Ey[iz][iy][ix]; tmp = (cymh[iy] / cyph[iy]) * Bza - (ch / cyph[iy]) * clf;
// Hz = (cxmh[ix] / cxph[ix]) * Hz + (mui * czp[iz] / cxph[ix]) * tmp - (mui
// * czm[iz] / cxph[ix]) * Bza; Bza = tmp` (Hz and Bza in place), `unsigned`
// flat indices, CZ = CYM = CXM = 255 (Ex, Ey, Hz, Bza 256^3 floats, 64 MiB
// each), blocks of 128. All `<<<>>>` on the default stream. Timed: the three
// launches. Checked: exactly (IEEE divisions; no fma in (1); in (2) and (3)
// the PTX's mul + sub pairs as ptxas contracts them (sm_90 SASS): (2)'s
// numerator fmaf(-X[n-3-i2], A, X[n-2-i2]); tmp = fmaf(-d2, clf, d1*Bza),
// Hz = fmaf(-c3, Bza, fmaf(c1, Hz, c2*tmp)) with d1 = cymh/cyph, d2 =
// ch/cyph, c1 = cxmh/cxph, c2 = mui*czp/cxph, c3 = mui*czm/cxph).
#include "../common.h"

__global__ void adi_rows_forward(int n, const float *A, float *B, float *X) {
  int i1 = blockIdx.x * blockDim.x + threadIdx.x;
  if (i1 < n) {
    for (int i2 = 1; i2 < n; i2++) {
      X[i1 * n + i2] = X[i1 * n + i2] - X[i1 * n + (i2 - 1)] * A[i1 * n + i2] / B[i1 * n + (i2 - 1)];
      B[i1 * n + i2] = B[i1 * n + i2] - A[i1 * n + i2] * A[i1 * n + i2] / B[i1 * n + (i2 - 1)];
    }
  }
}

__global__ void adi_rows_backward(size_t n, const float *A, const float *B, float *X) {
  size_t i1 = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (i1 < n) {
    X[i1 * n + (n - 1)] = X[i1 * n + (n - 1)] / B[i1 * n + (n - 1)];
    for (size_t i2 = 0; i2 < n - 2; i2++)
      X[i1 * n + (n - i2 - 2)] =
          (X[i1 * n + (n - 2 - i2)] - X[i1 * n + (n - 2 - i2 - 1)] * A[i1 * n + (n - i2 - 3)]) / B[i1 * n + (n - 3 - i2)];
  }
}

// Arrays [CZ+1][CYM+1][CXM+1]; Ry [CZ+1][CYM+1].
__global__ void fdtd_apml_hz(unsigned cz, unsigned cym, unsigned cxm, float mui, float ch, const float *Ex,
                             const float *Ey, float *Hz, float *Bza, const float *Ry, const float *czm,
                             const float *czp, const float *cxmh, const float *cxph, const float *cymh,
                             const float *cyph) {
  unsigned iy = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned iz = blockIdx.y;
  if (iy < cym && iz < cz) {
    unsigned X = cxm + 1, Y = cym + 1;
    unsigned row = (iz * Y + iy) * X, next = (iz * Y + iy + 1) * X;
    float clf, tmp;
    for (unsigned ix = 0; ix < cxm; ix++) {
      clf = Ex[row + ix] - Ex[next + ix] + Ey[row + ix + 1] - Ey[row + ix];
      tmp = (cymh[iy] / cyph[iy]) * Bza[row + ix] - (ch / cyph[iy]) * clf;
      Hz[row + ix] = (cxmh[ix] / cxph[ix]) * Hz[row + ix] + (mui * czp[iz] / cxph[ix]) * tmp -
                     (mui * czm[iz] / cxph[ix]) * Bza[row + ix];
      Bza[row + ix] = tmp;
    }
    clf = Ex[row + cxm] - Ex[next + cxm] + Ry[iz * Y + iy] - Ey[row + cxm];
    tmp = (cymh[iy] / cyph[iy]) * Bza[row + cxm] - (ch / cyph[iy]) * clf;
    Hz[row + cxm] = (cxmh[cxm] / cxph[cxm]) * Hz[row + cxm] + (mui * czp[iz] / cxph[cxm]) * tmp -
                    (mui * czm[iz] / cxph[cxm]) * Bza[row + cxm];
    Bza[row + cxm] = tmp;
  }
}

int main(int argc, char **argv) {
  const int n = argInt(argc, argv, 1, 4096);
  const unsigned cz = unsigned(argInt(argc, argv, 2, 255)), cym = unsigned(argInt(argc, argv, 3, 255)),
                 cxm = unsigned(argInt(argc, argv, 4, 255));
  const float mui = 2341.0f, ch = 42.0f;
  const size_t nn = size_t(n) * n;
  const size_t X = cxm + 1, Y = cym + 1, Z = cz + 1, nf = Z * Y * X;

  // B's recurrence B - A*A/B stays above 1.6 with A in [0.25, 0.75) and B in [2, 3).
  std::vector<float> A(nn), B(nn), Xa(nn);
  fillFloats(A, 8701, 0.25f, 0.75f);
  fillFloats(B, 8702, 2.0f, 3.0f);
  fillFloats(Xa, 8703);
  std::vector<float> Ex(nf), Ey(nf), Hz(nf), Bza(nf), Ry(Z * Y), czm(Z), czp(Z), cxmh(X), cxph(X), cymh(Y), cyph(Y);
  fillFloats(Ex, 8704);
  fillFloats(Ey, 8705);
  fillFloats(Hz, 8706);
  fillFloats(Bza, 8707);
  fillFloats(Ry, 8708);
  fillFloats(czm, 8709);
  fillFloats(czp, 8710);
  fillFloats(cxmh, 8711);
  fillFloats(cxph, 8712);
  fillFloats(cymh, 8713);
  fillFloats(cyph, 8714);

  float *d_A = toDevice(A), *d_B = toDevice(B), *d_X = toDevice(Xa);
  float *d_Ex = toDevice(Ex), *d_Ey = toDevice(Ey), *d_Hz = toDevice(Hz), *d_Bza = toDevice(Bza), *d_Ry = toDevice(Ry);
  float *d_czm = toDevice(czm), *d_czp = toDevice(czp), *d_cxmh = toDevice(cxmh), *d_cxph = toDevice(cxph);
  float *d_cymh = toDevice(cymh), *d_cyph = toDevice(cyph);
  CHECK(cudaDeviceSynchronize());

  GpuTimer t;
  t.start();
  adi_rows_forward<<<blocksFor(n, 64), 64>>>(n, d_A, d_B, d_X);
  CHECK_LAUNCH();
  adi_rows_backward<<<blocksFor(n, 128), 128>>>(size_t(n), d_A, d_B, d_X);
  CHECK_LAUNCH();
  fdtd_apml_hz<<<dim3(blocksFor(cym, 128), cz), 128>>>(cz, cym, cxm, mui, ch, d_Ex, d_Ey, d_Hz, d_Bza, d_Ry, d_czm,
                                                      d_czp, d_cxmh, d_cxph, d_cymh, d_cyph);
  CHECK_LAUNCH();
  float ms = t.stop();
  std::vector<float> gB = fromDevice(d_B, nn), gX = fromDevice(d_X, nn);
  std::vector<float> gHz = fromDevice(d_Hz, nf), gBza = fromDevice(d_Bza, nf);

  for (size_t i1 = 0; i1 < size_t(n); i1++) {
    float *x = &Xa[i1 * n], *b = &B[i1 * n];
    const float *a = &A[i1 * n];
    for (size_t i2 = 1; i2 < size_t(n); i2++) {
      x[i2] = x[i2] - x[i2 - 1] * a[i2] / b[i2 - 1];
      b[i2] = b[i2] - a[i2] * a[i2] / b[i2 - 1];
    }
    x[n - 1] = x[n - 1] / b[n - 1];
    for (size_t i2 = 0; i2 < size_t(n) - 2; i2++) {
      // The PTX's mul + sub, contracted by ptxas into one fma.
      x[n - i2 - 2] = std::fmaf(-x[n - 3 - i2], a[n - i2 - 3], x[n - 2 - i2]) / b[n - 3 - i2];
    }
  }
  for (size_t iz = 0; iz < cz; iz++)
    for (size_t iy = 0; iy < cym; iy++) {
      size_t row = (iz * Y + iy) * X, next = (iz * Y + iy + 1) * X;
      for (size_t ix = 0; ix <= cxm; ix++) {
        float clf = ix < cxm ? Ex[row + ix] - Ex[next + ix] + Ey[row + ix + 1] - Ey[row + ix]
                             : Ex[row + ix] - Ex[next + ix] + Ry[iz * Y + iy] - Ey[row + ix];
        // The PTX: tmp = d1*Bza - d2*clf as mul, mul, sub, and Hz = fma(c1,
        // Hz, c2*tmp) - c3*Bza as fma, mul, sub; ptxas contracts both
        // subtracts (for tmp the second product, d2*clf, is the fused one:
        // read from the sm_90 SASS).
        float d1 = cymh[iy] / cyph[iy], d2 = ch / cyph[iy];
        float tmp = std::fmaf(-d2, clf, d1 * Bza[row + ix]);
        float c1 = cxmh[ix] / cxph[ix], c2 = mui * czp[iz] / cxph[ix], c3 = mui * czm[iz] / cxph[ix];
        Hz[row + ix] = std::fmaf(-c3, Bza[row + ix], std::fmaf(c1, Hz[row + ix], c2 * tmp));
        Bza[row + ix] = tmp;
      }
    }
  bool ok = checkExact("adi B", gB.data(), B.data(), nn);
  ok = checkExact("adi X", gX.data(), Xa.data(), nn) && ok;
  ok = checkExact("fdtd-apml Hz", gHz.data(), Hz.data(), nf) && ok;
  ok = checkExact("fdtd-apml Bza", gBza.data(), Bza.data(), nf) && ok;
  for (float *p : {d_A, d_B, d_X, d_Ex, d_Ey, d_Hz, d_Bza, d_Ry, d_czm, d_czp, d_cxmh, d_cxph, d_cymh, d_cyph})
    CHECK(cudaFree(p));
  return finish(ms, ok);
}
