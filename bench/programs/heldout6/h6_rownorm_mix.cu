// h6_rownorm_mix: (1) row normalization, one thread per row, `int` indices,
// blocks of 64, rows x cols = 8192 x 2048 float (64 MB read twice, 64 MB
// written): first loop `sum += in[row*cols + j]`, second loop over the same
// row `out[row*cols + j] = in[row*cols + j] / sum`; (2) a compute-bound
// integer kernel on 16M unsigned words (64 MB), thread per element (blocks of
// 512, grid-stride over size_t indices): 48 rounds of a xorshift-multiply
// mix per word. One launch each. Timed: both. Checked exactly (adds in order,
// IEEE division; integer mix).
#include "../common.h"

__global__ void row_normalize(const float *in, float *out, int rows, int cols) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < rows) {
    float sum = 0.0f;
    for (int j = 0; j < cols; j++) sum += in[row * cols + j];
    for (int j = 0; j < cols; j++) out[row * cols + j] = in[row * cols + j] / sum;
  }
}

#define MIX_ROUNDS 48

__host__ __device__ inline unsigned mix_word(unsigned v) {
  for (int r = 0; r < MIX_ROUNDS; r++) {
    v ^= v << 13;
    v ^= v >> 17;
    v ^= v << 5;
    v = v * 0x27d4eb2du + (unsigned)r;
  }
  return v;
}

__global__ void mix_words(const unsigned *in, unsigned *out, size_t n) {
  for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
    out[i] = mix_word(in[i]);
}

int main(int argc, char **argv) {
  const int rows = argInt(argc, argv, 1, 8192), cols = argInt(argc, argv, 2, 2048);
  const size_t nw = size_t(argInt(argc, argv, 3, 1 << 24));
  const size_t n = size_t(rows) * cols;
  std::vector<float> a(n);
  fillFloats(a, 1201);
  std::vector<unsigned> w(nw);
  for (size_t i = 0; i < nw; i++) w[i] = hashAt(1202, i) | 1u;
  float *d_in = toDevice(a), *d_out;
  unsigned *d_w = toDevice(w), *d_mix;
  CHECK(cudaMalloc(&d_out, n * sizeof(float)));
  CHECK(cudaMalloc(&d_mix, nw * sizeof(unsigned)));
  CHECK(cudaDeviceSynchronize());

  GpuTimer t;
  t.start();
  row_normalize<<<(rows + 63) / 64, 64>>>(d_in, d_out, rows, cols);
  CHECK_LAUNCH();
  mix_words<<<2048, 512>>>(d_w, d_mix, nw);
  CHECK_LAUNCH();
  float ms = t.stop();
  std::vector<float> out = fromDevice(d_out, n);
  std::vector<unsigned> mix = fromDevice(d_mix, nw);

  std::vector<float> ref(n);
  for (int r = 0; r < rows; r++) {
    const float *p = a.data() + size_t(r) * cols;
    float sum = 0.0f;
    for (int j = 0; j < cols; j++) sum += p[j];
    for (int j = 0; j < cols; j++) ref[size_t(r) * cols + j] = p[j] / sum;
  }
  std::vector<unsigned> mref(nw);
  for (size_t i = 0; i < nw; i++) mref[i] = mix_word(w[i]);
  bool ok = checkExact("row normalize", out.data(), ref.data(), n);
  ok = checkExact("mix words", mix.data(), mref.data(), nw) && ok;
  CHECK(cudaFree(d_in));
  CHECK(cudaFree(d_out));
  CHECK(cudaFree(d_w));
  CHECK(cudaFree(d_mix));
  return finish(ms, ok);
}
