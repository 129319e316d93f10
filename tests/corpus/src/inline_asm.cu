// Inline PTX assembly: special registers, predicates, labels, vector ops.
#include <cstdint>

__device__ __forceinline__ unsigned laneId() {
  unsigned r;
  asm volatile("mov.u32 %0, %%laneid;" : "=r"(r));
  return r;
}

__device__ __forceinline__ unsigned smId() {
  unsigned r;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(r));
  return r;
}

__device__ __forceinline__ uint64_t globalTimer() {
  uint64_t t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

__global__ void specialRegs(unsigned *out, uint64_t *times) {
  uint64_t t0 = globalTimer();
  unsigned lane = laneId(), sm = smId();
  unsigned clk;
  asm volatile("mov.u32 %0, %%clock;" : "=r"(clk));
  out[blockIdx.x * blockDim.x + threadIdx.x] = (sm << 16) | lane;
  times[blockIdx.x] = globalTimer() - t0 + clk;
}

__global__ void asmArith(const unsigned *a, const unsigned *b, unsigned *c,
                         uint64_t *wide) {
  int i = threadIdx.x;
  unsigned x = a[i], y = b[i], r, lo, hi, rev, p;
  asm("add.cc.u32 %0, %2, %3;\n\t"
      "addc.u32 %1, 0, 0;"
      : "=r"(lo), "=r"(hi)
      : "r"(x), "r"(y));
  asm("brev.b32 %0, %1;" : "=r"(rev) : "r"(x));
  asm("bfe.u32 %0, %1, 4, 8;" : "=r"(r) : "r"(y));
  asm("prmt.b32 %0, %1, %2, 0x3210;" : "=r"(p) : "r"(x), "r"(y));
  asm("{\n\t"
      ".reg .pred p;\n\t"
      "setp.gt.u32 p, %1, %2;\n\t"
      "@p mov.u32 %0, %1;\n\t"
      "@!p mov.u32 %0, %2;\n\t"
      "}"
      : "=r"(c[i])
      : "r"(x ^ r), "r"(y ^ p));
  uint64_t w;
  asm("mul.wide.u32 %0, %1, %2;" : "=l"(w) : "r"(lo), "r"(rev));
  wide[i] = w + hi;
}

__global__ void asmMemory(const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v;
  asm volatile("ld.global.nc.f32 %0, [%1];" : "=f"(v) : "l"(in + i));
  float4 q;
  asm volatile("ld.global.v4.f32 {%0,%1,%2,%3}, [%4];"
               : "=f"(q.x), "=f"(q.y), "=f"(q.z), "=f"(q.w)
               : "l"(in + 4 * (i / 4)));
  v += q.x + q.y + q.z + q.w;
  asm volatile("st.global.cs.f32 [%0], %1;" ::"l"(out + i), "f"(v) : "memory");
  asm volatile("membar.gl;" ::: "memory");
  asm volatile("prefetch.global.L2 [%0];" ::"l"(in + i + 1024));
}

__global__ void asmLoop(int *out, int n) {
  int acc;
  asm volatile("{\n\t"
               ".reg .pred %%p;\n\t"
               ".reg .s32 %%i;\n\t"
               "mov.s32 %0, 0;\n\t"
               "mov.s32 %%i, 0;\n"
               "LOOP_%=:\n\t"
               "add.s32 %0, %0, %%i;\n\t"
               "add.s32 %%i, %%i, 1;\n\t"
               "setp.lt.s32 %%p, %%i, %1;\n\t"
               "@%%p bra LOOP_%=;\n\t"
               "}"
               : "=r"(acc)
               : "r"(n));
  out[threadIdx.x] = acc;
}

__global__ void asmFloat(const float *x, float *y) {
  int i = threadIdx.x;
  float r, s, e;
  asm("rcp.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x[i]));
  asm("sqrt.rn.f32 %0, %1;" : "=f"(s) : "f"(x[i]));
  asm("ex2.approx.f32 %0, %1;" : "=f"(e) : "f"(x[i]));
  float m;
  asm("fma.rn.sat.f32 %0, %1, %2, %3;" : "=f"(m) : "f"(r), "f"(s), "f"(e));
  double d;
  asm("cvt.f64.f32 %0, %1;" : "=d"(d) : "f"(m));
  y[i] = (float)(d * 2.0);
}

// Indirect branch through a .branchtargets table (brx.idx).
__global__ void asmJumpTable(const unsigned *sel, int *out) {
  int r;
  asm volatile("{\n\t"
               ".reg .u32 %%k;\n\t"
               "and.b32 %%k, %1, 3;\n\t"
               "TBL_%=: .branchtargets C0_%=, C1_%=, C2_%=, C3_%=;\n\t"
               "brx.idx %%k, TBL_%=;\n"
               "C0_%=:\n\t"
               "mov.s32 %0, 10;\n\t"
               "bra.uni END_%=;\n"
               "C1_%=:\n\t"
               "mov.s32 %0, 20;\n\t"
               "bra.uni END_%=;\n"
               "C2_%=:\n\t"
               "mov.s32 %0, 30;\n\t"
               "bra.uni END_%=;\n"
               "C3_%=:\n\t"
               "mov.s32 %0, 40;\n"
               "END_%=:\n\t"
               "}"
               : "=r"(r)
               : "r"(sel[threadIdx.x]));
  out[threadIdx.x] = r;
}
