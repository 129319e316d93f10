// Triangular row walks (issue 29, item 6; docs/BENCHMARKS.md, "Triangular
// row walks"): the rowwalk pass's clones of tests/lit/rowwalk/Inputs/tri.cu
// (trmv lower and upper, rows of n-i elements, float and int, syrk-like)
// against the originals; the target is at least 3x.
//
//   tri <tri.ptx> <tri.O2.ptx> [<tri_u32.ptx> <tri_u32.O2.ptx>] [--runs N] [--n N] [--syrk N]
//
// The first module is nvcc's (the originals), the second ptx-opt -O2's; the
// optional third and fourth the same of tests/lit/rowwalk/Inputs/tri_u32.cu
// (`unsigned` counters: `k <= i` rolled, syrk's diagonal in double, the
// upper triangle; since the twenty-ninth session). Each
// kernel runs on N x N (default 4096; syrk_lower_f32 on --syrk x --syrk,
// default 1024) in 256-thread blocks; its clones (each of the names below
// there is) are taken by name from the -O2 module and launched directly with
// their manifest's launch: `_staged*` one warp per block (grid (256/32,
// grid.x), block 32), `_lanes*` grid.x*32 blocks, `_pack` / `_regacc` the
// original launch. Every clone's output is compared bit for bit with the
// original's (these clones are exact). Times: CUDA events, 3 warm-ups, min
// (median) of --runs. One markdown table on stdout; exit 1 when a clone
// differs, 77 without a CUDA device.
#include <cuda.h>
#include <cuda_runtime.h>

#include "../common/driver.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

using bench::check;
using bench::readFile;

int runs = 20;

std::pair<float, float> timeIt(CUfunction f, unsigned gx, unsigned gy, unsigned bx, void **args) {
  const bench::Timing t = bench::timeIt(
      [&] { check(cuLaunchKernel(f, gx, gy, 1, bx, 1, 1, 0, nullptr, args, nullptr), "launch"); }, runs);
  return {t.min, t.median};
}

}  // namespace

int main(int argc, char **argv) {
  // Line-buffered: a run stopped by a time limit keeps the rows it printed.
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  std::vector<std::string> files;
  unsigned n = 4096, ns = 1024;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--runs" && i + 1 < argc) runs = std::max(1, std::atoi(argv[++i]));
    else if (a == "--n" && i + 1 < argc) n = unsigned(std::atoi(argv[++i]));
    else if (a == "--syrk" && i + 1 < argc) ns = unsigned(std::atoi(argv[++i]));
    else files.push_back(a);
  }
  if (files.size() != 2 && files.size() != 4) {
    std::fprintf(stderr, "usage: tri <tri.ptx> <tri.O2.ptx> [<tri_u32.ptx> <tri_u32.O2.ptx>] [--runs N] [--n N] [--syrk N]\n");
    return 2;
  }
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::fprintf(stderr, "tri: no CUDA device\n");
    return 77;
  }
  bool failed = false;
  try {
    check(cudaFree(nullptr), "context");
    CUmodule mods[4] = {};
    for (size_t f = 0; f < files.size(); ++f)
      check(cuModuleLoadData(&mods[f], readFile(files[f]).c_str()), files[f].c_str());
    const size_t elems = size_t(n) * n;
    std::mt19937_64 rng(20261129);
    std::uniform_real_distribution<float> real(0.5f, 100.0f);
    std::vector<float> hA(elems), hx(n);
    for (auto &v : hA) v = real(rng);
    for (auto &v : hx) v = real(rng);
    std::vector<int> hI(elems), hxi(n);
    for (auto &v : hI) v = int(rng() | 1);
    for (auto &v : hxi) v = int(rng() | 1);
    float *A, *x, *y, *C;
    int *I, *xi;
    const size_t outElems = std::max<size_t>(2 * size_t(n), size_t(ns) * ns);  // (2: doubles)
    check(cudaMalloc(&A, elems * 4), "malloc");
    check(cudaMalloc(&I, elems * 4), "malloc");
    check(cudaMalloc(&x, size_t(n) * 4), "malloc");
    check(cudaMalloc(&xi, size_t(n) * 4), "malloc");
    check(cudaMalloc(&y, outElems * 4), "malloc");
    C = y;
    check(cudaMemcpy(A, hA.data(), elems * 4, cudaMemcpyHostToDevice), "copy");
    check(cudaMemcpy(I, hI.data(), elems * 4, cudaMemcpyHostToDevice), "copy");
    check(cudaMemcpy(x, hx.data(), size_t(n) * 4, cudaMemcpyHostToDevice), "copy");
    check(cudaMemcpy(xi, hxi.data(), size_t(n) * 4, cudaMemcpyHostToDevice), "copy");
    cudaDeviceProp p;
    check(cudaGetDeviceProperties(&p, 0), "properties");
    std::printf("triangular row walks: %s, n = %u (syrk: %u x %u), 256-thread blocks, min (median) of %d runs "
                "after 3 warm-ups; speed-up over the kernel's original (target >= 3x)\n\n",
                p.name, n, ns, ns, runs);
    std::printf("| kernel | original ms | clone | clone ms | speed-up |\n|---|---:|---|---:|---:|\n");
    struct K {
      const char *name;
      std::vector<void *> args;
      unsigned rows;
      size_t outs;      // 32-bit words of output
      unsigned pair = 0;  // modules mods[2 * pair] (originals) and mods[2 * pair + 1] (-O2)
    };
    std::vector<K> ks = {
        {"trmv_lower_f32", {&A, &x, &y, &n}, n, n},
        {"trmv_lower_s32idx_f32", {&A, &x, &y, &n}, n, n},
        {"trisum_f32", {&A, &y, &n}, n, n},
        {"trmv_upper_f32", {&A, &x, &y, &n}, n, n},
        {"trmv_lower_i32", {&I, &xi, &y, &n}, n, n},
        {"trisum_i32", {&I, &y, &n}, n, n},
        {"trmv_upper_i32", {&I, &xi, &y, &n}, n, n},
        {"syrk_lower_f32", {&A, &C, &ns, &ns}, ns, size_t(ns) * ns},
    };
    if (files.size() == 4) {
      ks.push_back({"syrk_diag_u32_f64", {&A, &y, &n}, n, 2 * size_t(n), 1});
      ks.push_back({"tri_le_u32_i32", {&I, &y, &n}, n, n, 1});
      ks.push_back({"tri_le_u32_f32", {&A, &x, &y, &n}, n, n, 1});
      ks.push_back({"tri_le_s32_f32", {&A, &x, &y, &n}, n, n, 1});
      ks.push_back({"tri_upper_u32_f32", {&A, &x, &y, &n}, n, n, 1});
    }
    for (auto &k : ks) {
      CUmodule orig = mods[2 * k.pair], opt = mods[2 * k.pair + 1];
      const unsigned grid = (k.rows + 255) / 256;
      auto output = [&]() {
        std::vector<uint32_t> h(k.outs);
        check(cudaMemcpy(h.data(), y, k.outs * 4, cudaMemcpyDeviceToHost), "copy back");
        return h;
      };
      CUfunction fo;
      check(cuModuleGetFunction(&fo, orig, k.name), k.name);
      check(cudaMemset(y, 0xA5, k.outs * 4), "memset");
      check(cuLaunchKernel(fo, grid, 1, 1, 256, 1, 1, 0, nullptr, k.args.data(), nullptr), "launch");
      check(cudaDeviceSynchronize(), k.name);
      const auto want = output();
      const auto [omin, omed] = timeIt(fo, grid, 1, 256, k.args.data());
      bool any = false;
      for (const char *suffix : {"__ptxopt_staged_pack", "__ptxopt_staged", "__ptxopt_lanes_pack", "__ptxopt_lanes",
                                 "__ptxopt_pack", "__ptxopt_regacc"}) {
        const std::string name = std::string(k.name) + suffix;
        CUfunction fc;
        if (cuModuleGetFunction(&fc, opt, name.c_str()) != CUDA_SUCCESS) continue;
        const bool staged = std::strstr(suffix, "staged"), lanes = std::strstr(suffix, "lanes");
        const unsigned gx = staged ? 256 / 32 : lanes ? grid * 32 : grid, gy = staged ? grid : 1, bx = staged ? 32 : 256;
        check(cudaMemset(y, 0xA5, k.outs * 4), "memset");
        check(cuLaunchKernel(fc, gx, gy, 1, bx, 1, 1, 0, nullptr, k.args.data(), nullptr), "launch");
        check(cudaDeviceSynchronize(), name.c_str());
        const auto got = output();
        size_t diff = 0;
        for (size_t j = 0; j < got.size(); ++j) diff += got[j] != want[j];
        const auto [cmin, cmed] = timeIt(fc, gx, gy, bx, k.args.data());
        std::printf("| `%s` | %.4f (%.4f) | `%s` | %.4f (%.4f) | %.2fx%s |\n", k.name, omin, omed, suffix + 8, cmin,
                    cmed, omin / cmin, diff ? " **DIFFERENT**" : "");
        failed |= diff != 0;
        any = true;
      }
      if (!any) std::printf("| `%s` | %.4f (%.4f) | (none) | - | - |\n", k.name, omin, omed);
    }
  } catch (const std::exception &e) {
    std::fprintf(stderr, "tri: %s\n", e.what());
    return 1;
  }
  return failed ? 1 : 0;
}
