// The paper's matrix add (van den Braak et al., SAMOS 2010, Fig. 6) for the
// element types of the differential tests (tests/gpu/gpu_diff.cpp).
// Fig. 6-a: thread (threadIdx.x, blockIdx.x) adds element
// threadIdx.x * gridDim.x + blockIdx.x, so the threads of a warp touch
// elements gridDim.x apart (uncoalesced). Fig. 6-b: the coalesced form.

#define MATADD_6A(T, NAME)                                              \
  extern "C" __global__ void NAME(const T *in1, const T *in2, T *out) { \
    int i = threadIdx.x * gridDim.x + blockIdx.x;                       \
    out[i] = in1[i] + in2[i];                                           \
  }

MATADD_6A(int, matadd_int)
MATADD_6A(float, matadd_float)
MATADD_6A(char, matadd_char)
MATADD_6A(short, matadd_short)

// Fig. 6-b: already coalesced (unit stride on threadIdx.x); the hand-written
// reference of the benchmark (scripts/bench/coalesce.py).
#define MATADD_6B(T, NAME)                                              \
  extern "C" __global__ void NAME(const T *in1, const T *in2, T *out) { \
    int i = blockIdx.x * blockDim.x + threadIdx.x;                      \
    out[i] = in1[i] + in2[i];                                           \
  }

MATADD_6B(int, matadd_int_coalesced)
MATADD_6B(float, matadd_float_coalesced)
MATADD_6B(char, matadd_char_coalesced)
MATADD_6B(short, matadd_short_coalesced)

// Hand-written short-word grouping (the references of the group pass's
// benchmark, docs/BENCHMARKS.md): each thread adds 16 bytes (Fig. 6-b
// indexing over 16-byte words), element by element in the type's width, so
// the results equal the 1-element kernels' bit for bit. Launched with
// grid.x * block.x = n / (16 / sizeof(T)).
#define MATADD_VEC16(T, NAME)                                                                  \
  extern "C" __global__ void NAME(const T *in1, const T *in2, T *out) {                       \
    int i = blockIdx.x * blockDim.x + threadIdx.x;                                             \
    uint4 a = reinterpret_cast<const uint4 *>(in1)[i], b = reinterpret_cast<const uint4 *>(in2)[i], c; \
    const T *pa = reinterpret_cast<const T *>(&a), *pb = reinterpret_cast<const T *>(&b);       \
    T *pc = reinterpret_cast<T *>(&c);                                                          \
    _Pragma("unroll") for (int j = 0; j < int(16 / sizeof(T)); ++j) pc[j] = pa[j] + pb[j];     \
    reinterpret_cast<uint4 *>(out)[i] = c;                                                      \
  }
MATADD_VEC16(char, matadd_char_vec16)
MATADD_VEC16(short, matadd_short_vec16)
MATADD_VEC16(int, matadd_int_vec16)
MATADD_VEC16(float, matadd_float_vec16)

// The paper's 4-byte grouping for 8-bit data: four chars per thread.
extern "C" __global__ void matadd_char_vec4(const char *in1, const char *in2, char *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  char4 a = reinterpret_cast<const char4 *>(in1)[i], b = reinterpret_cast<const char4 *>(in2)[i];
  reinterpret_cast<char4 *>(out)[i] = make_char4(a.x + b.x, a.y + b.y, a.z + b.z, a.w + b.w);
}
