// Lookalikes found in the fourteenth session's review of the compile-time
// sizes (issue 30; TransposeConstDiv.cpp, TransposeFlat.cpp): a quotient
// register written on two paths (i / w on one, a load on the other) is not
// i / w where it is read, with a constant and with a parameter divisor;
// tests/lit/transpose/constdiv-review.test checks no clone is made.
// Compiled with: nvcc -arch=sm_90 -O3 -ptx constdiv-review.cu -o constdiv-review.ptx
extern "C" __global__ void phi_c(const float *__restrict__ in, float *__restrict__ out, const int *__restrict__ alt, int n, int flag) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int q;
    if (i > flag) q = i / 40; else q = alt[0];
    int b = q / 37;
    int c = i % 40, m = (i / 40) % 37;
    out[(b * 40 + c) * 37 + m] = in[i];
  }
}
extern "C" __global__ void phi_p(const float *__restrict__ in, float *__restrict__ out, const int *__restrict__ alt, int n, int flag, int W, int H) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int q;
    if (i > flag) q = i / W; else q = alt[0];
    int b = q / H;
    int c = i % W, m = (i / W) % H;
    out[(b * W + c) * H + m] = in[i];
  }
}
