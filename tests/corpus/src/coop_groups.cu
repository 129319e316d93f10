// Cooperative groups: grid sync (no -rdc needed with CUDA 12+), tiles, coalesced
// groups, cg::reduce, labeled partitions.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

__device__ int tileSum(cg::thread_block_tile<32> g, int v) {
  for (int o = g.size() / 2; o > 0; o /= 2) v += g.shfl_down(v, o);
  return v;
}

__global__ void cgTileReduce(const int *in, int *out, int n) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
  int i = block.group_index().x * block.size() + block.thread_rank();
  int v = i < n ? in[i] : 0;
  v = tileSum(tile, v);
  if (tile.thread_rank() == 0) atomicAdd(out, v);
  block.sync();
}

__global__ void cgReduceApi(const float *in, float *out, int n) {
  auto block = cg::this_thread_block();
  auto tile = cg::tiled_partition<16>(block);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? in[i] : 0.f;
  float s = cg::reduce(tile, v, cg::plus<float>());
  float m = cg::reduce(tile, v, cg::greater<float>());
  if (tile.thread_rank() == 0) {
    atomicAdd(&out[0], s);
    atomicAdd(&out[1], m);
  }
}

__global__ void cgCoalesced(const int *in, int *out, int *count, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && in[i] > 0) {
    cg::coalesced_group active = cg::coalesced_threads();
    int base = 0;
    if (active.thread_rank() == 0) base = atomicAdd(count, active.size());
    base = active.shfl(base, 0);
    out[base + active.thread_rank()] = in[i];
  }
}

__global__ void cgDynamicPartition(unsigned *out) {
  auto block = cg::this_thread_block();
  cg::thread_group t4 = cg::tiled_partition(block, 4);
  auto t8 = cg::tiled_partition<8>(block);
  unsigned any = t8.any(threadIdx.x & 1);
  unsigned bal = t8.ballot(threadIdx.x & 2);
  t4.sync();
  out[threadIdx.x] = t4.thread_rank() + (any << 8) + (bal << 16) + t8.meta_group_rank();
}

__global__ void cgLabeled(const int *labels, int *out) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 700
  auto tile = cg::tiled_partition<32>(cg::this_thread_block());
  int lbl = labels[blockIdx.x * blockDim.x + threadIdx.x];
  auto grp = cg::labeled_partition(tile, lbl);
  out[blockIdx.x * blockDim.x + threadIdx.x] = grp.size() * 100 + grp.thread_rank();
#endif
}

// Grid-wide sync (must be launched with cudaLaunchCooperativeKernel).
__global__ void cgGridTwoPhase(float *data, float *partial, int n) {
  cg::grid_group grid = cg::this_grid();
  float s = 0.f;
  for (unsigned long long i = grid.thread_rank(); i < (unsigned long long)n;
       i += grid.size())
    s += data[i];
  auto tile = cg::tiled_partition<32>(cg::this_thread_block());
  s = cg::reduce(tile, s, cg::plus<float>());
  if (tile.thread_rank() == 0) atomicAdd(&partial[0], s);
  grid.sync();
  float mean = partial[0] / n;
  for (unsigned long long i = grid.thread_rank(); i < (unsigned long long)n;
       i += grid.size())
    data[i] -= mean;
}
