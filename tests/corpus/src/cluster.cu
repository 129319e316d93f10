// Thread block clusters and distributed shared memory (sm_90+).
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
#define HAS_CLUSTERS 1
#endif

// Static cluster dims attribute: the attribute itself is harmless on older
// archs only if guarded, so we use the macro split.
#if defined(HAS_CLUSTERS) || !defined(__CUDA_ARCH__)
#define CLUSTER2 __cluster_dims__(2, 1, 1)
#else
#define CLUSTER2
#endif

__global__ void CLUSTER2 clusterHistogram(const int *in, int *bins, int n,
                                          int nbins) {
  extern __shared__ int smem[];
#ifdef HAS_CLUSTERS
  cg::cluster_group cluster = cg::this_cluster();
  unsigned rank = cluster.block_rank();
  unsigned csize = cluster.num_blocks();
  int perBlock = (nbins + csize - 1) / csize;
  for (int i = threadIdx.x; i < perBlock; i += blockDim.x) smem[i] = 0;
  cluster.sync();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x) {
    int b = in[i] % nbins;
    int owner = b / perBlock;
    int *dst = cluster.map_shared_rank(smem, owner);
    atomicAdd(dst + (b % perBlock), 1);
  }
  cluster.sync();
  for (int i = threadIdx.x; i < perBlock; i += blockDim.x) {
    int g = rank * perBlock + i;
    if (g < nbins) atomicAdd(&bins[g], smem[i]);
  }
#else
  (void)smem;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    atomicAdd(&bins[in[i] % nbins], 1);
#endif
}

// Cluster special registers and barrier via inline PTX.
__global__ void clusterInfo(unsigned *out) {
  unsigned r = 0;
#ifdef HAS_CLUSTERS
  unsigned cid, nctarank, ctarank;
  asm volatile("mov.u32 %0, %%clusterid.x;" : "=r"(cid));
  asm volatile("mov.u32 %0, %%cluster_nctarank;" : "=r"(nctarank));
  asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(ctarank));
  asm volatile("barrier.cluster.arrive.release.aligned;\n\t"
               "barrier.cluster.wait.acquire.aligned;" ::: "memory");
  r = (cid << 16) | (nctarank << 8) | ctarank;
  dim3 cd = cg::this_cluster().dim_blocks();
  r += cd.x;
#endif
  out[blockIdx.x * blockDim.x + threadIdx.x] = r;
}

// Neighbor exchange through DSMEM (launched with runtime cluster attribute).
__global__ void clusterExchange(float *out) {
  __shared__ float val;
#ifdef HAS_CLUSTERS
  cg::cluster_group cluster = cg::this_cluster();
  if (threadIdx.x == 0) val = (float)cluster.block_rank();
  cluster.sync();
  unsigned peer = (cluster.block_rank() + 1) % cluster.num_blocks();
  float *remote = cluster.map_shared_rank(&val, peer);
  float v = *remote;
  cluster.sync();
  out[blockIdx.x * blockDim.x + threadIdx.x] = v;
#else
  if (threadIdx.x == 0) val = blockIdx.x;
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = val;
#endif
}
