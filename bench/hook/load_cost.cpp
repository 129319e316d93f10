// What loading a device image costs, by its content (issue #16, docs/BENCHMARKS.md
// "Launch hook cost"): a ptx-nvcc program's first launch pays for the larger
// image cudart loads (the clones), with or without the shim. This program
// loads images with the driver API, as cudart does for a registered fatbinary
// (cuLibraryLoadData, then the kernel's function in the current context on
// its first launch), and times each step, so that the cost can be split into
// what the number of functions, the code bytes and the embedded PTX add.
//
//   load_cost <reps> <kernel> <image>...     (images: cubin or fatbinary files)
//
// For each repetition and image (the order rotates every repetition), in one
// context: cuLibraryLoadData, cuLibraryGetKernel(<kernel>), the first
// cuLaunchKernel of it (<<<1,32>>>, one int* argument) + cuCtxSynchronize,
// a second launch + synchronize, cuLibraryUnload. Prints per image
// "image <file> load <min> <med> get <min> <med> first <min> <med> second <min> <med>"
// in microseconds, over the repetitions after the first, and for the image
// loaded first in the process "cold <file> load get first second" (that first
// load alone). CUDA_MODULE_LOADING (LAZY, the default, or EAGER) is read
// by the driver at cuInit: run the program under both.
//
// Built with the toolkit's stub libcuda (scripts/bench/hook.sh prepare);
// runs where a driver is installed.
#include <cuda.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

double usSince(Clock::time_point t0) { return std::chrono::duration<double, std::micro>(Clock::now() - t0).count(); }

void check(CUresult r, const char *what) {
  if (r != CUDA_SUCCESS) {
    const char *name = nullptr;
    cuGetErrorName(r, &name);
    std::fprintf(stderr, "load_cost: %s: %s\n", what, name ? name : "?");
    std::exit(r == CUDA_ERROR_NO_DEVICE ? 77 : 1);
  }
}

struct Stat {
  std::vector<double> v;
  void add(double x) { v.push_back(x); }
  double min() const { return *std::min_element(v.begin(), v.end()); }
  double med() const {
    std::vector<double> s = v;
    std::sort(s.begin(), s.end());
    return s[s.size() / 2];
  }
};

}  // namespace

int main(int argc, char **argv) {
  if (argc < 4) {
    std::fprintf(stderr, "usage: load_cost <reps> <kernel> <image>...\n");
    return 2;
  }
  const int reps = std::max(1, std::atoi(argv[1]));
  const char *kernel = argv[2];
  std::vector<std::string> files(argv + 3, argv + argc);
  std::vector<std::vector<char>> images;
  for (const auto &f : files) {
    std::ifstream in(f, std::ios::binary);
    if (!in) {
      std::fprintf(stderr, "load_cost: cannot read %s\n", f.c_str());
      return 2;
    }
    images.emplace_back(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  check(cuInit(0), "cuInit");
  CUdevice dev;
  check(cuDeviceGet(&dev, 0), "cuDeviceGet");
  CUcontext ctx;
  check(cuDevicePrimaryCtxRetain(&ctx, dev), "cuDevicePrimaryCtxRetain");
  check(cuCtxSetCurrent(ctx), "cuCtxSetCurrent");
  CUdeviceptr buf;
  check(cuMemAlloc(&buf, 4096), "cuMemAlloc");
  check(cuCtxSynchronize(), "cuCtxSynchronize");
  std::vector<Stat> load(images.size()), get(images.size()), first(images.size()), second(images.size());
  for (int r = 0; r < reps + 1; ++r)  // repetition 0 warms the driver up (not counted)
    for (size_t j = 0; j < images.size(); ++j) {
      size_t i = (j + size_t(r)) % images.size();
      CUlibrary lib;
      CUkernel k;
      auto t = Clock::now();
      check(cuLibraryLoadData(&lib, images[i].data(), nullptr, nullptr, 0, nullptr, nullptr, 0), "cuLibraryLoadData");
      double tl = usSince(t);
      t = Clock::now();
      check(cuLibraryGetKernel(&k, lib, kernel), "cuLibraryGetKernel");
      double tg = usSince(t);
      void *args[] = {&buf};
      t = Clock::now();
      check(cuLaunchKernel(reinterpret_cast<CUfunction>(k), 1, 1, 1, 32, 1, 1, 0, nullptr, args, nullptr),
            "cuLaunchKernel");
      check(cuCtxSynchronize(), "first launch");
      double tf = usSince(t);
      t = Clock::now();
      check(cuLaunchKernel(reinterpret_cast<CUfunction>(k), 1, 1, 1, 32, 1, 1, 0, nullptr, args, nullptr),
            "cuLaunchKernel");
      check(cuCtxSynchronize(), "second launch");
      double ts = usSince(t);
      check(cuLibraryUnload(lib), "cuLibraryUnload");
      if (r == 0) {  // the process's first load of an image: cold
        if (j == 0)
          std::printf("cold %s bytes %zu load %.1f get %.1f first %.1f second %.1f\n", files[i].c_str(),
                      images[i].size(), tl, tg, tf, ts);
        continue;
      }
      load[i].add(tl);
      get[i].add(tg);
      first[i].add(tf);
      second[i].add(ts);
    }
  for (size_t i = 0; i < images.size(); ++i)
    std::printf("image %s bytes %zu load %.1f %.1f get %.1f %.1f first %.1f %.1f second %.1f %.1f\n", files[i].c_str(),
                images[i].size(), load[i].min(), load[i].med(), get[i].min(), get[i].med(), first[i].min(),
                first[i].med(), second[i].min(), second[i].med());
  cuMemFree(buf);
  cuDevicePrimaryCtxRelease(dev);
  return 0;
}
