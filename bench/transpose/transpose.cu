// transpose benchmark: the transpose pass's clones against the naive kernels
// and hand-written tiled kernels, in one run (scripts/bench/transpose.sh).
//
// Kernels: tests/lit/transpose/Inputs/transpose.cu (nvcc 13 -O3), optimized
// by `ptx-opt -O2` (the script). The module is loaded with the driver
// (cuModuleLoadData: JIT to the GPU at hand); the original `<k>` and its
// clone `<k>__ptxopt_transpose<shape>` are taken by name and launched directly
// with the same launch (grid covering W x H, blocks of 16 x 16, 32 x 32 and
// 32 x 8): no runtime
// selection, so the clone is measured below its launch floor too (the
// 256 x 256 rows say where the floor should be). The hand-written kernel per
// element type is the classic one: a 32 x 33 shared tile, 32 x 8 threads,
// 4 elements each (compiled into this program). Every clone's and hand
// kernel's output is compared with the original's bit for bit (the output
// buffers are cleared to the same bytes before each).
// Times: CUDA events, 3 warm-ups, the minimum (and median) of --runs.
// One markdown table on stdout; exit 1 when an output differs, 77 without a
// CUDA device.
//
//   transpose <transpose.opt.ptx> [--runs N] [--quick]
#include "../common/driver.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

template <typename T> __global__ void handTiled(const T *in, T *out, int W, int H) {
  __shared__ T tile[32][33];
  int x = blockIdx.x * 32 + threadIdx.x;
  int y = blockIdx.y * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8)
    if (x < W && y + j < H) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * W + x];
  __syncthreads();
  x = blockIdx.y * 32 + threadIdx.x;
  y = blockIdx.x * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8)
    if (x < H && y + j < W) out[(y + j) * H + x] = tile[threadIdx.x][threadIdx.y + j];
}

using bench::check;

int runs = 20;

struct Kernel {
  const char *name;
  unsigned inBytes, outBytes;
  int extra;                   // 0: (in, out, W, H); 1: + float scale; 2: (A, B, out, W, H)
  void (*hand)(const void *, void *, int, int, dim3, dim3);  // null: none
};

template <typename T> void launchHand(const void *in, void *out, int W, int H, dim3 g, dim3 b) {
  handTiled<T><<<g, b>>>(static_cast<const T *>(in), static_cast<T *>(out), W, H);
}

const Kernel kKernels[] = {
    {"transpose_f32", 4, 4, 0, launchHand<float>},  {"transpose_f64", 8, 8, 0, launchHand<double>},
    {"transpose_i32", 4, 4, 0, launchHand<int>},    {"transpose_i16", 2, 2, 0, launchHand<short>},
    {"transpose_i8", 1, 1, 0, launchHand<char>},    {"transpose_scale_f32", 4, 4, 1, nullptr},
    {"transpose_add_f32", 4, 4, 2, nullptr},        {"transpose_u8_f32", 1, 4, 1, nullptr},
    {"rotate90_u8", 1, 1, 0, nullptr},              {"rotate90_u32", 4, 4, 0, nullptr},
    {"transpose_gather_f32", 4, 4, 0, nullptr},     {"rotate90_rgba", 4, 4, 0, nullptr},
    {"transpose_f4", 16, 16, 0, nullptr},
};

bool sameBytes(const void *a, const void *b, size_t n) {
  std::vector<unsigned char> x(n), y(n);
  check(cudaMemcpy(x.data(), a, n, cudaMemcpyDeviceToHost), "copy");
  check(cudaMemcpy(y.data(), b, n, cudaMemcpyDeviceToHost), "copy");
  return x == y;
}

}  // namespace

int main(int argc, char **argv) {
  std::string ptx;
  bool quick = false;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--runs" && i + 1 < argc) runs = std::atoi(argv[++i]);
    else if (a == "--quick") quick = true;
    else ptx = a;
  }
  if (ptx.empty()) {
    std::fprintf(stderr, "usage: transpose <transpose.opt.ptx> [--runs N] [--quick]\n");
    return 2;
  }
  if (!bench::haveDevice("transpose")) return 77;
  try {
    bench::initContext();
    CUmodule mod = bench::loadModule(ptx);
    cudaDeviceProp prop;
    check(cudaGetDeviceProperties(&prop, 0), "props");
    std::printf("transpose: %s, min (median) of %d runs after 3 warm-ups, ms; the clone launched directly (no "
                "launch floor); hand = 32x33 tile, 32x8 threads, 4 elements each\n\n",
                prop.name, runs);
    std::printf("| kernel | W x H | block | naive | clone | hand-tiled | clone x | hand x | hand ms / clone ms |\n");
    std::printf("|---|---|---|---|---|---|---|---|---|\n");
    const std::pair<int, int> sizes[] = {{8192, 8192}, {8191, 8193}, {1920, 1080}, {1000, 3000}, {256, 256}};
    const size_t maxElems = size_t(8192) * 8193;
    void *in = nullptr, *in2 = nullptr, *outA = nullptr, *outB = nullptr;
    check(cudaMalloc(&in, maxElems * 16), "malloc");  // float4 elements at most
    check(cudaMalloc(&in2, maxElems * 16), "malloc");
    check(cudaMalloc(&outA, maxElems * 16), "malloc");
    check(cudaMalloc(&outB, maxElems * 16), "malloc");
    {
      std::vector<unsigned char> bytes(maxElems * 16);
      std::mt19937_64 rng(7);
      for (auto &b : bytes) b = static_cast<unsigned char>(rng() | 1);
      // Floats in [1, 2) where the kernels compute in float: no NaN payloads to compare.
      for (size_t i = 0; i < maxElems * 2; ++i) {
        float f = 1.0f + float(rng() % 1000000) / 1e6f;
        std::memcpy(&bytes[i * 4], &f, 4);
      }
      check(cudaMemcpy(in, bytes.data(), bytes.size(), cudaMemcpyHostToDevice), "copy");
      check(cudaMemcpy(in2, bytes.data(), bytes.size(), cudaMemcpyHostToDevice), "copy");
    }
    int failed = 0;
    for (const Kernel &k : kKernels)
      for (auto size : sizes)
        for (auto shape : {std::pair{16u, 16u}, std::pair{32u, 32u}, std::pair{32u, 8u}}) {
          const int W = size.first, H = size.second;
          const unsigned BX = shape.first, BY = shape.second;
          if (quick && (W != 8192 || BX != 16)) continue;
          CUfunction orig, clone;
          check(cuModuleGetFunction(&orig, mod, k.name), k.name);
          std::string cname = std::string(k.name) + "__ptxopt_transpose" +
                              (BX == BY ? std::to_string(BX) : std::to_string(BX) + "x" + std::to_string(BY));
          bool haveClone = cuModuleGetFunction(&clone, mod, cname.c_str()) == CUDA_SUCCESS;
          int w = W, h = H;
          float scale = 1.7f;
          std::vector<void *> args;
          if (k.extra == 2) args = {&in, &in2, &outA, &w, &h};
          else args = {&in, &outA, &w, &h};
          if (k.extra == 1) args.push_back(&scale);
          const size_t outBytes = size_t(W) * H * k.outBytes;
          unsigned gx = (W + BX - 1) / BX, gy = (H + BY - 1) / BY;
          auto run = [&](CUfunction f) {
            return [&, f]() { check(cuLaunchKernel(f, gx, gy, 1, BX, BY, 1, 0, nullptr, args.data(), nullptr), "launch"); };
          };
          check(cudaMemset(outA, 0x5a, outBytes), "memset");
          auto [nMin, nMed] = bench::timeIt(run(orig), runs);
          check(cudaMemcpy(outB, outA, outBytes, cudaMemcpyDeviceToDevice), "copy");  // the reference
          std::printf("| `%s` | %d x %d | %ux%u | %.4f (%.4f) |", k.name, W, H, BX, BY, nMin, nMed);
          float cMin = 0, hMin = 0;
          if (haveClone) {
            check(cudaMemset(outA, 0x5a, outBytes), "memset");
            auto [a, b] = bench::timeIt(run(clone), runs);
            cMin = a;
            bool same = sameBytes(outA, outB, outBytes);
            failed += !same;
            std::printf(" %.4f (%.4f)%s |", a, b, same ? "" : " DIFFERS");
          } else {
            std::printf(" no clone |");
          }
          if (k.hand && BX == 32 && BY == 32) {
            check(cudaMemset(outA, 0x5a, outBytes), "memset");
            auto [a, b] = bench::timeIt([&]() { k.hand(in, outA, W, H, dim3((W + 31) / 32, (H + 31) / 32), dim3(32, 8)); }, runs);
            hMin = a;
            bool same = sameBytes(outA, outB, outBytes);
            failed += !same;
            std::printf(" %.4f (%.4f)%s |", a, b, same ? "" : " DIFFERS");
          } else {
            std::printf(" |");
          }
          auto ratio = [](float a, float b) { return a > 0 && b > 0 ? std::to_string(a / b).substr(0, 5) + "x" : std::string(); };
          std::printf(" %s | %s | %s |\n", ratio(nMin, cMin).c_str(), ratio(nMin, hMin).c_str(), ratio(hMin, cMin).c_str());
        }
    std::printf("\n%d outputs differ\n", failed);
    return failed ? 1 : 0;
  } catch (const std::exception &e) {
    std::fprintf(stderr, "transpose: %s\n", e.what());
    return 1;
  }
}
