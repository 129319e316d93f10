// h13_strided_rows: a thread per row, each row read with a step or a
// different element width. (1) real_rowsum: interleaved complex data stored
// as floats (re, im, re, im, ...), summing only the real parts of each row,
// `for (int j = 0; j < 2*n; j += 2) s += Z[(size_t)i*2*n + j];`, float, `int`
// row index, 8192 rows of n = 4096 complex numbers (256 MB), 256-thread
// blocks, `if (i < rows)`; (2) rowdot_f4: a row dot product where each
// thread reads its row as float4 through `reinterpret_cast<const float4*>`,
// `for (int k = 0; k < cols/4; k++) { float4 v = A4[(size_t)i*(cols/4) + k];
// s += v.x*w[4k] + v.y*w[4k+1] + v.z*w[4k+2] + v.w*w[4k+3]; }`, float, `int`,
// 16384 x 2048 (128 MB; cols a multiple of 4), 128-thread blocks, `if (i <
// rows)`; (3) gain_rowsum_u16: rows of `unsigned short` samples (1..4095)
// summed into `unsigned` with a per-row gain g[i] (1..64), `s += (unsigned)
// S[i*cols + j] * g[i]`, `unsigned` indices, 16384 x 4096 (128 MB),
// 256-thread blocks, `if (i < rows)`. Sizes: ra n rb cb rc cc (argv). Each
// kernel launched once. Timed: the 3 launches. Checked: (1), (2) against
// double CPU sums, relative tolerance 1e-3 (fma contraction; positive
// values); (3) exact (no overflow: at most 4096 * 4095 * 64 < 2^32).
#include "../common.h"

__global__ void real_rowsum(const float *Z, float *out, int rows, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < rows) {
    float s = 0.0f;
    for (int j = 0; j < 2 * n; j += 2) s += Z[(size_t)i * 2 * n + j];
    out[i] = s;
  }
}

__global__ void rowdot_f4(const float *A, const float *w, float *out, int rows, int cols) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < rows) {
    const float4 *A4 = reinterpret_cast<const float4 *>(A);
    float s = 0.0f;
    for (int k = 0; k < cols / 4; k++) {
      float4 v = A4[(size_t)i * (cols / 4) + k];
      s += v.x * w[4 * k] + v.y * w[4 * k + 1] + v.z * w[4 * k + 2] + v.w * w[4 * k + 3];
    }
    out[i] = s;
  }
}

__global__ void gain_rowsum_u16(const unsigned short *S, const unsigned *g, unsigned *out, unsigned rows,
                                unsigned cols) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < rows) {
    unsigned s = 0;
    for (unsigned j = 0; j < cols; j++) s += (unsigned)S[i * cols + j] * g[i];
    out[i] = s;
  }
}

int main(int argc, char **argv) {
  const int ra = argInt(argc, argv, 1, 8192), n = argInt(argc, argv, 2, 4096);
  const int rb = argInt(argc, argv, 3, 16384), cb = argInt(argc, argv, 4, 2048) / 4 * 4;
  const unsigned rc = argInt(argc, argv, 5, 16384), cc = argInt(argc, argv, 6, 4096);

  std::vector<float> Z((size_t)ra * 2 * n), A((size_t)rb * cb), w(cb);
  fillFloats(Z, 13701);
  fillFloats(A, 13702);
  fillFloats(w, 13703);
  std::vector<unsigned short> S((size_t)rc * cc);
  std::vector<unsigned> g(rc);
  for (size_t k = 0; k < S.size(); k++) S[k] = (unsigned short)(1 + hashAt(13704, k) % 4095);
  for (unsigned i = 0; i < rc; i++) g[i] = 1 + hashAt(13705, i) % 64;

  float *d_Z = toDevice(Z), *d_A = toDevice(A), *d_w = toDevice(w), *d_oa, *d_ob;
  unsigned short *d_S = toDevice(S);
  unsigned *d_g = toDevice(g), *d_oc;
  CHECK(cudaMalloc(&d_oa, ra * sizeof(float)));
  CHECK(cudaMalloc(&d_ob, rb * sizeof(float)));
  CHECK(cudaMalloc(&d_oc, rc * sizeof(unsigned)));
  CHECK(cudaDeviceSynchronize());

  GpuTimer t;
  t.start();
  real_rowsum<<<blocksFor(ra, 256), 256>>>(d_Z, d_oa, ra, n);
  CHECK_LAUNCH();
  rowdot_f4<<<blocksFor(rb, 128), 128>>>(d_A, d_w, d_ob, rb, cb);
  CHECK_LAUNCH();
  gain_rowsum_u16<<<blocksFor(rc, 256), 256>>>(d_S, d_g, d_oc, rc, cc);
  CHECK_LAUNCH();
  float ms = t.stop();
  std::vector<float> goa = fromDevice(d_oa, ra);
  std::vector<float> gob = fromDevice(d_ob, rb);
  std::vector<unsigned> goc = fromDevice(d_oc, rc);

  std::vector<float> woa(ra), wob(rb);
  std::vector<unsigned> woc(rc);
  for (int i = 0; i < ra; i++) {
    double s = 0;
    for (int j = 0; j < 2 * n; j += 2) s += Z[(size_t)i * 2 * n + j];
    woa[i] = float(s);
  }
  for (int i = 0; i < rb; i++) {
    double s = 0;
    for (int c = 0; c < cb; c++) s += double(A[(size_t)i * cb + c]) * w[c];
    wob[i] = float(s);
  }
  for (unsigned i = 0; i < rc; i++) {
    unsigned s = 0;
    for (unsigned j = 0; j < cc; j++) s += (unsigned)S[(size_t)i * cc + j] * g[i];
    woc[i] = s;
  }
  bool ok = checkFloats("real_rowsum", goa.data(), woa.data(), ra, 1e-3);
  ok = checkFloats("rowdot_f4", gob.data(), wob.data(), rb, 1e-3) && ok;
  ok = checkExact("gain_rowsum_u16", goc.data(), woc.data(), rc) && ok;

  float *fb[] = {d_Z, d_A, d_w, d_oa, d_ob};
  for (float *p : fb) CHECK(cudaFree(p));
  CHECK(cudaFree(d_S));
  CHECK(cudaFree(d_g));
  CHECK(cudaFree(d_oc));
  return finish(ms, ok);
}
