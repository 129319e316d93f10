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

// Rows read through a bumped pointer (tests/lit/rowwalk/Inputs/postinc.cu:
// nvcc's `add.s64 t, p, 16` ... `mov.u64 p, t`, an induction variable
// through a copy since the twentieth session) and rows read in pairs whose
// [p+4] nvcc loads before [p] (tests/lit/rowwalk/Inputs/pairs.cu: the
// staged clone's 16-byte runs read from the wrong offset before then).
extern "C" __global__ void rowsum_pp(const float *A, float *y, int rows, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < rows) {
    const float *p = A + (size_t)i * n;
    float s = 0;
    for (int j = 0; j < n; j++) s += *p++;
    y[i] = s;
  }
}
extern "C" __global__ void mv_pp(const float *A, const float *x, float *y, int rows, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < rows) {
    const float *p = A + (size_t)i * n;
    const float *q = x;
    float s = 0;
    for (int j = 0; j < n; j++) s += *p++ * *q++;
    y[i] = s;
  }
}
extern "C" __global__ void isum_while(const int *A, int *y, int rows, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < rows) {
    const int *p = A + (size_t)i * n;
    const int *e = p + n;
    int s = 0;
    while (p != e) s += *p++;
    y[i] = s;
  }
}
extern "C" __global__ void dsum_pitch(const double *A, double *y, int rows, int n, int lda) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < rows) {
    const double *p = A + (size_t)i * lda;
    double s = 0;
    for (int j = 0; j < n; j++) s += *p++ * 0.5;
    y[i] = s;
  }
}
extern "C" __global__ void pairs_pp(const float *A, float *y, int rows, int pairs) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < rows) {
    const float *p = A + (size_t)i * 2 * pairs;
    float s = 0;
    for (int j = 0; j < pairs; j++, p += 2) s += p[0] * p[1];
    y[i] = s;
  }
}
extern "C" __global__ void pairs_i(const int *A, int *y, int rows, int pairs) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < rows) {
    const int *p = A + (size_t)i * 2 * pairs;
    int s = 0;
    for (int j = 0; j < pairs; j++, p += 2) s += p[0] * p[1];
    y[i] = s;
  }
}
// Integer accumulators that subtract (tests/lit/rowwalk/Inputs/subacc.cu:
// `sub` a reduction of the lanes clones since the twentieth session).
extern "C" __global__ void rowsum_sub(const int *A, int *y, int rows, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < rows) {
    int s = 1000;
    for (int j = 0; j < n; j++) s -= A[(size_t)i * n + j];
    y[i] = s;
  }
}
extern "C" __global__ void rowsum_rsub(const int *A, int *y, int rows, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < rows) {
    int s = 0;
    for (int j = 0; j < n; j++) s = A[(size_t)i * n + j] - s;
    y[i] = s;
  }
}
// char4 pixels: a chain of sub, add, dp4a and mad.lo (subacc.cu).
extern "C" __global__ void rowsum_char4(const char4 *A, int *y, int n, int m) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int s = 0;
    for (int j = 0; j < m; j++) {
      char4 c = A[i * m + j];
      s += c.x * c.w - c.y + c.z;
    }
    y[i] = s;
  }
}
