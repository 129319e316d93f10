// Matrix add, 32-bit (van den Braak et al., SAMOS 2010, Fig. 6 and Table II
// row 1: 2.06 ms original, 0.067 ms with the tool and by hand, 31x).
//
// naive       Fig. 6-a: c[threadIdx.x*gridDim.x + blockIdx.x], launched with
//             M blocks of N threads: consecutive threads are M ints apart.
// hand_paper  Fig. 6-b: c[blockIdx.x*blockDim.x + threadIdx.x], same launch.
// hand_best   16-byte vectors (int4), 256-thread blocks.
//
// Sizes: 512 x 512 (the paper's matrix, section III; L2-resident today) and
// M = 65536 blocks x N = 1024 threads (64 Mi ints, 256 MiB per array, well
// above the 50/60 MB L2 of an H100/H200).
#include "common.h"

extern "C" __global__ void matadd32_naive(const int *in1, const int *in2, int *out) {
  int t1 = in1[threadIdx.x * gridDim.x + blockIdx.x];
  int t2 = in2[threadIdx.x * gridDim.x + blockIdx.x];
  out[threadIdx.x * gridDim.x + blockIdx.x] = t1 + t2;
}

extern "C" __global__ void matadd32_hand_paper(const int *in1, const int *in2, int *out) {
  int t1 = in1[blockIdx.x * blockDim.x + threadIdx.x];
  int t2 = in2[blockIdx.x * blockDim.x + threadIdx.x];
  out[blockIdx.x * blockDim.x + threadIdx.x] = t1 + t2;
}

extern "C" __global__ void matadd32_hand_best(const int4 *__restrict__ in1, const int4 *__restrict__ in2,
                                              int4 *__restrict__ out) {
  size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  int4 a = in1[i], b = in2[i];
  out[i] = make_int4(a.x + b.x, a.y + b.y, a.z + b.z, a.w + b.w);
}

int main(int argc, char **argv) {
  ex::Bench B(argc, argv, "matadd32", "matadd32_naive");
  const unsigned shapes[][2] = {{512, 512}, {65536, 1024}};
  for (int si = 0; si < (B.small() ? 1 : 2); si++) {
    const unsigned M = shapes[si][0], N = shapes[si][1];
    const size_t n = size_t(M) * N;
    std::string size = std::to_string(M) + "x" + std::to_string(N);
    if (!B.wantSize(size, si, 2)) continue;
    std::vector<int> a(n), b(n), ref(n), got;
    ex::fillInts(a, 1);
    ex::fillInts(b, 2);
    for (size_t i = 0; i < n; ++i) ref[i] = a[i] + b[i];
    ex::DevBuf<int> da(n), db(n), dc(n);
    da.upload(a);
    db.upload(b);
    double bytes = 3.0 * n * sizeof(int);
    auto reset = [&] { dc.zero(); };
    auto verify = [&] {
      dc.download(got);
      return ex::sameAs(got, ref, "out");
    };
    int *pa = da.p, *pb = db.p, *pc = dc.p;
    void *args[] = {&pa, &pb, &pc};
    B.naive(size, bytes, [&] { matadd32_naive<<<M, N>>>(pa, pb, pc); }, dim3(M), dim3(N), args, reset, verify);
    B.hand(size, "hand_paper", bytes, [&] { matadd32_hand_paper<<<M, N>>>(pa, pb, pc); }, reset, verify);
    B.hand(size, "hand_best", bytes,
           [&] {
             matadd32_hand_best<<<unsigned(n / 4 / 256), 256>>>(reinterpret_cast<const int4 *>(pa),
                                                                 reinterpret_cast<const int4 *>(pb),
                                                                 reinterpret_cast<int4 *>(pc));
           },
           reset, verify);
  }
  return B.exitCode();
}
