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
// against private host addresses in their clone image (ptx-nvcc's default,
// one per kernel; registered when a launch shape first can use one of its clones)
// or, built with --ptxopt-no-clone-images, in the same fatbinary handle as
// the original, and launched with
// __cudaLaunchKernel on the cudaKernel_t cudart gives for them. The choice of variant is ptxopt_select's (Select.h), as in libptxopt.
//
// A kernel whose clones are images of their own runs the original on its
// first launch: loading a clone's image there (the driver's cold load, 40-70
// us on an H100/H200) would make a program's first launch dearer than
// nvcc's, and a kernel launched once cannot win it back. Its later launches
// load and run the clones (PTXOPT_FIRST_LAUNCH_CLONES=1: from the first).
//
// Every launch of the program passes here, so the launch path is kept to
// lookups without locks or allocations (docs/NVCC.md, "The launch path"): the
// kernel by its handle (HandleMap), the shape's bit mask (ShapeMaskCache);
// cudart is asked for a clone's attributes only when a shape first can use
// the clone, and text is built only for PTXOPT_LOG.
#include <cuda_runtime_api.h>
#include <dlfcn.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
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

/// A clone image (clone images, ptx-nvcc's default): one fatbinary with
/// clones (ptx-nvcc makes one per kernel), registered with cudart, all its
/// functions at once, when a launch shape first can use one of them, so that
/// cudart loads clone code then and only then (the unit's own image is
/// nvcc's). Shared by the clones whose table entries name it, of any kernel.
struct CloneImage {
  struct Wrapper {  // cudart's __fatBinC_Wrapper_t (fatbinary_section.h)
    int magic;
    int version;
    const unsigned long long *data;
    void *filenameOrFatbins;
  } wrapper{0x466243B1, 1, nullptr, nullptr};
  std::mutex mu;
  bool registered = false;                                 // under mu
  std::vector<std::pair<char *, const char *>> functions;  // (host address, name) of its clones; under mu
};

struct Clone {
  std::string name;                        // the clone's .entry name (kept alive: cudart keeps the pointer)
  std::shared_ptr<char> hostAddress;       // a unique address cudart maps to the clone (one per name:
                                           // variants that share a function share it)
  std::shared_ptr<CloneImage> image;       // its own image, or null: it is in the unit's image
  cudaKernel_t handle = nullptr;
  // Read from cudart when a launch shape first can use the clone (resolveClone):
  // 0 not yet, 1 usable, 2 not usable. Written under the kernel's mutex.
  std::atomic<int> state{0};
  uint32_t maxThreads = 0;  // cudaFuncGetAttributes' maxThreadsPerBlock (valid when state == 1)
};

struct NvccKernel {
  std::string name;
  KernelManifest manifest;
  std::vector<Clone> clones;  // parallel to manifest.variants
  std::once_flag resolved;    // device limits read
  std::once_flag clonesRead;  // when logging: every clone read (readAllClones)
  bool limitsKnown = false;
  // The decisions keep their text (chooseLaunch's): PTXOPT_LOG, or more
  // variants than the mask form takes. Fixed at registration.
  bool logged = false;
  DeviceLimits limits;
  std::mutex mu;              // serializes the clones' cudart queries
  ShapeMaskCache masks;       // the launch path's cache (shapeMask)
  // With PTXOPT_LOG: the decisions with their reasons, as before.
  bool anyUsable = false;
  ShapeCache cache;
  std::atomic<bool> warnedLaunch{false};
  bool hasImages = false;  // its clones are in a clone image: the first launch runs the original
  std::atomic<bool> launched{false};  // with hasImages: the first launch has come (it reads nothing)
  explicit NvccKernel(size_t variants) : clones(variants) {}
};

/// cudaKernel_t -> kernel with clones, read without a lock on every launch:
/// open addressing over a power-of-two table of atomic slots. An insertion
/// (once per hooked kernel, in __ptxopt_nvcc_get_kernel, under Registry::mu)
/// writes the kernel before the key; a full table is replaced by one twice
/// as large, and the old one is kept (a reader may still be in it: tables
/// are never freed, like the registry).
class HandleMap {
public:
  HandleMap() { table_.store(newTable(64), std::memory_order_release); }

  NvccKernel *find(const void *key) const {
    const Table *t = table_.load(std::memory_order_acquire);
    for (size_t i = hashOf(key) & t->mask;; i = (i + 1) & t->mask) {
      const void *k = t->slots[i].key.load(std::memory_order_acquire);
      if (k == key) return t->slots[i].kernel.load(std::memory_order_relaxed);
      if (!k) return nullptr;
    }
  }

  /// Under the registry's exclusive lock.
  void insert(const void *key, NvccKernel *k) {
    Table *t = table_.load(std::memory_order_relaxed);
    if ((count_ + 1) * 2 > t->mask + 1) {
      Table *bigger = newTable((t->mask + 1) * 2);
      for (size_t i = 0; i <= t->mask; ++i)
        if (const void *old = t->slots[i].key.load(std::memory_order_relaxed))
          put(*bigger, old, t->slots[i].kernel.load(std::memory_order_relaxed));
      table_.store(bigger, std::memory_order_release);
      t = bigger;
    }
    if (put(*t, key, k)) ++count_;
  }

private:
  struct Slot {
    std::atomic<const void *> key{nullptr};
    std::atomic<NvccKernel *> kernel{nullptr};
  };
  struct Table {
    size_t mask;
    std::unique_ptr<Slot[]> slots;
  };
  static size_t hashOf(const void *p) {
    uint64_t x = reinterpret_cast<uintptr_t>(p);
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    return static_cast<size_t>(x ^ (x >> 33));
  }
  Table *newTable(size_t n) {
    tables_.push_back(std::make_unique<Table>(Table{n - 1, std::make_unique<Slot[]>(n)}));
    return tables_.back().get();
  }
  /// True when `key` is new.
  static bool put(Table &t, const void *key, NvccKernel *k) {
    for (size_t i = hashOf(key) & t.mask;; i = (i + 1) & t.mask) {
      const void *old = t.slots[i].key.load(std::memory_order_relaxed);
      if (old == key) {
        t.slots[i].kernel.store(k, std::memory_order_release);
        return false;
      }
      if (!old) {
        t.slots[i].kernel.store(k, std::memory_order_relaxed);
        t.slots[i].key.store(key, std::memory_order_release);
        return true;
      }
    }
  }
  std::atomic<Table *> table_{nullptr};
  std::vector<std::unique_ptr<Table>> tables_;
  size_t count_ = 0;
};

struct Registry {
  std::shared_mutex mu;
  std::unordered_map<const void *, std::shared_ptr<NvccKernel>> byHost;
  HandleMap byHandle;  // its own reads take no lock; writes under mu
  std::unordered_map<const char *, std::shared_ptr<Manifest>> manifests;  // per translation unit's string
  std::unordered_map<const unsigned long long *, std::shared_ptr<CloneImage>> images;  // by fatbinary
  std::unordered_map<const unsigned char *, std::vector<ptxopt_nvcc_image>> blobs;    // late images, read
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

/// The limits of device `dev`, read once per device for the process (7
/// cudaDeviceGetAttribute calls); false when cudart cannot give them.
bool deviceLimits(const ptxopt_nvcc_cudart &rt, int dev, DeviceLimits &out) {
  struct Known {
    int dev;
    DeviceLimits limits;
  };
  static std::mutex mu;
  static std::vector<Known> known;
  std::lock_guard<std::mutex> lock(mu);
  for (const Known &k : known)
    if (k.dev == dev) {
      out = k.limits;
      return true;
    }
  int v[7] = {};
  const cudaDeviceAttr attrs[7] = {cudaDevAttrMaxBlockDimX, cudaDevAttrMaxBlockDimY, cudaDevAttrMaxBlockDimZ,
                                   cudaDevAttrMaxGridDimX,  cudaDevAttrMaxGridDimY,  cudaDevAttrMaxGridDimZ,
                                   cudaDevAttrMaxThreadsPerBlock};
  for (int i = 0; i < 7; ++i)
    if (rt.deviceGetAttribute(&v[i], attrs[i], dev) != cudaSuccess || v[i] <= 0) return false;
  out.maxBlock = {uint32_t(v[0]), uint32_t(v[1]), uint32_t(v[2])};
  out.maxGrid = {uint32_t(v[3]), uint32_t(v[4]), uint32_t(v[5])};
  out.maxThreadsPerBlock = uint32_t(v[6]);
  known.push_back({dev, out});
  return true;
}

/// Once per kernel, on its first launch: the current device's limits (cudart
/// has initialized by then). Without them no clone runs. The clones
/// themselves are read when a launch shape first can use them
/// (resolveClone), except with PTXOPT_LOG (or more than kMaskVariants
/// variants), where all are read at the first launch that may run a clone
/// (readAllClones) and the decisions keep their reasons.
void resolveKernel(const ptxopt_nvcc_cudart &rt, NvccKernel &k);

/// Clone `i`'s handle and thread limit, read from cudart once (a clone
/// cudart cannot find or describe is dropped with a warning). True when it
/// is usable.
bool resolveClone(const ptxopt_nvcc_cudart &rt, NvccKernel &k, size_t i) {
  Clone &c = k.clones[i];
  int state = c.state.load(std::memory_order_acquire);
  if (state) return state == 1;
  std::lock_guard<std::mutex> lock(k.mu);
  state = c.state.load(std::memory_order_relaxed);
  if (state) return state == 1;
  cudaError_t before = rt.peekAtLastError();
  if (c.image && rt.version >= 2) {
    // Its unit's clone image: registered now with all its clones, as a
    // library cudart loads lazily (what a dlopen'ed CUDA library's
    // constructor does). A clone added to it later (registration after
    // a launch) is not in it: cudart cannot find it, and it is dropped below.
    std::lock_guard<std::mutex> imageLock(c.image->mu);
    if (!c.image->registered) {
      c.image->registered = true;
      void **h = rt.registerFatBinary(&c.image->wrapper);
      for (const auto &[host, name] : c.image->functions)
        rt.registerFunction(h, host, const_cast<char *>(name), name, -1, nullptr, nullptr, nullptr, nullptr, nullptr);
      rt.registerFatBinaryEnd(h);
    }
  }
  cudaFuncAttributes fa{};
  cudaError_t e = rt.getKernel(&c.handle, c.hostAddress.get());
  if (e == cudaSuccess) e = rt.funcGetAttributes(&fa, c.hostAddress.get());
  if (e != cudaSuccess) {
    logLine("warning: " + k.name + ": clone " + c.name + " is not usable (" + rt.getErrorName(e) +
            "); it is never launched");
    // Our failed queries must not show up in the application's
    // cudaGetLastError; an error it had not read yet stays.
    if (before == cudaSuccess) (void)rt.getLastError();
    c.state.store(2, std::memory_order_release);
    return false;
  }
  c.maxThreads = uint32_t(fa.maxThreadsPerBlock);
  c.state.store(1, std::memory_order_release);
  return true;
}

void resolveKernel(const ptxopt_nvcc_cudart &rt, NvccKernel &k) {
  cudaError_t before = rt.peekAtLastError();
  int dev = 0;
  if (rt.getDevice(&dev) != cudaSuccess) {
    logLine("warning: " + k.name + ": cudaGetDevice failed; the original runs");
  } else if (!deviceLimits(rt, dev, k.limits)) {
    logLine("warning: " + k.name + ": cannot read the device limits; the original runs");
  } else {
    k.limitsKnown = true;
  }
  if (!k.limitsKnown && before == cudaSuccess) (void)rt.getLastError();
}

/// With PTXOPT_LOG: every clone of the kernel read at once, so that each
/// decision line has its reasons.
void readAllClones(const ptxopt_nvcc_cudart &rt, NvccKernel &k) {
  for (size_t i = 0; i < k.clones.size(); ++i)
    if (resolveClone(rt, k, i)) k.anyUsable = true;
}

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
      if (h) {
        f = reinterpret_cast<Fn>(dlsym(h, "cuMemGetAddressRange_v2"));
        dlclose(h);  // the reference NOLOAD took; cudart keeps the library loaded
      }
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

/// A clone's thread limit for chooseLaunch: read from cudart when a shape
/// first can use the clone (0: not usable).
struct CloneLimits {
  const ptxopt_nvcc_cudart &rt;
  NvccKernel &k;
  static uint32_t of(const void *self, size_t i) {
    auto &c = *static_cast<const CloneLimits *>(self);
    return resolveClone(c.rt, c.k, i) ? c.k.clones[i].maxThreads : 0;
  }
};

/// The unit's clone images: the hook block's table (version 2), or the
/// block of bytes linked in late (version 3, NvccShim.h), read once per
/// block (under Registry::mu). A block that is not one is ignored with a
/// warning (its clones then run nowhere: the originals run).
std::pair<const ptxopt_nvcc_image *, size_t> imagesOf(const ptxopt_nvcc_cudart &rt, Registry &r) {
  if (rt.version < 2) return {nullptr, 0};
  if (rt.version < 3 || !rt.imageBlob) return {rt.images, rt.images ? static_cast<size_t>(rt.imageCount) : 0};
  auto [it, fresh] = r.blobs.try_emplace(rt.imageBlob);
  if (fresh) {
    const unsigned char *b = rt.imageBlob;
    auto u32 = [&](size_t at) {
      uint32_t v;
      std::memcpy(&v, b + at, 4);
      return v;
    };
    if (std::memcmp(b, "PTXONVI1", 8) != 0) {
      std::fprintf(stderr, "ptxopt: warning: bad clone images in a ptx-nvcc object; its kernels run the originals\n");
    } else {
      for (uint32_t i = 0, n = u32(8); i < n; ++i) {
        uint64_t fatbin;
        std::memcpy(&fatbin, b + 16 + 16 * size_t(i) + 8, 8);
        it->second.push_back({reinterpret_cast<const char *>(b + u32(16 + 16 * size_t(i))),
                              reinterpret_cast<const unsigned long long *>(b + fatbin)});
      }
    }
  }
  return {it->second.data(), it->second.size()};
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
  auto [images, imageCount] = imagesOf(*rt, r);
  auto k = std::make_shared<NvccKernel>(km->variants.size());
  k->name = deviceName;
  k->manifest = *km;
  k->logged = config().log >= 1 || km->variants.size() > kMaskVariants;
  for (size_t i = 0; i < km->variants.size(); ++i) {
    Clone &c = k->clones[i];
    c.name = km->variants[i].name;
    auto same = std::find_if(k->clones.begin(), k->clones.begin() + static_cast<long>(i),
                             [&](const Clone &o) { return o.name == c.name; });
    if (same != k->clones.begin() + static_cast<long>(i)) {
      c.hostAddress = same->hostAddress;  // registered once
      c.image = same->image;
      continue;
    }
    c.hostAddress.reset(new char(0));
    for (size_t j = 0; j < imageCount && !c.image; ++j)
      if (images[j].name && images[j].fatbin && c.name == images[j].name) {
        std::shared_ptr<CloneImage> &image = r.images[images[j].fatbin];
        if (!image) {
          image = std::make_shared<CloneImage>();
          image->wrapper.data = images[j].fatbin;
        }
        std::lock_guard<std::mutex> imageLock(image->mu);
        image->functions.emplace_back(c.hostAddress.get(), c.name.c_str());
        c.image = image;
      }
    if (c.image) k->hasImages = true;
    if (!c.image)  // in the unit's own image
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
  if (e != cudaSuccess || !kernel || config().disable) return e;
  Registry &r = registry();
  std::unique_lock lock(r.mu);
  auto it = r.byHost.find(hostFun);
  if (it != r.byHost.end()) r.byHandle.insert(*kernel, it->second.get());
  return e;
}


cudaError_t __ptxopt_nvcc_launch(const ptxopt_nvcc_cudart *rt, cudaKernel_t kernel, dim3 grid, dim3 block,
                                 void **args, size_t sharedMem, cudaStream_t stream, int perThreadStream) {
  auto launch = perThreadStream ? rt->launchKernelPtsz : rt->launchKernel;
  // With PTXOPT_DISABLE no kernel was registered: nothing is found.
  NvccKernel *k = registry().byHandle.find(kernel);
  if (!k) {
    lastVariantName = nullptr;
    lastVariantKind = nullptr;
    return launch(kernel, grid, block, args, sharedMem, stream);
  }
  LaunchShape s;
  s.grid = {grid.x, grid.y, grid.z};
  s.block = {block.x, block.y, block.z};
  s.sharedBytes = uint32_t(sharedMem);
  // The kernel's first launch with clone images: the original, no clone
  // image loaded (the file's opening comment), and nothing asked of cudart
  // (the device limits are read from the next launch on): the program's
  // first launch costs what nvcc's does.
  const bool holdOff = k->hasImages && !config().firstLaunchClones &&
                       !k->launched.load(std::memory_order_relaxed) && !k->launched.exchange(true);
  if (holdOff && config().log >= 1)
    logLine(k->name + ": first launch: the original (clone images are loaded from the kernel's next launch on)");
  if (!holdOff) std::call_once(k->resolved, [&] { resolveKernel(*rt, *k); });
  const bool eligible = !holdOff && k->limitsKnown && sharedMem <= 0xffffffffu;
  Selection sel;
  if (k->logged && eligible) std::call_once(k->clonesRead, [&] { readAllClones(*rt, *k); });
  static const ChoiceText text{config().log, 5, logLine};  // the shim's settings are the process's
  const CloneLimits limits{*rt, *k};
  const int variant = chooseLaunch(k->manifest, s, k->limits, MaxThreadsOf{CloneLimits::of, &limits}, args,
                                   allocationLookup(), eligible && (!k->logged || k->anyUsable), k->masks, k->cache,
                                   k->logged ? &text : nullptr, sel);
  if (variant >= 0) {
    const Clone &c = k->clones[size_t(variant)];
    const Variant &v = k->manifest.variants[size_t(variant)];
    const LaunchShape &t = sel.launch;
    VariantArgs buf;
    void **cloneArgs = variantArgs(k->manifest, v, s, args, buf);
    cudaError_t before = rt->peekAtLastError();
    cudaError_t e = launch(c.handle, dim3(t.grid[0], t.grid[1], t.grid[2]), dim3(t.block[0], t.block[1], t.block[2]),
                           cloneArgs, sharedMem, stream);
    if (e == cudaSuccess) {
      lastVariantName = c.name.c_str();
      lastVariantKind = v.kind.c_str();
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
