// h12_csr_patterns: scalar CSR SpMV, a thread per row, `for (j = rowptr[i];
// j < rowptr[i+1]; j++) sum += val[j]*x[col[j]]`, over three matrices whose
// row lengths follow realistic patterns, columns scattered over the whole
// row range (hashed, unsorted within a row). (1) "holes": 200000 rows, one
// row in 8 empty, the others 32..256 non-zeros (~25.2 M), float values, `int`
// row pointers and indices, 256-thread blocks, `if (i < n)`; (2) "power
// law": 393216 rows, most 1..32 non-zeros, one in 16 256..1023 and one in
// 1024 4096..16383 (~25.8 M), int values (+-1..100) and int x (+-1..100),
// `long long` row pointers and loop index, `int` row index, 128-thread
// blocks, `if (i < n)`; (3) "uniform": 196608 rows of 64..128 non-zeros
// (~18.9 M), float, `size_t` row pointers and loop index, `unsigned`
// columns, 512-thread blocks launched without a guard (rows rounded up to a
// multiple of 512). val + col 201, 206 and 151 MB. Sizes: na nb nc (argv).
// Each kernel launched once. Timed: the 3 launches. Checked: (1), (3)
// against double CPU sums, relative tolerance 1e-3 (fma contraction;
// positive values; empty rows must give 0); (2) exact.
#include "../common.h"

__global__ void spmv_holes(const int *rowptr, const int *col, const float *val, const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float sum = 0.0f;
    for (int j = rowptr[i]; j < rowptr[i + 1]; j++) sum += val[j] * x[col[j]];
    y[i] = sum;
  }
}

__global__ void spmv_powerlaw(const long long *rowptr, const int *col, const int *val, const int *x, int *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int sum = 0;
    for (long long j = rowptr[i]; j < rowptr[i + 1]; j++) sum += val[j] * x[col[j]];
    y[i] = sum;
  }
}

__global__ void spmv_uniform(const size_t *rowptr, const unsigned *col, const float *val, const float *x, float *y) {
  size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  float sum = 0.0f;
  for (size_t j = rowptr[i]; j < rowptr[i + 1]; j++) sum += val[j] * x[col[j]];
  y[i] = sum;
}

static int signedSmall(uint64_t seed, size_t k) {
  uint32_t u = hashAt(seed, k);
  int v = 1 + int(u % 100);
  return (u >> 16) & 1 ? -v : v;
}

static int powerLawLength(size_t i) {
  uint32_t h = hashAt(12305, i);
  if (h % 1024 == 0) return 4096 + int((h >> 10) % 12288);
  if (h % 16 == 0) return 256 + int((h >> 10) % 768);
  return 1 + int((h >> 10) % 32);
}

int main(int argc, char **argv) {
  const int na = argInt(argc, argv, 1, 200000), nb = argInt(argc, argv, 2, 393216);
  size_t nc = argInt(argc, argv, 3, 196608);
  nc = (nc + 511) / 512 * 512;  // spmv_uniform has no guard

  // (1) holes
  std::vector<int> pa(na + 1);
  pa[0] = 0;
  for (int i = 0; i < na; i++) {
    uint32_t h = hashAt(12301, i);
    pa[i + 1] = pa[i] + (h % 8 == 0 ? 0 : 32 + int((h >> 3) % 225));
  }
  const size_t nnza = size_t(pa[na]);
  std::vector<int> ca(nnza);
  std::vector<float> va(nnza), xa(na);
  for (size_t k = 0; k < nnza; k++) ca[k] = int(hashAt(12302, k) % uint32_t(na));
  fillFloats(va, 12303);
  fillFloats(xa, 12304);

  // (2) power law
  std::vector<long long> pb(nb + 1);
  pb[0] = 0;
  for (int i = 0; i < nb; i++) pb[i + 1] = pb[i] + powerLawLength(i);
  const size_t nnzb = size_t(pb[nb]);
  std::vector<int> cb(nnzb), vb(nnzb), xb(nb);
  for (size_t k = 0; k < nnzb; k++) {
    cb[k] = int(hashAt(12306, k) % uint32_t(nb));
    vb[k] = signedSmall(12307, k);
  }
  for (int i = 0; i < nb; i++) xb[i] = signedSmall(12308, i);

  // (3) uniform
  std::vector<size_t> pc(nc + 1);
  pc[0] = 0;
  for (size_t i = 0; i < nc; i++) pc[i + 1] = pc[i] + 64 + hashAt(12309, i) % 65;
  const size_t nnzc = pc[nc];
  std::vector<unsigned> cc(nnzc);
  std::vector<float> vc(nnzc), xc(nc);
  for (size_t k = 0; k < nnzc; k++) cc[k] = hashAt(12310, k) % uint32_t(nc);
  fillFloats(vc, 12311);
  fillFloats(xc, 12312);

  int *d_pa = toDevice(pa), *d_ca = toDevice(ca);
  float *d_va = toDevice(va), *d_xa = toDevice(xa), *d_ya;
  long long *d_pb = toDevice(pb);
  int *d_cb = toDevice(cb), *d_vb = toDevice(vb), *d_xb = toDevice(xb), *d_yb;
  size_t *d_pc = toDevice(pc);
  unsigned *d_cc = toDevice(cc);
  float *d_vc = toDevice(vc), *d_xc = toDevice(xc), *d_yc;
  CHECK(cudaMalloc(&d_ya, na * sizeof(float)));
  CHECK(cudaMalloc(&d_yb, nb * sizeof(int)));
  CHECK(cudaMalloc(&d_yc, nc * sizeof(float)));
  CHECK(cudaDeviceSynchronize());

  GpuTimer t;
  t.start();
  spmv_holes<<<blocksFor(na, 256), 256>>>(d_pa, d_ca, d_va, d_xa, d_ya, na);
  CHECK_LAUNCH();
  spmv_powerlaw<<<blocksFor(nb, 128), 128>>>(d_pb, d_cb, d_vb, d_xb, d_yb, nb);
  CHECK_LAUNCH();
  spmv_uniform<<<unsigned(nc / 512), 512>>>(d_pc, d_cc, d_vc, d_xc, d_yc);
  CHECK_LAUNCH();
  float ms = t.stop();
  std::vector<float> gya = fromDevice(d_ya, na);
  std::vector<int> gyb = fromDevice(d_yb, nb);
  std::vector<float> gyc = fromDevice(d_yc, nc);

  std::vector<float> wya(na), wyc(nc);
  std::vector<int> wyb(nb);
  for (int i = 0; i < na; i++) {
    double s = 0;
    for (int j = pa[i]; j < pa[i + 1]; j++) s += double(va[j]) * xa[ca[j]];
    wya[i] = float(s);
  }
  for (int i = 0; i < nb; i++) {
    int s = 0;
    for (long long j = pb[i]; j < pb[i + 1]; j++) s += vb[j] * xb[cb[j]];
    wyb[i] = s;
  }
  for (size_t i = 0; i < nc; i++) {
    double s = 0;
    for (size_t j = pc[i]; j < pc[i + 1]; j++) s += double(vc[j]) * xc[cc[j]];
    wyc[i] = float(s);
  }
  bool ok = checkFloats("spmv_holes", gya.data(), wya.data(), na, 1e-3);
  ok = checkExact("spmv_powerlaw", gyb.data(), wyb.data(), nb) && ok;
  ok = checkFloats("spmv_uniform", gyc.data(), wyc.data(), nc, 1e-3) && ok;

  CHECK(cudaFree(d_pa));
  CHECK(cudaFree(d_pb));
  CHECK(cudaFree(d_pc));
  CHECK(cudaFree(d_cc));
  int *ib[] = {d_ca, d_cb, d_vb, d_xb, d_yb};
  for (int *p : ib) CHECK(cudaFree(p));
  float *fb[] = {d_va, d_xa, d_ya, d_vc, d_xc, d_yc};
  for (float *p : fb) CHECK(cudaFree(p));
  return finish(ms, ok);
}
