// Input of the group pass's merged-along-y lit test (rotate.ptx is nvcc
// 13.0's output: nvcc -arch=sm_90 -ptx rotate.cu -o rotate.ptx, in this
// folder): the paper's rotation 2 as examples/paper/rotate2.cu writes it
// (16.16 fixed point, one thread per output pixel, blocks of 128 x 1 and one
// row of blocks per image row). With --group-gathers the gathers stay per
// logical thread; 128 / 16 = 8 threads per block is too few for the plain
// clone, so the block-merged clones run: merged along y (a 128 x 16 tile per
// block) before merged along x (2048 pixels of one row).
extern "C" __global__ void rotate2_naive(const unsigned char *in, unsigned char *out, int width, int height, int cs,
                                         int sn, int cx, int cy) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y;
  int dx = x - cx, dy = y - cy;
  int xs = ((dx * cs + dy * sn + 32768) >> 16) + cx;
  int ys = ((dy * cs - dx * sn + 32768) >> 16) + cy;
  unsigned char p = 0;
  if (xs >= 0 && xs < width && ys >= 0 && ys < height) p = in[ys * width + xs];
  out[y * width + x] = p;
}

// A 1-D gather (no %ctaid.y): no clone merged along y.
extern "C" __global__ void gather1d(const unsigned char *in, const int *idx, unsigned char *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[idx[i]];
}
