// h10_batched_seq_transpose: the sequence/feature transpose of transformer
// code, [B][S][D] -> [B][D][S], for three tensors (q, k, v) of B = 8
// sequences of S = 2048 tokens by D = 768 features, float (50 MB a tensor,
// 302 MB in all). One thread per input element (d, s) of one batch,
// b = blockIdx.z; 32 x 8 blocks (x along D, the input's contiguous
// dimension); the batch offset `b*(size_t)S*D` is `size_t`, the indices
// inside a matrix `int`: `dst[d*S + s] = src[s*D + d]` (reads coalesced,
// writes strided by S). One kernel, launched once per tensor (3 launches).
// Sizes: B S D (argv). Timed: the 3 launches. Checked: all three outputs,
// every element, exactly.
#include "../common.h"

__global__ void seq_to_feature_major(const float *in, float *out, int S, int D) {
  int d = blockIdx.x * blockDim.x + threadIdx.x;
  int s = blockIdx.y * blockDim.y + threadIdx.y;
  size_t b = blockIdx.z;
  const float *src = in + b * (size_t)S * D;
  float *dst = out + b * (size_t)S * D;
  if (d < D && s < S) dst[d * S + s] = src[s * D + d];
}

int main(int argc, char **argv) {
  const int B = argInt(argc, argv, 1, 8), S = argInt(argc, argv, 2, 2048), D = argInt(argc, argv, 3, 768);
  const size_t n = size_t(B) * S * D;
  std::vector<float> h[3] = {std::vector<float>(n), std::vector<float>(n), std::vector<float>(n)};
  float *d_in[3], *d_out[3];
  for (int t = 0; t < 3; t++) {
    fillFloats(h[t], 10201 + t, -1.0f, 1.0f);
    for (size_t i = 0; i < n; i++)
      if (h[t][i] == 0.0f) h[t][i] = 0.5f;
    d_in[t] = toDevice(h[t]);
    CHECK(cudaMalloc(&d_out[t], n * sizeof(float)));
  }
  CHECK(cudaDeviceSynchronize());

  dim3 block(32, 8), grid((D + 31) / 32, (S + 7) / 8, B);
  GpuTimer timer;
  timer.start();
  for (int t = 0; t < 3; t++) {
    seq_to_feature_major<<<grid, block>>>(d_in[t], d_out[t], S, D);
    CHECK_LAUNCH();
  }
  float ms = timer.stop();

  bool ok = true;
  std::vector<float> ref(n);
  const char *names[3] = {"q transpose", "k transpose", "v transpose"};
  for (int t = 0; t < 3; t++) {
    std::vector<float> got = fromDevice(d_out[t], n);
    for (size_t b = 0; b < size_t(B); b++)
      for (size_t s = 0; s < size_t(S); s++)
        for (size_t d = 0; d < size_t(D); d++) ref[(b * D + d) * S + s] = h[t][(b * S + s) * D + d];
    ok = checkExact(names[t], got.data(), ref.data(), n) && ok;
  }
  for (int t = 0; t < 3; t++) {
    CHECK(cudaFree(d_in[t]));
    CHECK(cudaFree(d_out[t]));
  }
  return finish(ms, ok);
}
