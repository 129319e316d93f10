// The launch hook's host-side cost (issue #16, docs/BENCHMARKS.md "Launch
// hook cost"). One program, built once with nvcc and once with ptx-nvcc
// (scripts/bench/hook.sh builds and runs both, and variants of the ptx-nvcc
// build); timed as users time their launches: a host timer around the
// launches and one cudaDeviceSynchronize.
//
//   hook_bench [reps]
//
// Prints "name value..." lines (microseconds):
//   init              cudaFree(0): cudart's start and the context (with
//                     CUDA_MODULE_LOADING=EAGER also every image's load)
//   first_clones      the process's first launch + synchronize, of a kernel
//                     with clones (the context exists already: cudaFree(0))
//   first_plain       then the first launch + synchronize of a kernel without
//   same_clones N     per launch, N launches of <<<8,32>>> + one synchronize
//                     (min and median of `reps` repeats), kernel with clones
//   same_clones_big   the same at <<<512,256>>> (a clone runs: swap)
//   same_plain        the same, kernel without clones
//   submit_clones     per launch, host time of the N launches alone (no
//                     synchronize in the timed part; min, median)
//   submit_plain      likewise for the kernel without clones
//   host_same_*       per launch, host time of batches of 100 launches that
//                     never fill the launch queue (min, median of 20 x reps):
//                     the launch path's own cost, the hook's included
//   shapes_first S    per launch, S distinct launch shapes, each new to the
//                     process (one pass: the first time each shape is seen)
//   shapes_again S    per launch, the same S shapes again (min, median)
//   peek              one cudaPeekAtLastError (min, median over 100000)
// and which kernel ran ("variant <row> <name>", from the shim's query when
// the program has it, else "-").
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

// Fig. 6-a of the paper (examples/matadd/matadd.cu): ptx-opt -O2 gives it
// swap, split, group and remap clones (7 with nvcc 13.0, sm_90).
__global__ void matadd_int(const int *in1, const int *in2, int *out) {
  int i = threadIdx.x * gridDim.x + blockIdx.x;
  out[i] = in1[i] + in2[i];
}

// No clone: one atomic per block on one counter.
__global__ void count_blocks(int *counter) {
  if (threadIdx.x == 0) atomicAdd(counter, 1);
}

// The shim's query, weak: the nvcc build has no shim.
extern "C" const char *ptxopt_nvcc_last_variant(void) __attribute__((weak));

namespace {

using Clock = std::chrono::steady_clock;

double usSince(Clock::time_point t0) {
  return std::chrono::duration<double, std::micro>(Clock::now() - t0).count();
}

void check(cudaError_t e, const char *what) {
  if (e != cudaSuccess) {
    std::fprintf(stderr, "hook_bench: %s: %s\n", what, cudaGetErrorString(e));
    std::exit(e == cudaErrorNoDevice || e == cudaErrorInsufficientDriver ? 77 : 1);
  }
}

struct Stats {
  double min, median;
};

Stats stats(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return {v.front(), v[v.size() / 2]};
}

void variant(const char *row) {
  const char *v = ptxopt_nvcc_last_variant ? ptxopt_nvcc_last_variant() : nullptr;
  std::printf("variant %s %s\n", row, v ? v : "-");
}

}  // namespace

int main(int argc, char **argv) {
  const int reps = argc > 1 ? std::max(1, std::atoi(argv[1])) : 5;
  const int N = 5000;        // launches per timed repeat
  const int H = 100;         // launches per batch of the host-only time
  const int S = 4096;        // distinct shapes: grid.x 1..2048, block.x 32 and 64
  const size_t elems = size_t(2048) * 256;  // covers every launch below
  auto t0 = Clock::now();
  check(cudaFree(nullptr), "cudaFree(0) (context)");
  std::printf("init %.2f\n", usSince(t0));
  int *a, *b, *c, *counter;
  check(cudaMalloc(&a, elems * sizeof(int)), "cudaMalloc");
  check(cudaMalloc(&b, elems * sizeof(int)), "cudaMalloc");
  check(cudaMalloc(&c, elems * sizeof(int)), "cudaMalloc");
  check(cudaMalloc(&counter, sizeof(int)), "cudaMalloc");
  check(cudaMemset(a, 0, elems * sizeof(int)), "cudaMemset");
  check(cudaMemset(b, 0, elems * sizeof(int)), "cudaMemset");
  check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");

  // The first launches of the process.
  t0 = Clock::now();
  matadd_int<<<8, 32>>>(a, b, c);
  check(cudaDeviceSynchronize(), "first launch");
  std::printf("first_clones %.2f\n", usSince(t0));
  variant("first_clones");
  t0 = Clock::now();
  count_blocks<<<8, 32>>>(counter);
  check(cudaDeviceSynchronize(), "first launch");
  std::printf("first_plain %.2f\n", usSince(t0));
  variant("first_plain");

  // Many distinct shapes, each new to the process (before any other launch
  // of those shapes), then again.
  auto shapes = [&] {
    auto t = Clock::now();
    for (int i = 0; i < S; ++i) matadd_int<<<1 + i / 2, i % 2 ? 64 : 32>>>(a, b, c);
    check(cudaDeviceSynchronize(), "shapes");
    return usSince(t) / S;
  };
  std::printf("shapes_first %d %.3f\n", S, shapes());
  {
    std::vector<double> v;
    for (int r = 0; r < reps; ++r) v.push_back(shapes());
    Stats s = stats(v);
    std::printf("shapes_again %d %.3f %.3f\n", S, s.min, s.median);
  }

  // The same shape, N launches.
  auto same = [&](const char *row, auto launchOne) {
    std::vector<double> total, submit;
    for (int r = 0; r < reps + 1; ++r) {  // the first repeat warms up
      auto t = Clock::now();
      for (int i = 0; i < N; ++i) launchOne();
      double s = usSince(t);
      check(cudaDeviceSynchronize(), row);
      double all = usSince(t);
      if (r) {
        total.push_back(all / N);
        submit.push_back(s / N);
      }
    }
    Stats st = stats(total), ss = stats(submit);
    std::printf("%s %d %.3f %.3f\n", row, N, st.min, st.median);
    std::printf("submit_%s %d %.3f %.3f\n", row, N, ss.min, ss.median);
    // The host's own time: batches of H launches, short enough that the
    // launch queue never fills (N launches above fill it: the host then
    // waits for the GPU), each batch after a synchronize.
    std::vector<double> host;
    for (int r = 0; r < 20 * reps; ++r) {
      check(cudaDeviceSynchronize(), row);
      auto t = Clock::now();
      for (int i = 0; i < H; ++i) launchOne();
      host.push_back(usSince(t) / H);
    }
    check(cudaDeviceSynchronize(), row);
    Stats sh = stats(host);
    std::printf("host_%s %d %.3f %.3f\n", row, H, sh.min, sh.median);
    variant(row);
  };
  same("same_clones", [&] { matadd_int<<<8, 32>>>(a, b, c); });
  same("same_clones_big", [&] { matadd_int<<<512, 256>>>(a, b, c); });
  same("same_plain", [&] { count_blocks<<<8, 32>>>(counter); });
  // On a stream of the program's own: the shim asks cudaStreamIsCapturing
  // per clone launch there (a capture begun where --wrap does not reach).
  cudaStream_t stream;
  check(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), "cudaStreamCreate");
  same("same_clones_stream", [&] { matadd_int<<<8, 32, 0, stream>>>(a, b, c); });
  same("same_plain_stream", [&] { count_blocks<<<8, 32, 0, stream>>>(counter); });

  // What one cudaPeekAtLastError costs (the shim makes one per clone launch).
  {
    std::vector<double> v;
    for (int r = 0; r < reps; ++r) {
      auto t = Clock::now();
      for (int i = 0; i < 100000; ++i) (void)cudaPeekAtLastError();
      v.push_back(usSince(t) / 100000);
    }
    Stats s = stats(v);
    std::printf("peek %.4f %.4f\n", s.min, s.median);
  }
  // What one cudaStreamIsCapturing on that stream costs.
  {
    std::vector<double> v;
    cudaStreamCaptureStatus st;
    for (int r = 0; r < reps; ++r) {
      auto t = Clock::now();
      for (int i = 0; i < 100000; ++i) (void)cudaStreamIsCapturing(stream, &st);
      v.push_back(usSince(t) / 100000);
    }
    Stats s = stats(v);
    std::printf("capturing %.4f %.4f\n", s.min, s.median);
  }
  cudaStreamDestroy(stream);
  check(cudaGetLastError(), "the launches");
  cudaFree(a);
  cudaFree(b);
  cudaFree(c);
  cudaFree(counter);
  return 0;
}
