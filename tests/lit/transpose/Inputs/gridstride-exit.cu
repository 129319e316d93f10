// Grid-stride loops whose body can leave the loop (issue 30; src/transforms/
// TransposeGridStride.cpp, onlyLatchLeaves): a thread that loops several
// times stops at its first exiting iteration, so the loop clone (which runs
// every index below the bound) is not made for them; the clones of one
// element per thread (each thread's loop runs once) are.
// tests/lit/transpose/gridstride-exit.test; gpu-diff "transpose gridstride exit".
// Compiled with: nvcc -arch=sm_90 -O3 -ptx gridstride-exit.cu -o gridstride-exit.ptx
#define KERNEL_LOOP(i, n) for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < (n); i += blockDim.x * gridDim.x)

// A break on a zero element: the thread's later elements stay unwritten.
extern "C" __global__ void gx_break(const float *in, float *out, int W, int H, int n) {
  KERNEL_LOOP(i, n) {
    float v = in[i];
    if (v == 0.0f) break;
    int x = i % W, y = i / W;
    out[x * H + y] = v;
  }
}

// A return past a column limit.
extern "C" __global__ void gx_return(const float *in, float *out, int W, int H, int n, int lim) {
  KERNEL_LOOP(i, n) {
    int x = i % W, y = i / W;
    if (x >= lim) return;
    out[x * H + y] = in[i];
  }
}

// The same loop without an exit: the loop clone.
extern "C" __global__ void gx_plain(const float *in, float *out, int W, int H, int n) {
  KERNEL_LOOP(i, n) {
    int x = i % W, y = i / W;
    out[x * H + y] = in[i];
  }
}
