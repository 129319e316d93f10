// Matrix add, 8-bit (van den Braak et al., SAMOS 2010, Table II row 2:
// 1.02 ms original, 0.024 ms with the tool and by hand, 43x). The paper's
// tool swapped the indices (as for Fig. 6-a) and grouped four threads so that
// four bytes move as one 32-bit access.
//
// naive       Fig. 6-a on unsigned char: c[threadIdx.x*gridDim.x + blockIdx.x].
// hand_paper  what the paper did by hand: coalesced index and four bytes per
//             thread as one uchar4 (32-bit) access.
// hand_best   coalesced, 16 bytes per thread (uint4), 256-thread blocks.
//
// Sizes: 512 x 512 (the paper's matrix, section III; L2-resident today) and
// 65536 blocks x 1024 threads (64 MiB per array; 192 MiB moved).
#include "common.h"

extern "C" __global__ void matadd8_naive(const unsigned char *in1, const unsigned char *in2, unsigned char *out) {
  unsigned char t1 = in1[threadIdx.x * gridDim.x + blockIdx.x];
  unsigned char t2 = in2[threadIdx.x * gridDim.x + blockIdx.x];
  out[threadIdx.x * gridDim.x + blockIdx.x] = t1 + t2;
}

extern "C" __global__ void matadd8_hand_paper(const uchar4 *in1, const uchar4 *in2, uchar4 *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  uchar4 a = in1[i], b = in2[i];
  out[i] = make_uchar4(a.x + b.x, a.y + b.y, a.z + b.z, a.w + b.w);
}

__device__ __forceinline__ unsigned addBytes(unsigned a, unsigned b) {
  // Four independent 8-bit adds (no carries between the bytes).
  return ((a & 0x7f7f7f7fu) + (b & 0x7f7f7f7fu)) ^ ((a ^ b) & 0x80808080u);
}

extern "C" __global__ void matadd8_hand_best(const uint4 *__restrict__ in1, const uint4 *__restrict__ in2,
                                             uint4 *__restrict__ out) {
  size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  uint4 a = in1[i], b = in2[i];
  out[i] = make_uint4(addBytes(a.x, b.x), addBytes(a.y, b.y), addBytes(a.z, b.z), addBytes(a.w, b.w));
}

int main(int argc, char **argv) {
  ex::Bench B(argc, argv, "matadd8", "matadd8_naive");
  const unsigned shapes[][2] = {{512, 512}, {65536, 1024}};
  for (int si = 0; si < (B.small() ? 1 : 2); si++) {
    const unsigned M = shapes[si][0], N = shapes[si][1];
    const size_t n = size_t(M) * N;
    std::string size = std::to_string(M) + "x" + std::to_string(N);
    if (!B.wantSize(size, si, 2)) continue;
    std::vector<uint8_t> a(n), b(n), ref(n), got;
    ex::fillBytes(a, 1);
    ex::fillBytes(b, 2);
    for (size_t i = 0; i < n; ++i) ref[i] = uint8_t(a[i] + b[i]);
    ex::DevBuf<uint8_t> da(n), db(n), dc(n);
    da.upload(a);
    db.upload(b);
    double bytes = 3.0 * n;
    auto reset = [&] { dc.zero(); };
    auto verify = [&] {
      dc.download(got);
      return ex::sameAs(got, ref, "out");
    };
    unsigned char *pa = da.p, *pb = db.p, *pc = dc.p;
    void *args[] = {&pa, &pb, &pc};
    B.naive(size, bytes, [&] { matadd8_naive<<<M, N>>>(pa, pb, pc); }, dim3(M), dim3(N), args, reset, verify);
    B.hand(size, "hand_paper", bytes,
           [&] {
             matadd8_hand_paper<<<unsigned(n / 4 / 1024), 1024>>>(
                 reinterpret_cast<const uchar4 *>(pa), reinterpret_cast<const uchar4 *>(pb), reinterpret_cast<uchar4 *>(pc));
           },
           reset, verify);
    B.hand(size, "hand_best", bytes,
           [&] {
             matadd8_hand_best<<<unsigned(n / 16 / 256), 256>>>(
                 reinterpret_cast<const uint4 *>(pa), reinterpret_cast<const uint4 *>(pb), reinterpret_cast<uint4 *>(pc));
           },
           reset, verify);
  }
  return B.exitCode();
}
