// h10_transpose_pitch: a naive transpose of a float matrix held in pitched
// allocations (cudaMallocPitch), rows addressed the way the CUDA
// programming guide writes them, `(float *)((char *)base + y*pitch)`. The
// input is H x W = 6000 x 5000 floats (120 MB, each row padded by the
// runtime to its pitch), the output W x H = 5000 x 6000, also pitched. One
// thread per input element (x, y), 16 x 16 blocks, `int` indices, the
// pitches `size_t`: `outRow(x)[y] = inRow(y)[x]` (reads coalesced, writes
// strided by the output pitch). Inputs copied in with cudaMemcpy2D; the
// output copied back with cudaMemcpy2D into a dense W x H host array, which
// is what is hashed (the padding bytes are never read back). Sizes: H W
// (argv). Launched twice (the same output rewritten). Timed: the 2
// launches. Checked: every output element, exactly.
#include "../common.h"

__global__ void transpose_pitched(const float *in, size_t inPitch, float *out, size_t outPitch, int H, int W) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < W && y < H) {
    const float *inRow = (const float *)((const char *)in + y * inPitch);
    float *outRow = (float *)((char *)out + x * outPitch);
    outRow[y] = inRow[x];
  }
}

int main(int argc, char **argv) {
  const int H = argInt(argc, argv, 1, 6000), W = argInt(argc, argv, 2, 5000);
  const size_t n = size_t(H) * W;
  std::vector<float> in(n);
  fillFloats(in, 10101);

  float *d_in, *d_out;
  size_t inPitch, outPitch;
  CHECK(cudaMallocPitch((void **)&d_in, &inPitch, W * sizeof(float), H));
  CHECK(cudaMallocPitch((void **)&d_out, &outPitch, H * sizeof(float), W));
  CHECK(cudaMemcpy2D(d_in, inPitch, in.data(), W * sizeof(float), W * sizeof(float), H, cudaMemcpyHostToDevice));
  CHECK(cudaDeviceSynchronize());

  dim3 block(16, 16), grid((W + 15) / 16, (H + 15) / 16);
  GpuTimer t;
  t.start();
  for (int r = 0; r < 2; r++) {
    transpose_pitched<<<grid, block>>>(d_in, inPitch, d_out, outPitch, H, W);
    CHECK_LAUNCH();
  }
  float ms = t.stop();

  std::vector<float> out(n);
  CHECK(cudaMemcpy2D(out.data(), H * sizeof(float), d_out, outPitch, H * sizeof(float), W, cudaMemcpyDeviceToHost));
  hashBytes(out.data(), n * sizeof(float));

  std::vector<float> ref(n);
  for (size_t y = 0; y < size_t(H); y++)
    for (size_t x = 0; x < size_t(W); x++) ref[x * H + y] = in[y * W + x];
  bool ok = checkExact("pitched transpose", out.data(), ref.data(), n);
  CHECK(cudaFree(d_in));
  CHECK(cudaFree(d_out));
  return finish(ms, ok);
}
