// The launch shim of ptx-nvcc builds (docs/NVCC.md).
//
// scripts/ptx-nvcc inserts a small hook block into each host file
// (*.cudafe1.cpp) whose device code got clones. The block carries the
// translation unit's manifest as a string and renames, by macros, three calls
// of the compiler-generated host code:
//
//   __cudaRegisterFunction   -> also __ptxopt_nvcc_register (below)
//   __cudaGetKernel          -> __ptxopt_nvcc_get_kernel
//   __cudaLaunchKernel(_ptsz)-> __ptxopt_nvcc_launch
//
// The block refers to these functions weakly: an object built by ptx-nvcc and
// linked without this library behaves exactly like one built by nvcc.
//
// Everything here goes through the CUDA runtime the hooked object was linked
// with (static or shared cudart), through the function table the hook block
// passes (NvccShim.h), so this library has no undefined CUDA symbols and may
// come anywhere on a link line. Clones are registered with __cudaRegisterFunction
// against private host addresses in the same fatbinary handle as the original,
// and launched with __cudaLaunchKernel on the cudaKernel_t cudart gives for
// them. The choice of variant is ptxopt_select's (Select.h), as in libptxopt.
#include <cuda_runtime_api.h>
#include <dlfcn.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <shared_mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "ptxopt/Manifest.h"
#include "ptxopt/runtime/Config.h"
#include "ptxopt/runtime/NvccShim.h"
#include "ptxopt/runtime/Select.h"

using namespace ptxopt;
using namespace ptxopt::rt;

namespace {

struct Clone {
  std::string name;                        // the clone's .entry name (kept alive: cudart keeps the pointer)
  std::shared_ptr<char> hostAddress;       // a unique address cudart maps to the clone (one per name:
                                           // variants that share a function share it)
  cudaKernel_t handle = nullptr;
  bool usable = false;
};

struct NvccKernel {
  std::string name;
  KernelManifest manifest;
  std::vector<Clone> clones;  // parallel to manifest.variants
  std::once_flag resolved;
  bool anyUsable = false;
  DeviceLimits limits;
  std::vector<uint32_t> maxThreads;  // per variant (0 where unusable)
  ShapeCache cache;
  std::atomic<bool> warnedLaunch{false};
};

struct Registry {
  std::shared_mutex mu;
  std::unordered_map<const void *, std::shared_ptr<NvccKernel>> byHost;
  std::unordered_map<cudaKernel_t, std::shared_ptr<NvccKernel>> byHandle;
  std::unordered_map<const char *, std::shared_ptr<Manifest>> manifests;  // per translation unit's string
  std::mutex logMu;
};

// Function-local statics: registration runs from static constructors of the
// application's objects, in any order relative to this file's.
Registry &registry() {
  static Registry *r = new Registry;  // never destroyed: launches may come from atexit handlers
  return *r;
}

const Config &config() {
  static const Config c = configFromEnv();
  return c;
}

void logLine(const std::string &line) {
  std::lock_guard<std::mutex> lock(registry().logMu);
  std::fprintf(stderr, "ptxopt: %s\n", line.c_str());
}

thread_local const char *lastVariantName = nullptr;
thread_local const char *lastVariantKind = nullptr;

std::string dimsText(const Dims &d) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "(%u,%u,%u)", d[0], d[1], d[2]);
  return buf;
}

/// The clones' handles and limits, once per kernel, on its first launch (the
/// current device's limits; cudart has initialized by then). A clone cudart
/// cannot find, or whose attributes it cannot read, is dropped with a warning.
void resolve(const ptxopt_nvcc_cudart &rt, NvccKernel &k) {
  cudaError_t before = rt.peekAtLastError();
  bool failed = false;
  int dev = 0;
  if (rt.getDevice(&dev) != cudaSuccess) {
    failed = true;
    logLine("warning: " + k.name + ": cudaGetDevice failed; the original runs");
  } else {
    int v[7] = {};
    const cudaDeviceAttr attrs[7] = {cudaDevAttrMaxBlockDimX, cudaDevAttrMaxBlockDimY, cudaDevAttrMaxBlockDimZ,
                                     cudaDevAttrMaxGridDimX,  cudaDevAttrMaxGridDimY,  cudaDevAttrMaxGridDimZ,
                                     cudaDevAttrMaxThreadsPerBlock};
    bool ok = true;
    for (int i = 0; i < 7; ++i) ok = ok && rt.deviceGetAttribute(&v[i], attrs[i], dev) == cudaSuccess && v[i] > 0;
    if (!ok) {
      failed = true;
      logLine("warning: " + k.name + ": cannot read the device limits; the original runs");
    } else {
      k.limits.maxBlock = {uint32_t(v[0]), uint32_t(v[1]), uint32_t(v[2])};
      k.limits.maxGrid = {uint32_t(v[3]), uint32_t(v[4]), uint32_t(v[5])};
      k.limits.maxThreadsPerBlock = uint32_t(v[6]);
      for (size_t i = 0; i < k.clones.size(); ++i) {
        Clone &c = k.clones[i];
        cudaFuncAttributes fa{};
        cudaError_t e = rt.getKernel(&c.handle, c.hostAddress.get());
        if (e == cudaSuccess) e = rt.funcGetAttributes(&fa, c.hostAddress.get());
        if (e != cudaSuccess) {
          failed = true;
          logLine("warning: " + k.name + ": clone " + c.name + " is not usable (" + rt.getErrorName(e) +
                  "); it is never launched");
          continue;
        }
        c.usable = true;
        k.maxThreads[i] = uint32_t(fa.maxThreadsPerBlock);
        k.anyUsable = true;
      }
    }
  }
  // Our failed queries must not show up in the application's
  // cudaGetLastError; an error it had not read yet stays.
  if (failed && before == cudaSuccess) (void)rt.getLastError();
}

}  // namespace

extern "C" {

void __ptxopt_nvcc_register(const ptxopt_nvcc_cudart *rt, const char *manifestJson, void **fatCubinHandle,
                            const char *hostFun, const char *deviceName) {
  if (!rt || rt->version < 1 || !manifestJson || !deviceName || config().disable) return;
  Registry &r = registry();
  std::unique_lock lock(r.mu);
  std::shared_ptr<Manifest> &m = r.manifests[manifestJson];
  if (!m) {
    m = std::make_shared<Manifest>();
    std::string error;
    if (!fromJson(manifestJson, *m, error)) {
      std::fprintf(stderr, "ptxopt: warning: bad manifest in a ptx-nvcc object (%s); its kernels run the originals\n",
                   error.c_str());
      m->kernels.clear();
    }
  }
  const KernelManifest *km = m->find(deviceName);
  if (!km || km->variants.empty()) return;
  auto k = std::make_shared<NvccKernel>();
  k->name = deviceName;
  k->manifest = *km;
  k->clones.resize(km->variants.size());
  k->maxThreads.assign(km->variants.size(), 0);
  for (size_t i = 0; i < km->variants.size(); ++i) {
    Clone &c = k->clones[i];
    c.name = km->variants[i].name;
    auto same = std::find_if(k->clones.begin(), k->clones.begin() + static_cast<long>(i),
                             [&](const Clone &o) { return o.name == c.name; });
    if (same != k->clones.begin() + static_cast<long>(i)) {
      c.hostAddress = same->hostAddress;  // registered once
      continue;
    }
    c.hostAddress.reset(new char(0));
    rt->registerFunction(fatCubinHandle, c.hostAddress.get(), const_cast<char *>(c.name.c_str()), c.name.c_str(),
                           -1, nullptr, nullptr, nullptr, nullptr, nullptr);
  }
  if (config().log >= 1) {
    std::string names;
    for (const Variant &v : km->variants) names += (names.empty() ? "" : ", ") + v.name + " (" + v.kind + ")";
    lock.unlock();
    logLine(k->name + ": " + std::to_string(km->variants.size()) + " clone(s): " + names);
    lock.lock();
  }
  r.byHost[hostFun] = std::move(k);
}

cudaError_t __ptxopt_nvcc_get_kernel(const ptxopt_nvcc_cudart *rt, cudaKernel_t *kernel, const void *hostFun) {
  cudaError_t e = rt->getKernel(kernel, hostFun);
  if (e != cudaSuccess || !kernel) return e;
  Registry &r = registry();
  std::unique_lock lock(r.mu);
  auto it = r.byHost.find(hostFun);
  if (it != r.byHost.end()) r.byHandle[*kernel] = it->second;
  return e;
}

namespace {
/// Allocation ranges for the disjointParams conditions (rowwalk clones):
/// cuMemGetAddressRange of the driver that the application's cudart loaded
/// (dlopen with RTLD_NOLOAD: the shim never loads the driver itself; until
/// it is loaded, or without it, such variants do not run).
const AllocationLookup *allocationLookup() {
  using Fn = int (*)(unsigned long long *, size_t *, unsigned long long);
  static std::atomic<Fn> fn{nullptr};
  static const AllocationLookup lookup = [](uint64_t ptr, uint64_t &base, uint64_t &size) {
    Fn f = fn.load(std::memory_order_acquire);
    if (!f) {
      void *h = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
      if (h) f = reinterpret_cast<Fn>(dlsym(h, "cuMemGetAddressRange_v2"));
      if (!f) return false;
      fn.store(f, std::memory_order_release);
    }
    unsigned long long b = 0;
    size_t n = 0;
    if (f(&b, &n, static_cast<unsigned long long>(ptr)) != 0) return false;
    base = b;
    size = n;
    return true;
  };
  return &lookup;
}
}  // namespace

cudaError_t __ptxopt_nvcc_launch(const ptxopt_nvcc_cudart *rt, cudaKernel_t kernel, dim3 grid, dim3 block,
                                 void **args, size_t sharedMem, cudaStream_t stream, int perThreadStream) {
  auto launch = perThreadStream ? rt->launchKernelPtsz : rt->launchKernel;
  std::shared_ptr<NvccKernel> k;
  if (!config().disable) {
    Registry &r = registry();
    std::shared_lock lock(r.mu);
    auto it = r.byHandle.find(kernel);
    if (it != r.byHandle.end()) k = it->second;
  }
  if (!k) {
    lastVariantName = nullptr;
    lastVariantKind = nullptr;
    return launch(kernel, grid, block, args, sharedMem, stream);
  }
  std::call_once(k->resolved, [&] { resolve(*rt, *k); });
  LaunchShape s;
  s.grid = {grid.x, grid.y, grid.z};
  s.block = {block.x, block.y, block.z};
  s.sharedBytes = uint32_t(sharedMem);
  Selection sel;
  bool inserted = false;
  if (k->anyUsable && sharedMem <= 0xffffffffu) {
    auto entry = k->cache.get(
        s,
        [&] {
          ShapeDecision d = decideShape(k->manifest, s, k->limits, k->maxThreads);
          for (size_t i = 0; i < k->clones.size(); ++i)
            if (!k->clones[i].usable) d.reasons[i] = "the clone is not usable";
          return std::make_shared<ShapeEntry>(std::move(d));
        },
        &inserted);
    sel = finishSelection(k->manifest, entry->decision, s, args, allocationLookup());
  } else {
    sel.launch = s;
  }
  if (config().log >= 2 || (config().log == 1 && inserted)) logLine(describeSelection(k->manifest, s, sel));
  if (sel.variant >= 0) {
    const Clone &c = k->clones[size_t(sel.variant)];
    const LaunchShape &t = sel.launch;
    cudaError_t before = rt->peekAtLastError();
    ExtraParams extra;
    void **cloneArgs = variantParams(k->manifest, k->manifest.variants[size_t(sel.variant)], s, args, extra);
    cudaError_t e = launch(c.handle, dim3(t.grid[0], t.grid[1], t.grid[2]), dim3(t.block[0], t.block[1], t.block[2]),
                           cloneArgs, sharedMem, stream);
    if (e == cudaSuccess) {
      lastVariantName = c.name.c_str();
      lastVariantKind = k->manifest.variants[size_t(sel.variant)].kind.c_str();
      return e;
    }
    // The clone was refused at launch (nothing ran): run the original.
    if (before == cudaSuccess) (void)rt->getLastError();
    if (!k->warnedLaunch.exchange(true)) {
      logLine("warning: launching " + c.name + " grid=" + dimsText(t.grid) + " block=" + dimsText(t.block) +
              " failed (" + rt->getErrorName(e) + "); running the original " + k->name);
    }
  }
  lastVariantName = k->name.c_str();
  lastVariantKind = "original";
  return launch(kernel, grid, block, args, sharedMem, stream);
}

const char *ptxopt_nvcc_last_variant(void) { return lastVariantName; }
const char *ptxopt_nvcc_last_variant_kind(void) { return lastVariantKind; }

}  // extern "C"
