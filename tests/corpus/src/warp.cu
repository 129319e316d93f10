// Warp-level primitives: shuffles, votes, match, redux.
#define FULL 0xffffffffu

__device__ __forceinline__ float warpSumShfl(float v) {
#pragma unroll
  for (int o = 16; o > 0; o >>= 1)
    v += __shfl_down_sync(FULL, v, o);
  return v;
}

__global__ void warpReduce(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? in[i] : 0.f;
  v = warpSumShfl(v);
  if ((threadIdx.x & 31) == 0) atomicAdd(out, v);
}

__global__ void shuffleVariants(int *out, const double *d) {
  int lane = threadIdx.x & 31;
  int a = __shfl_sync(FULL, lane * 3, (lane + 5) & 31);
  int b = __shfl_up_sync(FULL, a, 1);
  int c = __shfl_xor_sync(FULL, b, 16);
  int e = __shfl_sync(0x0000ffffu, c, 3, 16);
  double x = __shfl_down_sync(FULL, d[lane], 2); // 64-bit shuffle
  out[threadIdx.x] = a + b + c + e + (int)x;
}

__global__ void votes(const int *in, unsigned *out) {
  int v = in[blockIdx.x * blockDim.x + threadIdx.x];
  unsigned ballot = __ballot_sync(FULL, v > 0);
  int all = __all_sync(FULL, v != 0);
  int any = __any_sync(FULL, v < 0);
  unsigned act = __activemask();
  int lane = threadIdx.x & 31;
  unsigned lt = ballot & ((1u << lane) - 1);
  if (lane == 0)
    out[blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32] =
        ballot ^ (all << 1) ^ (any << 2) ^ act;
  if (v > 0) out[gridDim.x * blockDim.x + blockIdx.x * blockDim.x + threadIdx.x] = __popc(lt);
  __syncwarp();
}

// Warp-aggregated atomic increment.
__global__ void warpAggregatedAppend(const int *in, int *out, int *count, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int v = in[i];
  if (v & 1) {
    unsigned mask = __activemask();
    int leader = __ffs(mask) - 1;
    int lane = threadIdx.x & 31;
    int base;
    if (lane == leader) base = atomicAdd(count, __popc(mask));
    base = __shfl_sync(mask, base, leader);
    out[base + __popc(mask & ((1u << lane) - 1))] = v;
  }
}

__global__ void matchAndRedux(const int *keys, unsigned *out) {
  int k = keys[blockIdx.x * blockDim.x + threadIdx.x];
  unsigned r = 0;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 700
  unsigned peers = __match_any_sync(FULL, k);
  int pred;
  unsigned allm = __match_all_sync(FULL, k, &pred);
  r = peers ^ allm ^ pred;
#endif
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  r += __reduce_add_sync(FULL, (unsigned)k);
  r ^= __reduce_max_sync(FULL, (unsigned)k);
  r ^= (unsigned)__reduce_min_sync(FULL, k);
  r ^= __reduce_and_sync(FULL, (unsigned)k);
  r ^= __reduce_or_sync(FULL, (unsigned)k);
  r ^= __reduce_xor_sync(FULL, (unsigned)k);
#endif
  out[blockIdx.x * blockDim.x + threadIdx.x] = r;
}

// Block reduction: warp shuffles + shared memory for partials.
__global__ void blockReduceShfl(const float *in, float *out, int n) {
  __shared__ float partial[32];
  float v = 0.f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    v += in[i];
  v = warpSumShfl(v);
  int lane = threadIdx.x & 31, wid = threadIdx.x >> 5;
  if (lane == 0) partial[wid] = v;
  __syncthreads();
  if (wid == 0) {
    v = lane < (blockDim.x + 31) / 32 ? partial[lane] : 0.f;
    v = warpSumShfl(v);
    if (lane == 0) out[blockIdx.x] = v;
  }
}
