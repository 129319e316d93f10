// sobel-small: which clone of the paper's naive Sobel (examples/paper/sobel.cu,
// 32 x 8 blocks) pays at 1920 x 1080, where the default clones (k = 16, floors
// 2^21 / 2^22 threads) leave the original running (issue #18)?
//
// Loads PTX modules (ptx-opt outputs, or edited copies of them), takes
// functions straight from them (no runtime selection), runs each variant of a
// spec file at each size on the same random image, compares its output with
// the naive kernel's (every byte, the unwritten border too; for the hand
// kernels, which write the border, the interior), and times each variant
// against the naive kernel: warm-up, then the
// median of --runs launches, alternating (as gpu-diff does). Spec lines:
//   <label> <module.ptx> <function> <launch> <k>
// A variant whose k does not divide the width is skipped (its pitch
// condition). launch: naive (32x8 blocks, the program's), plain (block.x / k), merged
// (grid.x -> ceil(grid.x / k), grid.x appended as a .u32 parameter), hand
// (k pixels per thread in 32 x 8 blocks: grid ((w/k+31)/32, h/8)).
// One CSV line per (variant, size): label,function,size,pixels,naive_us,
// variant_us,speedup,equal. Exit 0 all equal, 1 a difference, 77 no device.
//
//   sobel_small [--runs N] <spec> WxH...
#include "../common/driver.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace {
using bench::check;
using bench::Launch;
using bench::median;
using bench::readFile;

struct Variant {
  std::string label, module, function, launch;
  unsigned k;
};
}  // namespace

int main(int argc, char **argv) {
  int runs = 101;
  std::vector<std::string> args;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--runs" && i + 1 < argc) runs = std::atoi(argv[++i]);
    else args.push_back(a);
  }
  if (args.size() < 2) {
    std::fprintf(stderr, "usage: sobel_small [--runs N] <spec> WxH...\n");
    return 2;
  }
  if (!bench::haveDevice("sobel_small")) return 77;
  int different = 0;
  try {
    bench::initContext();
    cudaDeviceProp prop;
    check(cudaGetDeviceProperties(&prop, 0), "cudaGetDeviceProperties");
    std::fprintf(stderr, "sobel_small on %s (%d SMs), median of %d launches\n", prop.name, prop.multiProcessorCount,
                 runs);
    std::vector<Variant> vs;
    {
      std::istringstream spec(readFile(args[0]));
      std::string line;
      while (std::getline(spec, line)) {
        if (line.empty() || line[0] == '#') continue;
        std::istringstream ls(line);
        Variant v;
        if (ls >> v.label >> v.module >> v.function >> v.launch >> v.k) vs.push_back(v);
      }
    }
    std::map<std::string, CUmodule> modules;
    for (auto &v : vs)
      if (!modules.count(v.module)) modules[v.module] = bench::loadModule(v.module);
    CUfunction naive;
    check(cuModuleGetFunction(&naive, modules[vs.at(0).module], "sobel_naive"), "sobel_naive");
    std::mt19937_64 rng(20101124);
    bench::EventTimer timer;
    auto once = [&](const Launch &l) { return timer.ms([&] { l.run(); }) * 1000.0f; };
    std::printf("label,function,size,pixels,naive_us,variant_us,speedup,equal\n");
    for (size_t si = 1; si < args.size(); ++si) {
      unsigned w = 0, h = 0;
      if (std::sscanf(args[si].c_str(), "%ux%u", &w, &h) != 2) throw std::runtime_error("bad size " + args[si]);
      size_t n = size_t(w) * h;
      std::vector<unsigned char> img(n);
      for (auto &b : img) b = static_cast<unsigned char>(rng());
      void *din, *dout;
      check(cudaMalloc(&din, n), "malloc");
      check(cudaMalloc(&dout, n), "malloc");
      check(cudaMemcpy(din, img.data(), n, cudaMemcpyHostToDevice), "copy");
      int wi = int(w), hi = int(h);
      unsigned gridX = (w + 31) / 32;
      Launch ln{naive, {gridX, (h + 7) / 8, 1}, {32, 8, 1}, {&din, &dout, &wi, &hi}};
      auto result = [&](const Launch &l) {
        check(cudaMemset(dout, 0xA5, n), "memset");
        l.run();
        check(cudaDeviceSynchronize(), "run");
        std::vector<unsigned char> got(n);
        check(cudaMemcpy(got.data(), dout, n, cudaMemcpyDeviceToHost), "copy");
        return got;
      };
      auto want = result(ln);
      for (auto &v : vs) {
        // The clones' launch condition on the pitch (the runtime would take
        // the next variant; a misaligned vector access would end the context).
        if (v.k > 1 && w % v.k != 0) {
          std::printf("%s,%s,%ux%u,%llu,,,,skipped (width %% %u != 0)\n", v.label.c_str(), v.function.c_str(), w, h,
                      (unsigned long long)n, v.k);
          continue;
        }
        CUfunction f;
        check(cuModuleGetFunction(&f, modules[v.module], v.function.c_str()), v.function);
        Launch l = ln;
        l.f = f;
        if (v.launch == "plain") l.block[0] /= v.k;
        else if (v.launch == "merged") {
          l.grid[0] = (gridX + v.k - 1) / v.k;
          l.params.push_back(&gridX);
        } else if (v.launch == "hand") l.grid[0] = (w / v.k + 31) / 32;
        else if (v.launch != "naive") throw std::runtime_error("bad launch " + v.launch);
        auto got = result(l);
        // Clones must leave the border unwritten as the naive kernel does;
        // the hand kernels write it (0), so only their interior counts.
        bool equal = v.launch == "hand" ? true : got == want;
        for (unsigned y = 1; v.launch == "hand" && y + 1 < h && equal; ++y)
          for (unsigned x = 1; x + 1 < w; ++x)
            if (got[size_t(y) * w + x] != want[size_t(y) * w + x]) {
              equal = false;
              break;
            }
        for (int i = 0; i < 5; ++i) once(ln), once(l);
        std::vector<float> tn, tv;
        for (int i = 0; i < runs; ++i) tn.push_back(once(ln)), tv.push_back(once(l));
        float a = median(tn), b = median(tv);
        std::printf("%s,%s,%ux%u,%llu,%.2f,%.2f,%.3f,%s\n", v.label.c_str(), v.function.c_str(), w, h,
                    (unsigned long long)n, a, b, a / b, equal ? "equal" : "DIFFERENT");
        std::fflush(stdout);
        if (!equal) ++different;
      }
      cudaFree(din);
      cudaFree(dout);
    }
  } catch (const std::exception &e) {
    std::fprintf(stderr, "sobel_small: error: %s\n", e.what());
    return 1;
  }
  return different ? 1 : 0;
}
