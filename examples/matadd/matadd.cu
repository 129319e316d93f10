// The paper's matrix add (van den Braak et al., SAMOS 2010, Fig. 6):
// each thread adds one element, but consecutive threads of a warp
// (threadIdx.x) touch elements gridDim.x apart: every access of a warp hits
// a different memory segment. Swapping the roles of threadIdx.x and
// blockIdx.x (Fig. 6-b) makes the same kernel fully coalesced.
//
// Regenerate the PTX next to this file with:
//   nvcc -arch=sm_90 -lineinfo -ptx matadd.cu -o matadd.ptx

// Fig. 6-a: uncoalesced (stride gridDim.x elements along threadIdx.x).
__global__ void matadd_int(const int *in1, const int *in2, int *out) {
  int i = threadIdx.x * gridDim.x + blockIdx.x;
  out[i] = in1[i] + in2[i];
}

// The same on 8-bit data: uncoalesced and one byte per access.
__global__ void matadd_char(const char *in1, const char *in2, char *out) {
  int i = threadIdx.x * gridDim.x + blockIdx.x;
  out[i] = in1[i] + in2[i];
}

// Fig. 6-b: the coalesced form.
__global__ void matadd_int_coalesced(const int *in1, const int *in2, int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in1[i] + in2[i];
}
