// h4_backprop: Rodinia backprop's layer forward and weight adjustment in a
// naive form (no shared-memory reduction), n1 = 4096 inputs and n2 = 4096
// outputs plus Rodinia's bias unit 0 (weights (n1+1) x (n2+1) floats,
// 67 MB each matrix). (1) layerforward_col, one thread per output unit j >= 1
// (blocks of 128) walking Rodinia's input-major weights `conn[k*(n2+1) + j]`
// (a column: coalesced across threads), `sum += conn[k*(n2+1) + j] * l1[k]`
// for k = 0..n1 (l1[0] = 1, the bias), `net[j] = sum; l2[j] = 1 / (1 +
// expf(-sum))`; (2) layerforward_row, the same with the weights stored one
// row per output unit `w[j*(n1+1) + k]` (blocks of 256: a row walk per
// thread); (3) adjust_weights, one thread per weight (16 x 16 blocks: j from
// threadIdx.x, k from threadIdx.y), `new_dw = ETA*delta[j]*ly[k] +
// MOMENTUM*oldw[k*(n2+1) + j]; w[...] += new_dw; oldw[...] = new_dw`.
// Each kernel launched once. Timed: the 3 launches. Checked: net exactly
// (fmaf in the k order, the PTX has fma.rn), l2 within rtol 1e-6 (the
// device's expf is not the host's), w and oldw exactly (the PTX's order).
#include "../common.h"

#define ETA 0.3f
#define MOMENTUM 0.3f

__global__ void layerforward_col(const float *l1, float *l2, float *net, const float *conn, int n1, int n2) {
  int j = blockIdx.x * blockDim.x + threadIdx.x + 1;

  if (j <= n2) {
    float sum = 0.0f;
    for (int k = 0; k <= n1; k++) {
      sum += conn[k * (n2 + 1) + j] * l1[k];
    }
    net[j] = sum;
    l2[j] = 1.0f / (1.0f + expf(-sum));
  }
}

__global__ void layerforward_row(const float *l1, float *l2, float *net, const float *w, int n1, int n2) {
  int j = blockIdx.x * blockDim.x + threadIdx.x + 1;

  if (j <= n2) {
    float sum = 0.0f;
    for (int k = 0; k <= n1; k++) {
      sum += w[j * (n1 + 1) + k] * l1[k];
    }
    net[j] = sum;
    l2[j] = 1.0f / (1.0f + expf(-sum));
  }
}

__global__ void adjust_weights(const float *delta, int ndelta, const float *ly, int nly, float *w, float *oldw) {
  int j = blockIdx.x * blockDim.x + threadIdx.x + 1;
  int k = blockIdx.y * blockDim.y + threadIdx.y;

  if (j <= ndelta && k <= nly) {
    int index = k * (ndelta + 1) + j;
    float new_dw = ((ETA * delta[j] * ly[k]) + (MOMENTUM * oldw[index]));
    w[index] += new_dw;
    oldw[index] = new_dw;
  }
}

// +-[0.001, 0.011): signed, never zero.
static void fillSigned(std::vector<float> &v, uint64_t seed) {
  fillFloats(v, seed, 0.001f, 0.011f);
  for (size_t i = 0; i < v.size(); i++)
    if (hashAt(seed + 1000, i) & 1u) v[i] = -v[i];
}

int main(int argc, char **argv) {
  const int n1 = argInt(argc, argv, 1, 4096), n2 = argInt(argc, argv, 2, 4096);
  const size_t W = size_t(n1 + 1) * (n2 + 1);
  std::vector<float> l1(n1 + 1), conn(W), wT(W), oldw(W), delta(n2 + 1);
  fillFloats(l1, 5201);
  l1[0] = 1.0f;
  fillSigned(conn, 5202);
  for (size_t k = 0; k <= size_t(n1); k++)
    for (size_t j = 0; j <= size_t(n2); j++) wT[j * (n1 + 1) + k] = conn[k * (n2 + 1) + j];
  fillSigned(oldw, 5203);
  fillSigned(delta, 5204);
  float *dl1 = toDevice(l1), *dconn = toDevice(conn), *dwT = toDevice(wT), *doldw = toDevice(oldw), *ddelta = toDevice(delta);
  float *dl2a, *dneta, *dl2b, *dnetb;
  for (float **p : {&dl2a, &dneta, &dl2b, &dnetb}) {
    CHECK(cudaMalloc(p, (n2 + 1) * sizeof(float)));
    CHECK(cudaMemset(*p, 0, (n2 + 1) * sizeof(float)));
  }
  CHECK(cudaDeviceSynchronize());
  GpuTimer t;
  t.start();
  layerforward_col<<<blocksFor(n2, 128), 128>>>(dl1, dl2a, dneta, dconn, n1, n2);
  CHECK_LAUNCH();
  layerforward_row<<<blocksFor(n2, 256), 256>>>(dl1, dl2b, dnetb, dwT, n1, n2);
  CHECK_LAUNCH();
  // The input layer's activations as ly (Rodinia adjusts input->hidden with the input units).
  adjust_weights<<<dim3(blocksFor(n2, 16), blocksFor(n1 + 1, 16)), dim3(16, 16)>>>(ddelta, n2, dl1, n1, dconn, doldw);
  CHECK_LAUNCH();
  float ms = t.stop();
  std::vector<float> gneta = fromDevice(dneta, n2 + 1), gl2a = fromDevice(dl2a, n2 + 1), gnetb = fromDevice(dnetb, n2 + 1),
                     gl2b = fromDevice(dl2b, n2 + 1), gw = fromDevice(dconn, W), gold = fromDevice(doldw, W);

  std::vector<float> rnet(n2 + 1, 0.0f), rl2(n2 + 1, 0.0f), rw(conn), rold(oldw);
  for (size_t k = 0; k <= size_t(n1); k++)
    for (size_t j = 1; j <= size_t(n2); j++) rnet[j] = std::fmaf(conn[k * (n2 + 1) + j], l1[k], rnet[j]);
  for (size_t j = 1; j <= size_t(n2); j++) rl2[j] = float(1.0 / (1.0 + std::exp(-double(rnet[j]))));
  for (size_t k = 0; k <= size_t(n1); k++)
    for (size_t j = 1; j <= size_t(n2); j++) {
      const size_t idx = k * (n2 + 1) + j;
      // The PTX: fma(delta[j] * 0.3, ly[k], oldw * 0.3); w = w + new_dw.
      const float new_dw = std::fmaf(delta[j] * ETA, l1[k], oldw[idx] * MOMENTUM);
      rw[idx] = conn[idx] + new_dw;
      rold[idx] = new_dw;
    }
  bool ok = checkExact("backprop net (column weights)", gneta.data(), rnet.data(), n2 + 1);
  ok = checkExact("backprop net (row weights)", gnetb.data(), rnet.data(), n2 + 1) && ok;
  ok = checkFloats("backprop l2 (column weights)", gl2a.data(), rl2.data(), n2 + 1, 1e-6) && ok;
  ok = checkFloats("backprop l2 (row weights)", gl2b.data(), rl2.data(), n2 + 1, 1e-6) && ok;
  ok = checkExact("backprop w", gw.data(), rw.data(), W) && ok;
  ok = checkExact("backprop oldw", gold.data(), rold.data(), W) && ok;
  for (float *p : {dl1, dconn, dwT, doldw, ddelta, dl2a, dneta, dl2b, dnetb}) CHECK(cudaFree(p));
  return finish(ms, ok);
}
