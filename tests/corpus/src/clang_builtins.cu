// Header-free CUDA for clang exercising NVVM builtins: shuffles, votes,
// atomics, barriers, special registers, ldg.
#define __global__ __attribute__((global))
#define __device__ __attribute__((device))
#define __shared__ __attribute__((shared))

typedef unsigned long long u64;

__device__ static inline float warpSum(float v) {
  for (int o = 16; o > 0; o >>= 1)
    v += __nvvm_shfl_sync_down_f32(0xffffffffu, v, o, 0x1f);
  return v;
}

__global__ void warpReduce(const float *in, float *out, int n) {
  int i = __nvvm_read_ptx_sreg_ctaid_x() * __nvvm_read_ptx_sreg_ntid_x() +
          __nvvm_read_ptx_sreg_tid_x();
  float v = i < n ? __nvvm_ldg_f(in + i) : 0.f;
  v = warpSum(v);
  if ((__nvvm_read_ptx_sreg_tid_x() & 31) == 0)
    __nvvm_atom_add_gen_f(out, v);
}

__global__ void votesAndAtomics(const int *in, unsigned *ballots, int *counters) {
  unsigned t = __nvvm_read_ptx_sreg_tid_x();
  int v = in[t];
  unsigned b = __nvvm_vote_ballot_sync(0xffffffffu, v > 0);
  int all = __nvvm_vote_all_sync(0xffffffffu, v != 0);
  if (__nvvm_read_ptx_sreg_laneid() == 0) ballots[t / 32] = b ^ all;
  __nvvm_atom_add_gen_i(&counters[0], 1);
  __nvvm_atom_max_gen_i(&counters[1], v);
  __nvvm_atom_cas_gen_i(&counters[2], 0, v);
  __nvvm_atom_xchg_gen_i(&counters[3], v);
  __nvvm_membar_gl();
  __nvvm_bar_sync(0);
}

__global__ void clocksAndIds(u64 *out) {
  u64 t0 = __nvvm_read_ptx_sreg_clock64();
  unsigned w = __nvvm_read_ptx_sreg_warpid();
  unsigned y = __nvvm_read_ptx_sreg_tid_y();
  unsigned z = __nvvm_read_ptx_sreg_ctaid_z();
  out[__nvvm_read_ptx_sreg_tid_x()] =
      (__nvvm_read_ptx_sreg_clock64() - t0) + w + y + z;
}

__device__ __attribute__((noinline)) unsigned fact(unsigned n) {
  return n <= 1 ? 1 : n * fact(n - 1);
}

__global__ void recursion(unsigned *out) {
  out[__nvvm_read_ptx_sreg_tid_x()] = fact(__nvvm_read_ptx_sreg_tid_x() & 7);
}

__global__ void fastMath(const float *x, float *y) {
  unsigned i = __nvvm_read_ptx_sreg_tid_x();
  float a = x[i];
  y[i] = __nvvm_sqrt_rn_f(a) + __nvvm_rcp_approx_ftz_d(a) +
         __nvvm_fmax_f(a, 1.f) + __nvvm_ex2_approx_f(a) +
         __nvvm_fma_rn_f(a, a, a) + __nvvm_saturate_f(a);
}
