// Kernels for the coverage counts and the HTML report (coverage.test and
// html.test in tests/lit/analysis): one global access of each verdict, and
// unknown accesses of two causes. Regenerate coverage.ptx with
//   nvcc -arch=sm_90 -lineinfo -ptx coverage.cu -o coverage.ptx
// (.file then names this file by its absolute path; where that path does not
// exist the report finds coverage.cu beside the PTX, by its base name).

// Coalesced load and store, a uniform load, an uncoalesced load (stride 68 bytes).
__global__ void verdicts(const float *in, float *out, const float *scale) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float s = scale[0];
  out[i] = in[i] * s + in[i * 17];
}

// Unknown addresses: a gather through an index loaded from memory, a slot
// taken from an atomic's result (atom written inline, so that its .loc is
// this file and not a CUDA header that may be missing where tests run).
__global__ void unknowns(const int *idx, const float *in, float *out, int *counter) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = in[idx[i]];
  int slot;
  asm volatile("atom.global.add.u32 %0, [%1], 1;" : "=r"(slot) : "l"(counter));
  out[slot] = v;
}

// <html> & "quotes" in a comment: the report must escape them.
__global__ void escape_me(int *p) { p[threadIdx.x] = 1; }
