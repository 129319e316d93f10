// coalesce's swap and remap clones of a block index (%tid.y) need blocks of
// more than 32 threads (Coalesce.cpp, requireExtent): a warp never spans two
// blocks, so a block of a warp or less requests the same addresses in any
// thread order. Fan2 of the whole-program suite's LU program (gaussian.cu,
// Rodinia's form) runs in 4 x 4 blocks. Compiled with
//   nvcc -arch=sm_90 -O3 -ptx smallblocks.cu -o smallblocks.ptx   (nvcc 13.0)
__global__ void Fan2(float *m_cuda, float *a_cuda, float *b_cuda, int Size, int j1, int t) {
  int xidx = blockIdx.x * blockDim.x + threadIdx.x;
  int yidx = blockIdx.y * blockDim.y + threadIdx.y;
  if (xidx >= Size - 1 - t) return;
  if (yidx >= Size - t) return;
  a_cuda[Size * (xidx + 1 + t) + (yidx + t)] -= m_cuda[Size * (xidx + 1 + t) + t] * a_cuda[Size * t + (yidx + t)];
  if (yidx == 0) b_cuda[xidx + 1 + t] -= m_cuda[Size * (xidx + 1 + t) + (yidx + t)] * b_cuda[t];
}
