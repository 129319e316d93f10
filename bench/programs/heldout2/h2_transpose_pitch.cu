// h2_transpose_pitch: naive transpose of a pitched W x H float image (W =
// 8000 columns, H = 6000 rows, 192 MB) into a pitched H x W one, both
// allocated with cudaMallocPitch and filled / read with cudaMemcpy2D. The
// kernel indexes rows through the byte pitch, `(const float*)((const
// char*)in + y*inPitch)` and `(float*)((char*)out + x*outPitch)`, then
// `outRow[y] = inRow[x]` (x from threadIdx.x: coalesced reads, strided
// writes), blocks of 16 x 16. One launch. Timed: the kernel only. The result
// is packed by a device-to-device cudaMemcpy2D (untimed) and copied back
// with copyBack. Checked exactly.
#include "../common.h"

__global__ void transpose_pitch(const float *in, size_t inPitch, float *out, size_t outPitch, int W, int H) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < W && y < H) {
    const float *inRow = (const float *)((const char *)in + y * inPitch);
    float *outRow = (float *)((char *)out + x * outPitch);
    outRow[y] = inRow[x];
  }
}

int main(int argc, char **argv) {
  const int W = argInt(argc, argv, 1, 8000), H = argInt(argc, argv, 2, 6000);
  const size_t n = size_t(W) * H;
  std::vector<float> in(n);
  fillFloats(in, 1701);
  float *din, *dout, *dpacked;
  size_t inPitch = 0, outPitch = 0;
  CHECK(cudaMallocPitch((void **)&din, &inPitch, size_t(W) * sizeof(float), H));
  CHECK(cudaMallocPitch((void **)&dout, &outPitch, size_t(H) * sizeof(float), W));
  CHECK(cudaMalloc(&dpacked, n * sizeof(float)));
  CHECK(cudaMemcpy2D(din, inPitch, in.data(), size_t(W) * sizeof(float), size_t(W) * sizeof(float), H,
                     cudaMemcpyHostToDevice));
  CHECK(cudaDeviceSynchronize());
  GpuTimer t;
  t.start();
  dim3 block(16, 16), grid(blocksFor(W, 16), blocksFor(H, 16));
  transpose_pitch<<<grid, block>>>(din, inPitch, dout, outPitch, W, H);
  CHECK_LAUNCH();
  float ms = t.stop();
  CHECK(cudaMemcpy2D(dpacked, size_t(H) * sizeof(float), dout, outPitch, size_t(H) * sizeof(float), W,
                     cudaMemcpyDeviceToDevice));
  std::vector<float> out = fromDevice(dpacked, n);

  size_t bad = 0;
  for (size_t y = 0; y < size_t(H); y++)
    for (size_t x = 0; x < size_t(W); x++) bad += !(out[x * H + y] == in[y * W + x]);
  if (bad) std::fprintf(stderr, "transpose: %zu of %zu differ\n", bad, n);
  CHECK(cudaFree(din));
  CHECK(cudaFree(dout));
  CHECK(cudaFree(dpacked));
  return finish(ms, bad == 0);
}
