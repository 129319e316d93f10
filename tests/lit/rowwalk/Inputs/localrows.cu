// Row walks that update an array of the thread's own, indexed by data: nvcc
// keeps it in local memory (`__local_depot`, ld.local/st.local in the loop).
// The staged clone takes them since the thirty-fifth session (planLanes
// skips local accesses for it: no row of the tiles can be there; the body
// copies keep them); the lanes clones, whose lanes would each have an array
// of their own, refuse with "local memory in the loop". heldout16's
// hist8_rows.
// tests/lit/rowwalk/localrows.test, localrows-emu.test; gpu-diff "rowwalk
// local". nvcc -arch=sm_90 -O3 -ptx (nvcc 13.0).

// A histogram of a byte row's top three bits (`int` index, unrolled by 4).
extern "C" __global__ void hist8_u8(const unsigned char *img, unsigned *hist, int rows, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < rows) {
    unsigned h[8] = {0, 0, 0, 0, 0, 0, 0, 0};
#pragma unroll 4
    for (int j = 0; j < n; j++) h[img[i * n + j] >> 5]++;
    for (int b = 0; b < 8; b++) hist[i * 8 + b] = h[b];
  }
}

// Float bins: each element added into the bin its value picks (`size_t`
// rows), the bins' weighted sum out.
extern "C" __global__ void bins_f32(const float *a, float *out, int rows, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= rows) return;
  const float *row = a + (size_t)i * n;
  float b[16];
#pragma unroll
  for (int k = 0; k < 16; k++) b[k] = 0.f;
  for (int j = 0; j < n; j++) {
    float v = row[j];
    b[((int)(v * 3.0f)) & 15] += v;
  }
  float s = 0.f;
#pragma unroll
  for (int k = 0; k < 16; k++) s += b[k] * (float)(k + 1);
  out[i] = s;
}

// The last position of each key (the low four bits of an int), summed.
extern "C" __global__ void lastpos_i32(const int *a, int *out, int rows, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= rows) return;
  const int *row = a + (size_t)i * n;
  int pos[16];
#pragma unroll
  for (int k = 0; k < 16; k++) pos[k] = -1;
  for (int j = 0; j < n; j++) pos[row[j] & 15] = j;
  int s = 0;
#pragma unroll
  for (int k = 0; k < 16; k++) s = s * 3 + pos[k];
  out[i] = s;
}

// Under a guard (a loop of several blocks: runGuarded): only keys 0-7
// counted. The local load stays inside its guard (the straight-line form
// takes 4- and 8-byte global loads only).
extern "C" __global__ void guarded_hist_i32(const int *a, unsigned *hist, int rows, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < rows) {
    unsigned h[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    const int *row = a + (size_t)i * n;
    for (int j = 0; j < n; j++) {
      int v = row[j];
      if ((unsigned)v < 8u) h[v]++;
    }
    for (int b = 0; b < 8; b++) hist[i * 8 + b] = h[b];
  }
}
