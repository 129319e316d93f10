// Global and shared atomics, CAS loops.
#include <cstdint>

__global__ void histogramShared(const unsigned char *data, unsigned *bins,
                                int n) {
  __shared__ unsigned sbins[256];
  for (int i = threadIdx.x; i < 256; i += blockDim.x) sbins[i] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    atomicAdd(&sbins[data[i]], 1u);
  __syncthreads();
  for (int i = threadIdx.x; i < 256; i += blockDim.x)
    atomicAdd(&bins[i], sbins[i]);
}

__global__ void globalAtomicsMix(int *i32, unsigned long long *u64, float *f32,
                                 double *f64, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n) return;
  atomicAdd(&i32[0], 1);
  atomicSub(&i32[1], 1);
  atomicMax(&i32[2], t);
  atomicMin(&i32[3], -t);
  atomicAnd(&i32[4], ~(1 << (t & 31)));
  atomicOr(&i32[5], 1 << (t & 31));
  atomicXor(&i32[6], t);
  atomicExch(&i32[7], t);
  atomicInc((unsigned *)&i32[8], 1000u);
  atomicDec((unsigned *)&i32[9], 1000u);
  atomicAdd(&u64[0], 1ull);
  atomicAdd(&f32[0], 0.5f);
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 600
  atomicAdd(&f64[0], 0.25);
#endif
  int old = atomicCAS(&i32[10], 0, t);
  if (old == 0) i32[11] = t;
}

// CAS loop implementing atomic max on float.
__device__ float atomicMaxFloat(float *addr, float val) {
  int *ia = reinterpret_cast<int *>(addr);
  int old = *ia, assumed;
  do {
    assumed = old;
    if (__int_as_float(assumed) >= val) break;
    old = atomicCAS(ia, assumed, __float_as_int(val));
  } while (assumed != old);
  return __int_as_float(old);
}

// CAS loop implementing a 64-bit multiply.
__device__ unsigned long long atomicMul64(unsigned long long *addr,
                                          unsigned long long m) {
  unsigned long long old = *addr, assumed;
  do {
    assumed = old;
    old = atomicCAS(addr, assumed, assumed * m);
  } while (assumed != old);
  return old;
}

__global__ void casLoops(const float *in, float *maxOut,
                         unsigned long long *prod, int n) {
  __shared__ float smax;
  if (threadIdx.x == 0) smax = -1e30f;
  __syncthreads();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    atomicMaxFloat(&smax, in[i]);
    if ((i & 63) == 0) atomicMul64(prod, 3ull);
  }
  __syncthreads();
  if (threadIdx.x == 0) atomicMaxFloat(maxOut, smax);
}

// Scoped atomics and the system/block variants (sm_60+).
__global__ void scopedAtomics(int *p, unsigned *flag) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 600
  atomicAdd_block(&p[0], 1);
  atomicAdd_system(&p[1], 1);
  atomicCAS_block(&p[2], 0, 1);
#endif
  __threadfence();
  if (threadIdx.x == 0) {
    __threadfence_system();
    atomicExch(flag, 1u);
  }
  __threadfence_block();
}

// Simple spin lock with CAS + fence (one thread per block).
__global__ void spinLockCounter(int *lock, int *counter) {
  if (threadIdx.x == 0) {
    while (atomicCAS(lock, 0, 1) != 0) {
    }
    __threadfence();
    *counter += 1;
    __threadfence();
    atomicExch(lock, 0);
  }
}

// Unsigned short CAS (sm_70+).
__global__ void cas16(unsigned short *p) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 700
  atomicCAS(p, (unsigned short)0, (unsigned short)threadIdx.x);
#endif
}
