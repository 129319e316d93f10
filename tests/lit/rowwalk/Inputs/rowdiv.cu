// A row read as float4 whose length in vectors the kernel divides out
// (`A4[i*(cols/4) + k]`, the thirteenth held-out batch's rowdot_f4): the
// analysis names cols / 4 (a signed division: shifts and an add) only as a
// thread-uniform value, which the row walks take as unknown; the remark
// says so (tests/lit/rowwalk/rowdiv.test). Compiled with
//   nvcc -arch=sm_90 -O3 -ptx rowdiv.cu -o rowdiv.ptx
// (nvcc 13.0).
extern "C" __global__ void rowdot_f4(const float *A, const float *w, float *out, int rows, int cols) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < rows) {
    const float4 *A4 = reinterpret_cast<const float4 *>(A);
    float s = 0.0f;
    for (int k = 0; k < cols / 4; k++) {
      float4 v = A4[(size_t)i * (cols / 4) + k];
      s += v.x * w[4 * k] + v.y * w[4 * k + 1] + v.z * w[4 * k + 2] + v.w * w[4 * k + 3];
    }
    out[i] = s;
  }
}
