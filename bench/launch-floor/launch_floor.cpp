// launch-floor: from which launch size on do the group pass's clones pay?
//
// The block-merged clone (src/transforms/Group.cpp, step 6) asks the runtime
// for a launch of at least minLaunchThreads threads. This benchmark measures
// the crossover that constant is taken from, for the merged clone and for the
// plain group clone (block.x / k): it loads the optimizer's -O2 output of a
// few kernels (PTX files given on the command line), takes the original and
// the clone straight from the module (no runtime selection: both run at every
// size, also below the floor), and for a series of launch sizes
//   - runs both on the same random, non-zero input and compares every output
//     byte, unwritten ones included (a size where they differ is reported
//     and fails the run),
//   - times both with CUDA events: warm-up, then the median of --runs
//     launches, alternating original and clone (as gpu-diff does).
// One CSV line per (kernel, clone, size) on stdout: kernel,clone,shape,
// threads,original_us,clone_us,speedup,equal. Exit status: 0 all equal, 1 a
// difference or an error, 77 no CUDA device.
//
//   launch_floor [--runs N] <shapes.opt.ptx> <stencil.opt.ptx>
//
// Built and run by scripts/bench/launch-floor.sh (docs/BENCHMARKS.md).
#include "../common/driver.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

using bench::check;
using bench::Launch;
using bench::median;

/// A device buffer of random non-zero bytes (inputs) or poisoned bytes (outputs).
struct Buffer {
  void *p = nullptr;
  size_t bytes = 0;
  Buffer(size_t n, std::mt19937_64 *rng) : bytes(n) {
    check(cudaMalloc(&p, n), "cudaMalloc");
    std::vector<unsigned char> h(n, 0xA5);
    if (rng)
      for (auto &b : h) b = static_cast<unsigned char>(1 + (*rng)() % 255);
    check(cudaMemcpy(p, h.data(), n, cudaMemcpyHostToDevice), "cudaMemcpy");
  }
  ~Buffer() { cudaFree(p); }
  std::vector<unsigned char> read() const {
    std::vector<unsigned char> h(bytes);
    check(cudaMemcpy(h.data(), p, bytes, cudaMemcpyDeviceToHost), "cudaMemcpy");
    return h;
  }
  void poison() const { check(cudaMemset(p, 0xA5, bytes), "cudaMemset"); }
};

/// Median times (us) of a and b, alternating, after a warm-up.
std::pair<float, float> timeBoth(const Launch &a, const Launch &b, int runs) {
  bench::EventTimer timer;
  auto once = [&](const Launch &l) { return timer.ms([&] { l.run(); }) * 1000.0f; };
  for (int i = 0; i < 3; ++i) once(a), once(b);
  std::vector<float> ta, tb;
  for (int i = 0; i < runs; ++i) {
    ta.push_back(once(a));
    tb.push_back(once(b));
  }
  return {median(ta), median(tb)};
}

struct Stats {
  int rows = 0, different = 0;
};

/// One clone to compare with the original, and how its launch follows from the original's.
struct Clone {
  std::string suffix;  // clone name = kernel + suffix
  unsigned k;
  bool merged;  // true: grid.x -> ceil(grid.x/k), same block, grid.x appended; false: block.x -> block.x/k
};

/// Runs the original and a clone of `name` over one launch shape; prints the CSV line.
/// `out` is the output buffer both write (poisoned before each so unwritten bytes compare too).
void measure(CUmodule m, const std::string &name, const Clone &c, const std::string &shape,
             std::vector<void *> params, const Buffer &out, unsigned grid[3], unsigned block[3], int runs,
             Stats &st) {
  CUfunction fo, fc;
  check(cuModuleGetFunction(&fo, m, name.c_str()), name.c_str());
  std::string clone = name + c.suffix;
  check(cuModuleGetFunction(&fc, m, clone.c_str()), clone.c_str());
  Launch lo{fo, {grid[0], grid[1], grid[2]}, {block[0], block[1], block[2]}, params};
  Launch lc = lo;
  lc.f = fc;
  unsigned gridX = grid[0];
  if (c.merged) {
    // The manifest's launch: ceil(grid.x / k) blocks of the same size, the
    // original grid.x appended as the last (.u32) parameter (extraArgs).
    lc.grid[0] = (grid[0] + c.k - 1) / c.k;
    lc.params.push_back(&gridX);
  } else {
    lc.block[0] = block[0] / c.k;
  }
  out.poison();
  lo.run();
  check(cudaDeviceSynchronize(), name.c_str());
  auto want = out.read();
  out.poison();
  lc.run();
  check(cudaDeviceSynchronize(), clone.c_str());
  bool equal = out.read() == want;
  auto [to, tc] = timeBoth(lo, lc, runs);
  uint64_t threads = uint64_t(grid[0]) * grid[1] * grid[2] * block[0] * block[1] * block[2];
  std::printf("%s,%s,%s,%llu,%.2f,%.2f,%.3f,%s\n", name.c_str(), c.merged ? "merged" : "group", shape.c_str(),
              (unsigned long long)threads, to, tc, to / tc, equal ? "equal" : "DIFFERENT");
  std::fflush(stdout);
  ++st.rows;
  if (!equal) ++st.different;
}

}  // namespace

int main(int argc, char **argv) {
  int runs = 51;
  std::vector<std::string> files;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--runs" && i + 1 < argc) runs = std::atoi(argv[++i]);
    else files.push_back(a);
  }
  if (files.size() != 2) {
    std::fprintf(stderr, "usage: launch_floor [--runs N] <shapes.opt.ptx> <stencil.opt.ptx>\n");
    return 2;
  }
  if (!bench::haveDevice("launch_floor")) return 77;
  try {
    bench::initContext();
    cudaDeviceProp prop;
    check(cudaGetDeviceProperties(&prop, 0), "cudaGetDeviceProperties");
    int drv = 0, rt = 0;
    cudaDriverGetVersion(&drv);
    cudaRuntimeGetVersion(&rt);
    std::fprintf(stderr, "launch_floor on %s (%d SMs), driver %d, runtime %d, median of %d launches\n", prop.name,
                 prop.multiProcessorCount, drv, rt, runs);
    CUmodule shapes = bench::loadModule(files[0]), stencil = bench::loadModule(files[1]);
    std::mt19937_64 rng(20101124);
    Stats st;
    std::printf("kernel,clone,shape,threads,original_us,clone_us,speedup,equal\n");

    // Light bodies: 8-bit (k = 16), 16-bit (k = 8) and 32-bit (k = 4); the
    // merged clone in 256- and 1024-thread blocks, the plain group clone in
    // 1024-thread blocks (64, 128 or 256 threads after the division) and,
    // where 256 / k keeps 64 threads (k = 4), in 256-thread blocks.
    struct Mode {
      bool merged;
      unsigned block;
    };
    for (Mode mode : {Mode{true, 256}, Mode{true, 1024}, Mode{false, 1024}, Mode{false, 256}}) {
      const bool merged = mode.merged;
      const unsigned b = mode.block;
      for (unsigned lg = 10; lg <= 26; ++lg) {
        for (unsigned n : {1u << lg, (1u << lg) + (1u << lg) / 2}) {
          if (n > (1u << 26)) continue;
          unsigned grid[3] = {(n + b - 1) / b, 1, 1}, block[3] = {b, 1, 1};
          int ni = static_cast<int>(n);
          std::string shape = "n=" + std::to_string(n) + " block " + std::to_string(b);
          if (merged || b / 16 >= 64) {
            Buffer in(n, &rng), out(n, nullptr);
            void *pin = in.p, *pout = out.p;
            Clone c{merged ? "__ptxopt_group16_merged" : "__ptxopt_group16", 16, merged};
            measure(shapes, "scale_char_guarded", c, shape, {&pin, &pout, &ni}, out, grid, block, runs, st);
          }
          if (merged || b / 8 >= 64) {
            Buffer in(2 * size_t(n), &rng), lim(2 * size_t(n), &rng), out(2 * size_t(n), nullptr);
            void *pin = in.p, *plim = lim.p, *pout = out.p;
            Clone c{merged ? "__ptxopt_group8_merged" : "__ptxopt_group8", 8, merged};
            measure(shapes, "clamp_short_guarded", c, shape, {&pin, &plim, &pout, &ni}, out, grid, block, runs, st);
          }
          {
            Buffer x(4 * size_t(n), &rng), y(4 * size_t(n), &rng), out(4 * size_t(n), nullptr);
            void *px = x.p, *py = y.p, *pout = out.p;
            float a = 2.5f;
            Clone c{merged ? "__ptxopt_group4_merged" : "__ptxopt_group4", 4, merged};
            measure(shapes, "saxpy_guarded", c, shape, {&px, &py, &pout, &a, &ni}, out, grid, block, runs, st);
          }
        }
      }
    }
    // The stencil (misaligned loads, k = 8): the merged clone in the paper
    // program's 32 x 8 blocks, the group clone in 256 x 4 blocks.
    const unsigned sizes[][2] = {{256, 256},   {512, 512},   {1024, 768},  {1024, 1024}, {1280, 1024},
                                 {1440, 1080}, {1600, 1200}, {1920, 1080}, {1920, 1200}, {2048, 2048},
                                 {2896, 2896}, {4096, 2048}, {4096, 4096}, {8192, 8192}};
    for (bool merged : {true, false}) {
      unsigned bx = merged ? 32 : 256, by = merged ? 8 : 4;
      for (auto &wh : sizes) {
        unsigned w = wh[0], h = wh[1];
        size_t bytes = size_t(w) * h;
        Buffer in(bytes, &rng), out(bytes, nullptr);
        void *pin = in.p, *pout = out.p;
        int wi = static_cast<int>(w), hi = static_cast<int>(h);
        unsigned grid[3] = {(w + bx - 1) / bx, (h + by - 1) / by, 1}, block[3] = {bx, by, 1};
        Clone c{merged ? "__ptxopt_group8_merged" : "__ptxopt_group8", 8, merged};
        std::string shape = std::to_string(w) + "x" + std::to_string(h) + " block " + std::to_string(bx) + "x" +
                            std::to_string(by);
        measure(stencil, "sobel", c, shape, {&pin, &pout, &wi, &hi}, out, grid, block, runs, st);
      }
    }
    std::fprintf(stderr, "launch_floor: %d rows, %d DIFFERENT\n", st.rows, st.different);
    return st.different ? 1 : 0;
  } catch (const std::exception &e) {
    std::fprintf(stderr, "launch_floor: error: %s\n", e.what());
    return 1;
  }
}
