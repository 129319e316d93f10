// ptx-nvcc test program (tests/nvcc): the paper's matrix add, unmodified,
// launched with shapes that pick different variants. Linked with
// fake_cudart.cpp, no GPU runs anything: each launch prints what ran.
#include "matadd.cu"
#include <cstdio>
#include <cstdlib>

__global__ void no_clones(int *out) { out[threadIdx.x] = 1; }

int main() {
  // an allocation first, as programs make theirs before their kernels run
  // (after it the shim loads clone images under lazy loading: NvccPreload.cpp)
  if (std::getenv("LAUNCHES_ALLOCATE")) {
    void *d = nullptr;
    (void)cudaMalloc(&d, 16);
  }
  int *p = reinterpret_cast<int *>(0x100000);
  char *c = reinterpret_cast<char *>(0x200000);
  matadd_int<<<512, 256>>>(p, p, p);        // swap: grid 256, block 512
  matadd_int<<<65536, 1024>>>(p, p, p);     // swap too large: split
  matadd_int<<<2000, 1000>>>(p, p, p);      // swap and splits fail: remap
  matadd_char<<<512, 256>>>(c, c, c);       // swap
  matadd_int_coalesced<<<512, 256>>>(p, p, p);  // no clones: original
  no_clones<<<1, 32>>>(p);                  // no clones: original
  std::printf("done\n");
  return 0;
}
