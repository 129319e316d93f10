// int rows summed into a long long (tests/lit/rowwalk/signed-emu.test):
// nvcc loads each element with `ld.global.s32 %rd`, sign-extending it; the
// lanes, staged and pack clones load four at a time (`ld.global.v4.s32
// {%rd..}`, `ld.shared.v4.s32 {%rd..}`, or a v4 load and cvt.s64.s32), and
// must give the same sums for negative elements too (the nineteenth
// session's probe: the interpreter zero-extended such loads before).
//   nvcc -arch=sm_90 -O3 -ptx signedrows.cu -o signedrows.ptx   (nvcc 13.0)
extern "C" __global__ void rowsum_i_to_ll(const int *A, long long *y, int rows, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < rows) {
    long long s = 0;
    for (int j = 0; j < n; j++) s += A[(size_t)i * n + j];
    y[i] = s;
  }
}
