// Input of merged.test (Inputs/stencil.ptx is nvcc 13.0's output:
// nvcc -arch=sm_90 -ptx stencil.cu -o stencil.ptx, in this folder): a 3x3
// Sobel filter on 8-bit pixels (the one-pixel border is not written), a
// body long enough that the group pass halves k to 8 and asks launches of
// its block-merged clone for 2^22 threads or more. The GPU differential
// tests run the same kernel (tests/gpu/cases/image.cu includes this file).
extern "C" __global__ void sobel(const unsigned char *in, unsigned char *out, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < 1 || y < 1 || x >= w - 1 || y >= h - 1) return;
  const unsigned char *r0 = in + (y - 1) * w + x, *r1 = in + y * w + x, *r2 = in + (y + 1) * w + x;
  int gx = -r0[-1] + r0[1] - 2 * r1[-1] + 2 * r1[1] - r2[-1] + r2[1];
  int gy = -r0[-1] - 2 * r0[0] - r0[1] + r2[-1] + 2 * r2[0] + r2[1];
  int m = abs(gx) + abs(gy);
  out[y * w + x] = m > 255 ? 255 : m;
}
