// Rows whose start the kernel loads, a thread per row: an embedding's rows
// gathered by index (`E[idx[i]*d + j]`), rows through an array of row
// pointers (`float **`). The staged clone with each lane's row start
// checked for 16-byte alignment by its warp (Planner::unknownRows: a row
// register stepping 16-128 bytes from a start the analysis cannot write
// because it was loaded; thirty-fourth session).
// tests/lit/rowwalk/gathered.test, gathered-emu.test; gpu-diff "rowwalk
// gathered". nvcc -arch=sm_90 -O3 -ptx (nvcc 13.0).

// Candidate scores: rows of an embedding table picked by index, `size_t`.
extern "C" __global__ void embed_dot_f32(const float *E, const int *idx, const float *q, float *out, int n, int d) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    const int r = idx[i];
    float s = 0.f;
    for (int j = 0; j < d; j++) s += E[(size_t)r * d + j] * q[j];
    out[i] = s;
  }
}

// A bag of rows summed per output: int rows by `int` index, early return.
extern "C" __global__ void gather_sum_i32(const int *E, const int *idx, int *out, int n, int d) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const int r = idx[i];
  int s = 0;
  for (int j = 0; j < d; j++) s += E[r * d + j] ^ j;
  out[i] = s;
}

// Rows through an array of row pointers (a jagged matrix).
extern "C" __global__ void rowptr_sum_f32(const float *const *rows, float *out, int n, int d) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    const float *row = rows[i];
    float s = 0.f;
    for (int j = 0; j < d; j++) s += row[j];
    out[i] = s;
  }
}

// `unsigned` rows picked by index: nvcc's 32-bit index form.
extern "C" __global__ void gather_max_u32(const unsigned *E, const unsigned *idx, unsigned *out, unsigned n,
                                          unsigned d) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    const unsigned r = idx[i];
    unsigned m = 0;
    for (unsigned j = 0; j < d; j++) m = max(m, E[r * d + j]);
    out[i] = m;
  }
}
