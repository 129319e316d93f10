// coalesce's swap and remap clones on column-major element-wise kernels
// (x along the matrix's columns: out[x*H + y], consecutive threads H
// elements apart), from the fifth offline probe (the twenty-first
// session), which ran them in the PTX interpreter once it knew bfind (the
// remap clone's division by the block's extent). tests/lit/coalesce/
// remap-emu.test runs them against the originals in odd block shapes.
// Compiled with: nvcc -arch=sm_90 -O3 -ptx remap.cu -o remap.ptx
extern "C" __global__ void invert_u8_cm(const unsigned char *in, unsigned char *out, int W, int H) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < W && y < H) out[x * H + y] = 255 - in[x * H + y];
}

extern "C" __global__ void scale_short_cm(const short *in, short *out, int W, int H, int s) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= W || y >= H) return;
  out[x * H + y] = (short)((in[x * H + y] * s) >> 4);
}

// In place (Y += a * X), size_t indices.
extern "C" __global__ void axpy_f64_cm(const double *X, double *Y, int rows, int cols, double a) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  int c = blockIdx.y * blockDim.y + threadIdx.y;
  if (r < rows && c < cols) Y[(size_t)r * cols + c] += a * X[(size_t)r * cols + c];
}
