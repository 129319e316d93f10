// Probe kernels of rotated and remainder-shaped row walks (tests/gpu/CasesRowWalkSweep.cpp,
// addRowWalkProbe): `for (j = START; j < N; j++) s += row[j]` over rows PITCH
// elements apart, for element types of 1 to 8 bytes. nvcc lays most of them
// out as rotated loops (N - START not a multiple of its unroll factor), with
// positive and negative offsets in the first block's addresses; rows N
// elements apart (PITCH == N) cannot all be aligned. Each clone is compared
// bit for bit with the original.
#define ROWSUM(name, T, ACC, START, N, PITCH)                                   \
  extern "C" __global__ void name(const T *A, ACC *y, int rows) {              \
    int r = blockIdx.x * blockDim.x + threadIdx.x;                             \
    if (r >= rows) return;                                                     \
    const T *row = A + (size_t)r * PITCH;                                      \
    ACC s = 0;                                                                 \
    for (int j = START; j < N; j++) s += row[j];                               \
    y[r] = s;                                                                  \
  }
#define FOUR(T, ACC, tn)                                  \
  ROWSUM(probe_##tn##_from1_2048, T, ACC, 1, 2048, 2048) \
  ROWSUM(probe_##tn##_2047_of_2048, T, ACC, 0, 2047, 2048) \
  ROWSUM(probe_##tn##_from3_1023, T, ACC, 3, 1023, 1024) \
  ROWSUM(probe_##tn##_from2_1022, T, ACC, 2, 1022, 1024)
FOUR(float, float, f32)
FOUR(double, double, f64)
FOUR(int, int, i32)
FOUR(short, int, i16)
FOUR(unsigned char, int, u8)
ROWSUM(probe_f32_1023_of_1023, float, float, 0, 1023, 1023)
ROWSUM(probe_i32_2047_of_2047, int, int, 0, 2047, 2047)
// int rows summed into a long long (nvcc: `ld.global.s32 %rd, ...`, each
// element sign-extended by the load): the lanes and staged clones load them
// four at a time (`ld.global.v4.s32 {%rd..}`, `ld.shared.v4.s32 {%rd..}`);
// random words, negative ones among them (the nineteenth session's probe:
// the interpreter had zero-extended such loads).
ROWSUM(probe_i32ll_2048, int, long long, 0, 2048, 2048)

// Rows read through a bumped pointer (nvcc's `add.s64 t, p, 16` ...
// `mov.u64 p, t`, an induction variable through a copy since the twentieth
// session), rows read in pairs whose [p+4] nvcc loads before [p] (the
// staged clone's 16-byte runs read from the wrong offset before then), and
// integer accumulators that subtract (`sub` a reduction of the lanes
// clones since then; char4's chain with dp4a): the lit tests' kernels.
#include "../../lit/rowwalk/Inputs/postinc.cu"
#include "../../lit/rowwalk/Inputs/pairs.cu"
#include "../../lit/rowwalk/Inputs/subacc.cu"
// Prefix sums (`t += a; s += t`): the lanes clones refused since the
// twentieth session (they gave wrong sums), the staged ones exact.
#include "../../lit/rowwalk/Inputs/prefix.cu"
