// Row walks whose sizes come in a struct passed by value (`struct P p`,
// `p.m`; the way kernels that take a parameter block are written), for
// rowwalk's row-length floors on struct fields (tests/lit/rowwalk/structparam.test,
// structparam-emu.test; LanePlan::tripFields, manifest minParams with
// offset and bytes). Compiled with
//   nvcc -arch=sm_90 -O3 -ptx structparam.cu -o structparam.ptx
// (nvcc 13.0). nvcc loads n and m with one ld.param.v2.u32 at byte 24.
struct Gemv {
  const float *A;
  const float *x;
  float *y;
  int n, m;
};

// The staged clones (the rows' alignment is a field too: no condition
// checks it, so the unaligned clone), floor on p.m (bytes 28..31).
extern "C" __global__ void gemv_struct_f32(Gemv p) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= p.n) return;
  float s = 0.0f;
  for (int j = 0; j < p.m; j++) s += p.A[(size_t)i * p.m + j] * p.x[j];
  p.y[i] = s;
}

struct Rows {
  int n;
  long long m;
};

// Integer row sums, the pointers apart and a 64-bit row length in the
// struct (bytes 8..15): the lanes clones' floors on it.
extern "C" __global__ void rowsum_struct_i32(const int *A, int *y, Rows r) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= r.n) return;
  int s = 0;
  for (long long j = 0; j < r.m; j++) s += A[i * r.m + j];
  y[i] = s;
}
