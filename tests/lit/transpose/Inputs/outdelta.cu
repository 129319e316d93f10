// A transpose whose store goes through `(char *)out + delta`, delta a 64-bit
// integer parameter: two address terms could be the pointer, so the access
// has no base (the analysis, findBase) and no disjointness condition can be
// asked; before, the clone paired `in` with `delta` (params 0 and 2).
// Compiled with: nvcc -arch=sm_90 -ptx outdelta.cu -o outdelta.ptx
extern "C" __global__ void transpose_out_delta(const float *in, float *out, long long delta, int W, int H) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  float *o = (float *)((char *)out + delta);
  if (x < W && y < H) o[x * H + y] = in[y * W + x];
}
