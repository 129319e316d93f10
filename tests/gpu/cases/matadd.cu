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
// reference of the benchmark (scripts/bench-coalesce.py).
#define MATADD_6B(T, NAME)                                              \
  extern "C" __global__ void NAME(const T *in1, const T *in2, T *out) { \
    int i = blockIdx.x * blockDim.x + threadIdx.x;                      \
    out[i] = in1[i] + in2[i];                                           \
  }

MATADD_6B(int, matadd_int_coalesced)
MATADD_6B(float, matadd_float_coalesced)
MATADD_6B(char, matadd_char_coalesced)
MATADD_6B(short, matadd_short_coalesced)
