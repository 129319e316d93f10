// Row walks whose loads read part of each iteration's bytes (issue 29: the
// real parts of interleaved complex data, `Z[2*j]`; a field of a struct
// element; every fourth float), for rowwalk's staged clone of rows read with
// gaps (Planner::gapsRefusal, alignGappedPiece; tests/lit/rowwalk/gaps.test,
// gaps-emu.test; the GPU: tests/gpu/CasesRowWalkGaps.cpp, "rowwalk gaps").
// A thread per row, `if (i < rows)`. Built: nvcc -O3 -arch=sm_90 -ptx.
struct Cplx {
  float re, im;
};

// Staged: the real parts, 4 of every 8 bytes.
extern "C" __global__ void re_sum_f32(const float *Z, float *out, int rows, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < rows) {
    float s = 0.0f;
    for (int j = 0; j < 2 * n; j += 2) s += Z[(size_t)i * 2 * n + j];
    out[i] = s;
  }
}

// Staged: a field of a struct element.
extern "C" __global__ void re_field_f32(const Cplx *Z, float *out, int rows, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < rows) {
    float s = 0.0f;
    for (int j = 0; j < n; j++) s += Z[(size_t)i * n + j].re;
    out[i] = s;
  }
}

// Staged: the imaginary parts of doubles; the piece starts 8 bytes below
// the lowest load, at the row's 16-byte boundary.
extern "C" __global__ void im_sum_f64(const double *Z, double *out, int rows, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < rows) {
    double s = 0.0;
    for (int j = 0; j < n; j++) s += Z[(size_t)i * 2 * n + 2 * j + 1];
    out[i] = s;
  }
}

// Staged: two of every four floats (x and y of float4 points).
extern "C" __global__ void xy_of4_f32(const float4 *P, float *out, int rows, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < rows) {
    float s = 0.0f;
    for (int j = 0; j < n; j++) {
      const float *p = (const float *)&P[(size_t)i * n + j];
      s += p[0] * p[1];
    }
    out[i] = s;
  }
}

// Staged: every fourth float through a 32-bit index (each 16-byte block
// holds one).
extern "C" __global__ void every4_f32(const float *Z, float *out, int rows, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < rows) {
    float s = 0.0f;
    for (int j = 0; j < n; j++) s += Z[i * 4 * n + 4 * j];
    out[i] = s;
  }
}

// Staged (and lanes: integers): the even elements, `unsigned` indices.
extern "C" __global__ void re_sum_u32(const unsigned *Z, unsigned *out, unsigned rows, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < rows) {
    unsigned s = 0;
    for (unsigned j = 0; j < n; j++) s += Z[i * 2 * n + 2 * j];
    out[i] = s;
  }
}

// Refused: every eighth float, 16 of every 32 bytes hold nothing it reads
// (the copies would read sectors the loop does not).
extern "C" __global__ void every8_f32(const float *Z, float *out, int rows, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < rows) {
    float s = 0.0f;
    for (int j = 0; j < n; j++) s += Z[(size_t)i * 8 * n + 8 * j];
    out[i] = s;
  }
}

// Refused: it stores along the row it reads with gaps (the write-back
// would write the gaps).
extern "C" __global__ void re_scale_f32(float *Z, int rows, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < rows)
    for (int j = 0; j < n; j++) Z[(size_t)i * 2 * n + 2 * j] *= 2.0f;
}

// Refused: walked down with gaps (the allocation checks assume tiles going up).
extern "C" __global__ void re_down_f32(const float *Z, float *out, int rows, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < rows) {
    float s = 0.0f;
    for (int j = n - 1; j >= 0; j--) s += Z[(size_t)i * 2 * n + 2 * j];
    out[i] = s;
  }
}

// Refused: 16-bit elements with gaps (rows of shorts have their own reads).
extern "C" __global__ void even_u16(const unsigned short *S, unsigned *out, int rows, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < rows) {
    unsigned s = 0;
    for (int j = 0; j < n; j++) s += S[(size_t)i * 2 * n + 2 * j];
    out[i] = s;
  }
}
