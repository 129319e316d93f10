// Row walks reading pairs, `s += p[0] * p[1]; p += 2` (tests/lit/rowwalk/
// pairs-emu.test): nvcc loads each pair's [p+4] before its [p]. The staged
// clone merges a 16-byte run of row loads into one ld.shared.v4 placed at
// the run's first load in program order; before the twentieth session it
// also read from that load's offset (+4), not the run's lowest (+0), so
// every pair came out shifted by one element: a wrong sum (the interpreter
// found it; no GPU case or program had loads out of offset order).
//   nvcc -arch=sm_90 -O3 -ptx pairs.cu -o pairs.ptx   (nvcc 13.0)
// Floats (staged, pack; lanes with --reassociate only).
extern "C" __global__ void pairs_pp(const float *A, float *y, int rows, int pairs) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < rows) {
    const float *p = A + (size_t)i * 2 * pairs;
    float s = 0;
    for (int j = 0; j < pairs; j++, p += 2) s += p[0] * p[1];
    y[i] = s;
  }
}
// The same with ints (lanes clones too: integer sums are exact).
extern "C" __global__ void pairs_i(const int *A, int *y, int rows, int pairs) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < rows) {
    const int *p = A + (size_t)i * 2 * pairs;
    int s = 0;
    for (int j = 0; j < pairs; j++, p += 2) s += p[0] * p[1];
    y[i] = s;
  }
}
// Pairs of shorts (the staged clone's short rows).
extern "C" __global__ void pairs_s16(const short *A, int *y, int rows, int pairs) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < rows) {
    const short *p = A + (size_t)i * 2 * pairs;
    int s = 0;
    for (int j = 0; j < pairs; j++, p += 2) s += p[0] * p[1];
    y[i] = s;
  }
}
