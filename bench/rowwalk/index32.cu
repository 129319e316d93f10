// Row walks through 32-bit indices (issue 29; docs/BENCHMARKS.md, "Row walks
// by 32-bit index"): the rowwalk pass's clones of
// tests/lit/rowwalk/Inputs/rowwalk32.cu against the originals and against
// the 64-bit pointer form's clone (rowsum_ptr_f32; rowsum_ptr_i32 for the
// integer sum), the target being the 32-bit forms within 10% of it.
//
//   index32 <rowwalk32.ptx> <rowwalk32.O2.ptx> [--runs N] [--n ROWS] [--len N]
//   index32 --short <rowwalk-short.ptx> <rowwalk-short.O2.ptx> [...]
//   index32 --half <scopes.ptx> <scopes.O2.ptx> [...]
//
// --short (issue 29, item 4): the rows of 8- and 16-bit elements of
// tests/lit/rowwalk/Inputs/rowwalk-short.cu summed into ints (random
// bytes), "vs ptr" against rowsum_ptr_<type>'s clone of the same kind; the
// target is the staged (or lanes) clone at least 5x over the original.
//
// --half: the __half and __nv_bfloat16 rows of
// tests/lit/rowwalk/Inputs/scopes.cu (cuda_fp16.h's inline asm: nested
// scopes, flattened in the clones), on finite halves in [0.5, 2).
//
// The first module is nvcc's (the originals), the second ptx-opt -O2's. Each
// kernel runs on ROWS x N (default 4096 x 4096) in 256-thread blocks; its
// clones (each of the four names there is) are taken by name from the -O2 module and launched directly with
// their manifest's launch: `_staged` / `_staged_pack` one warp per block
// (grid (256/32, grid.x), block 32), `_lanes` / `_lanes_pack` grid.x*32
// blocks. Every clone's output is compared bit for bit with the original's
// (these clones are exact). Times: CUDA events, 3 warm-ups, min (median) of
// --runs. One markdown table on stdout; exit 1 when a clone differs, 77
// without a CUDA device.
#include "../common/driver.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

using bench::check;
using bench::deviceAlloc;
using bench::toDevice;

int runs = 20;

/// Minimum and median ms of `runs` launches of f on a (gx, gy) grid of bx-thread blocks.
bench::Timing timeIt(CUfunction f, unsigned gx, unsigned gy, unsigned bx, void **args) {
  return bench::timeIt(
      [&] { check(cuLaunchKernel(f, gx, gy, 1, bx, 1, 1, 0, nullptr, args, nullptr), "launch"); }, runs);
}

}  // namespace

int main(int argc, char **argv) {
  // Line-buffered: a run stopped by a time limit keeps the rows it printed.
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  std::vector<std::string> files;
  unsigned n = 4096, len = 4096;
  bool shortRows = false, halfRows = false;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--runs" && i + 1 < argc) runs = std::max(1, std::atoi(argv[++i]));
    else if (a == "--n" && i + 1 < argc) n = unsigned(std::atoi(argv[++i]));
    else if (a == "--len" && i + 1 < argc) len = unsigned(std::atoi(argv[++i]));
    else if (a == "--short") shortRows = true;
    else if (a == "--half") halfRows = true;
    else files.push_back(a);
  }
  if (files.size() != 2) {
    std::fprintf(stderr, "usage: index32 [--short | --half] <rowwalk32.ptx> <rowwalk32.O2.ptx> [--runs N] [--n ROWS] [--len N]\n");
    return 2;
  }
  if (!bench::haveDevice("index32")) return 77;
  bool failed = false;
  try {
    bench::initContext();
    CUmodule orig = bench::loadModule(files[0]), opt = bench::loadModule(files[1]);
    const size_t elems = size_t(n) * len;
    std::mt19937_64 rng(20261128);
    std::uniform_real_distribution<float> real(0.5f, 100.0f);
    std::vector<float> hA(elems), hB(elems), hx(len);
    for (auto &v : hA) v = real(rng);
    for (auto &v : hB) v = real(rng);
    for (auto &v : hx) v = real(rng);
    std::vector<int> hI(elems);
    for (auto &v : hI) v = int(rng());
    auto *A = static_cast<float *>(toDevice(hA.data(), elems * 4));
    auto *B = static_cast<float *>(toDevice(hB.data(), elems * 4));
    auto *I = static_cast<int *>(toDevice(hI.data(), elems * 4));
    auto *x = static_cast<float *>(toDevice(hx.data(), size_t(len) * 4));
    std::vector<uint16_t> hH(elems), hHx(len);  // finite halves in [0.5, 2): exponent field 14 or 15
    for (auto &v : hH) v = uint16_t(((14 + (rng() & 1)) << 10) | (rng() & 0x3ff));
    for (auto &v : hHx) v = uint16_t(((14 + (rng() & 1)) << 10) | (rng() & 0x3ff));
    auto *H = toDevice(hH.data(), elems * 2);
    auto *Hx = toDevice(hHx.data(), size_t(len) * 2);
    uint16_t threshold = 0x3D00;  // 1.25
    auto *y = static_cast<float *>(deviceAlloc(size_t(n) * 4));
    cudaDeviceProp p;
    check(cudaGetDeviceProperties(&p, 0), "properties");
    std::printf("%s: %s, %u x %u, 256-thread blocks, min (median) of %d runs after 3 "
                "warm-ups; speed-up over the kernel's original; \"vs ptr\": the clone's time over the 64-bit "
                "pointer form's (%s) clone's of the same kind\n\n",
                halfRows    ? "rows of __half and __nv_bfloat16 (cuda_fp16.h's scopes flattened)"
                : shortRows ? "rows of 8- and 16-bit elements summed into ints"
                            : "row walks by 32-bit index",
                p.name, n, len, runs, halfRows ? "none" : shortRows ? "rowsum_ptr_<type>" : "rowsum_ptr_f32");
    std::printf("| kernel | original ms | clone | clone ms | speed-up | vs ptr |\n|---|---:|---|---:|---:|---:|\n");
    float alpha = 1.5f, beta = 1.25f;
    struct K {
      const char *name;
      std::vector<void *> args;
    };
    std::vector<K> ks = {
        {"rowsum_ptr_f32", {&A, &y, &n, &len}}, {"rowsum_u32_f32", {&A, &y, &n, &len}},
        {"rowsum_s32_f32", {&A, &y, &n, &len}}, {"rowsum_int_f32", {&A, &y, &n, &len}},
        {"rowsum_ptr_i32", {&I, &y, &n, &len}}, {"rowsum_u32_i32", {&I, &y, &n, &len}},
        {"matvec_u32", {&A, &x, &y, &n, &len}},
        {"gesummv_u32", {&A, &B, &x, &y, &alpha, &beta, &n}},
    };
    if (shortRows)  // the elements from the int buffer's random bytes
      ks = {{"rowsum_ptr_u8", {&I, &y, &n, &len}},  {"rowsum_u32_u8", {&I, &y, &n, &len}},
            {"rowsum_s32_u8", {&I, &y, &n, &len}},  {"rowsum_ptr_s8", {&I, &y, &n, &len}},
            {"rowsum_u32_s8", {&I, &y, &n, &len}},  {"rowsum_ptr_u16", {&I, &y, &n, &len}},
            {"rowsum_u32_u16", {&I, &y, &n, &len}}, {"rowsum_ptr_s16", {&I, &y, &n, &len}},
            {"rowsum_u32_s16", {&I, &y, &n, &len}}, {"rowsum_u32_u8_f32", {&I, &y, &n, &len}}};
    if (halfRows)
      ks = {{"rowsum_half_f32", {&H, &y, &n, &len}},
            {"rowsum_half_h", {&H, &y, &n, &len}},
            {"rowcount_half_gt", {&H, &y, &n, &len, &threshold}},
            {"gemv_half", {&H, &Hx, &y, &n, &len}},
            {"rowsum_bf16_f32", {&H, &y, &n, &len}}};
    const unsigned grid = (n + 255) / 256;
    // The pointer forms' clone times by element type and suffix: the
    // integer kernels against rowsum_ptr_i32, the rest against rowsum_ptr_f32.
    std::vector<std::pair<std::string, float>> ptrMs;
    for (auto &k : ks) {
      if (std::string(k.name) == "gesummv_u32" && len != n) continue;  // square
      auto output = [&]() {
        std::vector<uint32_t> h(n);
        check(cudaMemcpy(h.data(), y, size_t(n) * 4, cudaMemcpyDeviceToHost), "copy back");
        return h;
      };
      CUfunction fo;
      check(cuModuleGetFunction(&fo, orig, k.name), k.name);
      check(cudaMemset(y, 0xA5, size_t(n) * 4), "memset");
      check(cuLaunchKernel(fo, grid, 1, 1, 256, 1, 1, 0, nullptr, k.args.data(), nullptr), "launch");
      check(cudaDeviceSynchronize(), k.name);
      const auto want = output();
      const auto [omin, omed] = timeIt(fo, grid, 1, 256, k.args.data());
      bool any = false;
      for (const char *suffix : {"__ptxopt_staged_pack", "__ptxopt_staged", "__ptxopt_lanes_pack", "__ptxopt_lanes"}) {
        const std::string name = std::string(k.name) + suffix;
        CUfunction fc;
        if (cuModuleGetFunction(&fc, opt, name.c_str()) != CUDA_SUCCESS) continue;
        const bool staged = std::strstr(suffix, "staged");
        const unsigned gx = staged ? 256 / 32 : grid * 32, gy = staged ? grid : 1, bx = staged ? 32 : 256;
        check(cudaMemset(y, 0xA5, size_t(n) * 4), "memset");
        check(cuLaunchKernel(fc, gx, gy, 1, bx, 1, 1, 0, nullptr, k.args.data(), nullptr), "launch");
        check(cudaDeviceSynchronize(), name.c_str());
        const auto got = output();
        size_t diff = 0;
        for (size_t j = 0; j < got.size(); ++j) diff += got[j] != want[j];
        const auto [cmin, cmed] = timeIt(fc, gx, gy, bx, k.args.data());
        std::string vs = "";
        // The element type: the kernel name's last part for --short (u8, s16, ...).
        const std::string type = halfRows    ? std::string(k.name) + ":"
                                 : shortRows ? std::string(std::strstr(k.name, "u8") ? "u8" : std::strrchr(k.name, '_') + 1) + ":"
                                 : std::strstr(k.name, "_i32") ? "i32:"
                                                               : "f32:";
        if (std::strncmp(k.name, "rowsum_ptr_", 11) == 0) ptrMs.push_back({type + suffix, cmin});
        for (const auto &[s, ms] : ptrMs)
          if (s == type + suffix) {
            char b[32];
            std::snprintf(b, sizeof b, "%.2f", cmin / ms);
            vs = b;
          }
        std::printf("| `%s` | %.4f (%.4f) | `%s` | %.4f (%.4f) | %.2fx%s | %s |\n", k.name, omin, omed, suffix + 8,
                    cmin, cmed, omin / cmin, diff ? " **DIFFERENT**" : "", vs.empty() ? "-" : vs.c_str());
        failed |= diff != 0;
        any = true;
      }
      if (!any) std::printf("| `%s` | %.4f (%.4f) | (none) | - | - | - |\n", k.name, omin, omed);
    }
  } catch (const std::exception &e) {
    std::fprintf(stderr, "index32: %s\n", e.what());
    return 1;
  }
  return failed ? 1 : 0;
}
