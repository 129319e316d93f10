// Inputs of the group pass's if/else lit test (ifelse.ptx is nvcc 13.0's
// output: nvcc -arch=sm_90 -ptx ifelse.cu -o ifelse.ptx, in this folder) and
// of its GPU differential cases (tests/gpu/cases/ifelse.cu): a value chosen
// on two paths, which nvcc compiles to a diamond of branches.

// `@p bra T; bra.uni F; T: <div>; bra.uni J; F: <mul>; J:`.
extern "C" __global__ void clamp_div(const unsigned short *in, unsigned short *out, int d) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned short c = in[i];
  unsigned short v;
  if (c > 100) v = c / d;
  else v = c * 3;
  out[i] = v;
}

// Border handling: 0 outside the interior, a division inside.
extern "C" __global__ void border_div(const unsigned char *in, unsigned char *out, int w, int h, int d) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
  unsigned c = in[y * w + x];
  unsigned char v;
  if (x > 0 && x < w - 1 && y > 0 && y < h - 1) v = (unsigned char)((c * 7 + y) / d);
  else v = 0;
  out[y * w + x] = v;
}

// Two diamonds in a row, and a guard before them.
extern "C" __global__ void two_diamonds(const unsigned char *in, unsigned char *out, int n, int d, int e) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned c = in[i];
  unsigned a, b;
  if (c & 1) a = c / d;
  else a = c * 5 + 1;
  if (c > 77) b = (c + 3) / e;
  else b = c >> 1;
  out[i] = (unsigned char)(a + b);
}
