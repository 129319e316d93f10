// h13_csr_forms: scalar CSR, a thread per row, in forms user code has.
// (1) spmv_ptrwalk: a pointer walk, `const float *v = val + rowptr[i];
// const float *end = val + rowptr[i+1]; const int *c = col + rowptr[i];
// float s = 0; while (v < end) s += *v++ * x[*c++];`, float, `int` row
// pointers and columns, 200000 rows, one row in 8 empty, the others 32..256
// non-zeros (~25.2 M; val + col 201 MB), columns hashed over the row range,
// 256-thread blocks, `if (i < n)`; (2) csr_rowmax: an integer row maximum
// over the CSR values, `int m = INT_MIN; for (int j = rowptr[i]; j <
// rowptr[i+1]; j++) m = max(m, val[j]); out[i] = (rowptr[i] == rowptr[i+1])
// ? 0 : m;`, int values (+-1..1000000), `int` row pointers, 200000 rows of
// 32..256 values with one row in 16 empty (~27 M; 108 MB), 128-thread
// blocks, `if (i < n)`; (3) spmv_unsigned: `unsigned` row pointers, columns,
// row index and loop index, `for (unsigned j = rowptr[i]; j < rowptr[i+1];
// j++) s += val[j]*x[col[j]]`, float, 131072 rows of 64..128 non-zeros
// (~12.6 M; val + col 101 MB), 256-thread blocks launched without a guard
// (rows rounded up to a multiple of 256 on the host). Sizes: na nb nc
// (argv). Each kernel launched once. Timed: the 3 launches. Checked: (1),
// (3) against double CPU sums, relative tolerance 1e-3 (fma contraction;
// positive values; empty rows must give 0); (2) exact.
#include "../common.h"

#include <algorithm>
#include <climits>

__global__ void spmv_ptrwalk(const int *rowptr, const int *col, const float *val, const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    const float *v = val + rowptr[i];
    const float *end = val + rowptr[i + 1];
    const int *c = col + rowptr[i];
    float s = 0;
    while (v < end) s += *v++ * x[*c++];
    y[i] = s;
  }
}

__global__ void csr_rowmax(const int *rowptr, const int *val, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int m = INT_MIN;
    for (int j = rowptr[i]; j < rowptr[i + 1]; j++) m = max(m, val[j]);
    out[i] = (rowptr[i] == rowptr[i + 1]) ? 0 : m;
  }
}

__global__ void spmv_unsigned(const unsigned *rowptr, const unsigned *col, const float *val, const float *x,
                              float *y) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0.0f;
  for (unsigned j = rowptr[i]; j < rowptr[i + 1]; j++) s += val[j] * x[col[j]];
  y[i] = s;
}

int main(int argc, char **argv) {
  const int na = argInt(argc, argv, 1, 200000), nb = argInt(argc, argv, 2, 200000);
  unsigned nc = argInt(argc, argv, 3, 131072);
  nc = (nc + 255) / 256 * 256;  // spmv_unsigned has no guard

  // (1) pointer walk, one row in 8 empty
  std::vector<int> pa(na + 1);
  pa[0] = 0;
  for (int i = 0; i < na; i++) {
    uint32_t h = hashAt(13801, i);
    pa[i + 1] = pa[i] + (h % 8 == 0 ? 0 : 32 + int((h >> 3) % 225));
  }
  const size_t nnza = size_t(pa[na]);
  std::vector<int> ca(nnza);
  std::vector<float> va(nnza), xa(na);
  for (size_t k = 0; k < nnza; k++) ca[k] = int(hashAt(13802, k) % uint32_t(na));
  fillFloats(va, 13803);
  fillFloats(xa, 13804);

  // (2) row maximum, one row in 16 empty, signed values
  std::vector<int> pb(nb + 1);
  pb[0] = 0;
  for (int i = 0; i < nb; i++) {
    uint32_t h = hashAt(13805, i);
    pb[i + 1] = pb[i] + (h % 16 == 0 ? 0 : 32 + int((h >> 4) % 225));
  }
  const size_t nnzb = size_t(pb[nb]);
  std::vector<int> vb(nnzb);
  for (size_t k = 0; k < nnzb; k++) {
    uint32_t u = hashAt(13806, k);
    int v = 1 + int(u % 1000000);
    vb[k] = (u >> 31) ? -v : v;
  }

  // (3) unsigned
  std::vector<unsigned> pc(nc + 1);
  pc[0] = 0;
  for (unsigned i = 0; i < nc; i++) pc[i + 1] = pc[i] + 64 + hashAt(13807, i) % 65;
  const size_t nnzc = pc[nc];
  std::vector<unsigned> cc(nnzc);
  std::vector<float> vc(nnzc), xc(nc);
  for (size_t k = 0; k < nnzc; k++) cc[k] = hashAt(13808, k) % nc;
  fillFloats(vc, 13809);
  fillFloats(xc, 13810);

  int *d_pa = toDevice(pa), *d_ca = toDevice(ca), *d_pb = toDevice(pb), *d_vb = toDevice(vb), *d_ob;
  float *d_va = toDevice(va), *d_xa = toDevice(xa), *d_ya;
  unsigned *d_pc = toDevice(pc), *d_cc = toDevice(cc);
  float *d_vc = toDevice(vc), *d_xc = toDevice(xc), *d_yc;
  CHECK(cudaMalloc(&d_ya, na * sizeof(float)));
  CHECK(cudaMalloc(&d_ob, nb * sizeof(int)));
  CHECK(cudaMalloc(&d_yc, nc * sizeof(float)));
  CHECK(cudaDeviceSynchronize());

  GpuTimer t;
  t.start();
  spmv_ptrwalk<<<blocksFor(na, 256), 256>>>(d_pa, d_ca, d_va, d_xa, d_ya, na);
  CHECK_LAUNCH();
  csr_rowmax<<<blocksFor(nb, 128), 128>>>(d_pb, d_vb, d_ob, nb);
  CHECK_LAUNCH();
  spmv_unsigned<<<nc / 256, 256>>>(d_pc, d_cc, d_vc, d_xc, d_yc);
  CHECK_LAUNCH();
  float ms = t.stop();
  std::vector<float> gya = fromDevice(d_ya, na);
  std::vector<int> gob = fromDevice(d_ob, nb);
  std::vector<float> gyc = fromDevice(d_yc, nc);

  std::vector<float> wya(na), wyc(nc);
  std::vector<int> wob(nb);
  for (int i = 0; i < na; i++) {
    double s = 0;
    for (int j = pa[i]; j < pa[i + 1]; j++) s += double(va[j]) * xa[ca[j]];
    wya[i] = float(s);
  }
  for (int i = 0; i < nb; i++) {
    int m = INT_MIN;
    for (int j = pb[i]; j < pb[i + 1]; j++) m = std::max(m, vb[j]);
    wob[i] = (pb[i] == pb[i + 1]) ? 0 : m;
  }
  for (unsigned i = 0; i < nc; i++) {
    double s = 0;
    for (unsigned j = pc[i]; j < pc[i + 1]; j++) s += double(vc[j]) * xc[cc[j]];
    wyc[i] = float(s);
  }
  bool ok = checkFloats("spmv_ptrwalk", gya.data(), wya.data(), na, 1e-3);
  ok = checkExact("csr_rowmax", gob.data(), wob.data(), nb) && ok;
  ok = checkFloats("spmv_unsigned", gyc.data(), wyc.data(), nc, 1e-3) && ok;

  int *ib[] = {d_pa, d_ca, d_pb, d_vb, d_ob};
  for (int *p : ib) CHECK(cudaFree(p));
  CHECK(cudaFree(d_pc));
  CHECK(cudaFree(d_cc));
  float *fb[] = {d_va, d_xa, d_ya, d_vc, d_xc, d_yc};
  for (float *p : fb) CHECK(cudaFree(p));
  return finish(ms, ok);
}
