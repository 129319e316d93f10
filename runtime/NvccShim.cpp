// The launch shim of ptx-nvcc builds (docs/NVCC.md).
//
// tools/ptx-nvcc inserts a small hook block into each host file
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
// against private host addresses, in the same fatbinary handle as the
// original (clones in the unit's image) or in their kernel's clone image
// (--ptxopt-clone-images), which is registered right then, at start-up, as
// nvcc's own images are; they are launched with __cudaLaunchKernel on the
// cudaKernel_t cudart gives for them. The choice of variant is
// ptxopt_select's (Select.h), as in libptxopt; any launch may run a clone,
// the first included.
//
// A clone image costs a module load when a launch first uses one of its
// clones under lazy loading (CUDA_MODULE_LOADING=LAZY, CUDA's default:
// 40-130 us cold on an H100/H200). Until then a clone of it runs only when
// the clones' estimated savings on the kernel's launches so far pay for that
// load (imageLoadPays: a rent-or-buy rule); the launches before run the
// original. Under EAGER the image was loaded at start-up: no rule.
//
// Every launch of the program passes here, so the launch path is kept to
// lookups without locks or allocations (docs/NVCC.md, "The launch path"): the
// kernel by its handle (HandleMap.h), the shape's bit mask (ShapeMaskCache);
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
#include "HandleMap.h"
#include "NvccWrap.h"

using namespace ptxopt;
using namespace ptxopt::rt;

namespace {

/// A clone image (--ptxopt-clone-images): one fatbinary with clones
/// (ptx-nvcc makes one per kernel), registered with cudart, all its
/// functions at once, as soon as the kernels of all its table entries have
/// registered (at start-up, registerImage). Shared by the clones whose table
/// entries name it, of any kernel.
struct CloneImage {
  struct Wrapper {  // cudart's __fatBinC_Wrapper_t (fatbinary_section.h)
    int magic;
    int version;
    const unsigned long long *data;
    void *filenameOrFatbins;
  } wrapper{0x466243B1, 1, nullptr, nullptr};
  std::mutex mu;
  bool registered = false;                                 // under mu
  size_t entries = 0;                                      // table entries naming it (its clones)
  std::vector<std::pair<char *, const char *>> functions;  // (host address, name) of its clones; under mu
};

struct Clone {
  std::string name;                        // the clone's .entry name (kept alive: cudart keeps the pointer)
  std::shared_ptr<char> hostAddress;       // a unique address cudart maps to the clone (one per name:
                                           // variants that share a function share it)
  std::shared_ptr<CloneImage> image;       // its own image, or null: it is in the unit's image
  cudaKernel_t handle = nullptr;
  // Read from cudart when a launch shape first can use the clone (resolveClone):
  // 0 not yet, 1 usable (handle and thread limit), 2 not usable, 3 usable
  // (handle; the limit not read: no launch needed it). Written under the
  // kernel's mutex.
  std::atomic<int> state{0};
  uint32_t maxThreads = 0;  // cudaFuncGetAttributes' maxThreadsPerBlock (valid when state == 1)
};

struct NvccKernel {
  // First: what a launch too small for every clone reads (tooSmallForClones),
  // a cache line of its own before the rest. Fixed at registration.
  uint64_t minLaunchThreads = 0;  // the smallest of the clones' minLaunchThreads (0: a clone has none)
  bool logged = false;  // the decisions keep their text (chooseLaunch's): PTXOPT_LOG, or more
                        // variants than the mask form takes
  std::string name;
  KernelManifest manifest;
  std::vector<Clone> clones;  // parallel to manifest.variants
  std::once_flag clonesRead;  // when logging: every clone read (readAllClones)
  // The grid and block limits of every GPU CUDA 13 supports (compute
  // capability 7.5 on; the same since 3.0), not read from cudart: a kernel's
  // first launch asks cudart for nothing but the launch, and the queries (8
  // calls) cost more than they tell. A device with other limits would refuse
  // a clone's launch, which then runs the original.
  const DeviceLimits limits{};
  std::mutex mu;              // serializes the clones' cudart queries
  ShapeMaskCache masks;       // the launch path's cache (shapeMask)
  // With PTXOPT_LOG: the decisions with their reasons, as before.
  bool anyUsable = false;
  ShapeCache cache;
  std::atomic<bool> warnedLaunch{false};
  bool hasImages = false;  // its clones are in a clone image (a module load under lazy loading)
  std::atomic<bool> imageUsed{false};  // with hasImages: a clone of it was chosen (its image is loaded)
  std::atomic<uint64_t> savedPs{0};    // with hasImages: estimated savings of the launches that ran the original
  const ptxopt_nvcc_cudart *rt = nullptr;  // the hook block's table (for the launch APIs, NvccWrap.cpp)
  const void *hostFun = nullptr;           // its host address (a captured node's function: noteCapture)
  explicit NvccKernel(size_t variants) : clones(variants) {}
};

/// cudaKernel_t -> kernel with clones, read without a lock on every launch
/// (HandleMap.h).
using KernelMap = HandleMap<NvccKernel>;

struct Registry {
  std::shared_mutex mu;
  std::unordered_map<const void *, std::shared_ptr<NvccKernel>> byHost;
  KernelMap byHandle;  // reads take no lock; writes its own
  KernelMap byHostAddress;  // byHost for the launch APIs (NvccWrap.cpp), read without a lock
  std::unordered_map<const char *, std::shared_ptr<Manifest>> manifests;  // per translation unit's string
  std::unordered_map<const unsigned long long *, std::shared_ptr<CloneImage>> images;  // by fatbinary
  std::unordered_map<const unsigned char *, std::vector<ptxopt_nvcc_image>> blobs;    // late images, read
  std::mutex logMu;
};

// Function-local statics: registration runs from static constructors of the
// application's objects, in any order relative to this file's.
// The registry holds the handle maps' first tables: one allocation that a
// kernel's first launch reads cold (PTXOPT_HOT, HandleMap.h). Never destroyed:
// launches may come from atexit handlers.
PTXOPT_HOT Registry &registry() {
  static Registry *r = new Registry;
  return *r;
}

PTXOPT_HOT const Config &config() {
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

/// Clone `i`'s handle and, with `limit`, its thread limit, each read from
/// cudart once (a clone cudart cannot find or describe is dropped with a
/// warning). The handle (cudaGetKernel) loads nothing; the limit
/// (cudaFuncGetAttributes) loads the clone's function under lazy loading, so
/// it is read only where a launch needs it (CloneLimits). True when usable.
bool resolveClone(const ptxopt_nvcc_cudart &rt, NvccKernel &k, size_t i, bool limit = true) {
  Clone &c = k.clones[i];
  auto known = [&](int state) { return state == 1 || state == 2 || (state == 3 && !limit); };
  int state = c.state.load(std::memory_order_acquire);
  if (known(state)) return state != 2;
  std::lock_guard<std::mutex> lock(k.mu);
  state = c.state.load(std::memory_order_relaxed);
  if (known(state)) return state != 2;
  cudaError_t before = rt.peekAtLastError();
  cudaFuncAttributes fa{};
  cudaError_t e = state == 3 ? cudaSuccess : rt.getKernel(&c.handle, c.hostAddress.get());
  if (e == cudaSuccess && limit) e = rt.funcGetAttributes(&fa, c.hostAddress.get());
  if (e != cudaSuccess) {
    logLine("warning: " + k.name + ": clone " + c.name + " is not usable (" + rt.getErrorName(e) +
            "); it is never launched");
    // Our failed queries must not show up in the application's
    // cudaGetLastError; an error it had not read yet stays.
    if (before == cudaSuccess) (void)rt.getLastError();
    c.state.store(2, std::memory_order_release);
    return false;
  }
  if (!limit) {
    c.state.store(3, std::memory_order_release);
    return true;
  }
  c.maxThreads = uint32_t(fa.maxThreadsPerBlock);
  c.state.store(1, std::memory_order_release);
  return true;
}

/// A clone image registered with cudart with all its clones, once, as
/// nvcc's stub registers its own image (called at start-up, from the
/// registration of each of the image's kernels: the last one registers it;
/// an image some of whose kernels never register stays unregistered, and
/// its clones are never launched): cudart then loads it as it loads
/// nvcc's images, at start-up with CUDA_MODULE_LOADING=EAGER, on the first
/// launch of one of its clones under lazy loading.
void registerImage(const ptxopt_nvcc_cudart &rt, CloneImage &image) {
  std::lock_guard<std::mutex> lock(image.mu);
  if (image.registered || image.functions.size() < image.entries) return;
  image.registered = true;
  void **h = rt.registerFatBinary(&image.wrapper);
  for (const auto &[host, name] : image.functions)
    rt.registerFunction(h, host, const_cast<char *>(name), name, -1, nullptr, nullptr, nullptr, nullptr, nullptr);
  rt.registerFatBinaryEnd(h);
}

/// The rent-or-buy rule for a kernel's clone image under lazy loading: the
/// image's load (kImageLoadPs, a cold module load of a few clones on an
/// H100/H200, docs/NVCC.md "Delivery") is paid once the estimated savings
/// of the kernel's launches that could have run variant `v` reach it; until
/// then those launches run the original, which nvcc's build would run (at
/// most twice the best cost in hindsight, the classic bound). Savings per
/// launch: clones that walk rows or loops (staged, lanes, regacc, pack,
/// reuse) save a whole loop per thread: their first launch pays; clones
/// that coalesce a strided access (swap, split, remap) about 5 ps per thread
/// of the launch, group clones about 1 ps (from the benchmark family's
/// smallest sizes: madd_rows<u8> 1024x1024 saves 4.8 us over 1M threads,
/// the group clones of 2048x2048 stencils 4-8 us over 4M).
constexpr uint64_t kImageLoadPs = 60'000'000;  // 60 us

uint64_t savingPerThreadPs(const std::string &kind) {
  for (const char *loop : {"staged", "lanes", "regacc", "pack", "reuse"})
    if (kind.find(loop) != std::string::npos) return kImageLoadPs;  // pays at once
  for (const char *coalesce : {"swap", "split", "remap"})
    if (kind.find(coalesce) != std::string::npos) return 5;
  return 1;
}

bool imageLoadPays(NvccKernel &k, const Variant &v, const LaunchShape &s) {
  if (!config().lazyLoading || config().firstLaunchClones) return true;
  const uint64_t threads = launchThreads(s);
  const uint64_t per = savingPerThreadPs(v.kind);
  const uint64_t saved = per >= kImageLoadPs ? kImageLoadPs : std::min<uint64_t>(threads * per, kImageLoadPs);
  return k.savedPs.fetch_add(saved, std::memory_order_relaxed) + saved >= kImageLoadPs;
}

/// Whether a launch of a kernel whose clone image is not loaded yet may
/// choose a clone (and so load the image): the variant it would choose if
/// every clone were usable (read from the manifest alone), and the
/// rent-or-buy rule for it. A launch no clone could run counts nothing.
const AllocationLookup *allocationLookup();

bool imageGate(NvccKernel &k, const LaunchShape &s, void **args) {
  const uint64_t mask = shapeMask(k.manifest, s, k.limits, [](size_t) -> uint32_t { return 0xffffffffu; });
  const int v = mask ? chooseVariant(k.manifest, mask, args, allocationLookup(), &s) : -1;
  if (v < 0) return false;
  const Variant &variant = k.manifest.variants[size_t(v)];
  const bool firstWait = k.savedPs.load(std::memory_order_relaxed) == 0;
  if (imageLoadPays(k, variant, s)) {
    if (!k.imageUsed.exchange(true, std::memory_order_acq_rel) && config().log >= 1)
      logLine(k.name + ": loading the clone image (" + variant.name + "): the estimated savings pay for its load");
    return true;
  }
  if (config().log >= 2 || (config().log == 1 && firstWait))
    logLine(k.name + " grid=" + dimsText(s.grid) + " block=" + dimsText(s.block) + " -> the original: " + variant.name +
            " waits until the estimated savings pay for loading its image (" +
            std::to_string(k.savedPs.load(std::memory_order_relaxed) / 1000000) + " of " +
            std::to_string(kImageLoadPs / 1000000) + " us)");
  return false;
}

/// Whether a launch of `k` may run a clone at all, whichever way it comes
/// (<<<>>>, the launch APIs): yes, unless its clone image is not loaded yet
/// (lazy loading): then nothing of it is read (that would load it) until
/// its load pays (imageGate).
bool mayRunClone(NvccKernel &k, const LaunchShape &s, void **args) {
  return !k.hasImages || k.imageUsed.load(std::memory_order_acquire) || imageGate(k, s, args);
}

/// Whether a launch has fewer threads than every clone's minimum
/// (minLaunchThreads: the size below which the clone did not measure
/// faster): then no clone's conditions hold and the original runs, decided
/// by one comparison before anything else of the kernel is read. A small
/// program's first launches find the shim's tables and code cold (its
/// caches were filled by the program since start-up): every cache line the
/// path reads then costs a memory access, several microseconds in all on
/// an H200's host (docs/NVCC.md, "The launch path"). Not with PTXOPT_LOG
/// (the decision keeps its text).
bool tooSmallForClones(const NvccKernel &k, const LaunchShape &s) {
  return !k.logged && launchThreads(s) < k.minLaunchThreads;
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

/// A clone's thread limit for chooseLaunch (0: not usable): for a launch of
/// at most kAnyKernelThreads threads a block, nothing is read (any kernel
/// takes that many; a clone found unusable before answers 0), and the
/// handle of the clone the launch chooses is read by `confirm`; else the
/// limit is read from cudart when a shape first needs it. So a kernel's
/// first launch under lazy loading loads the clone it runs, not every clone
/// whose shape conditions hold (on an H200 each is a function load in the
/// program's run), and a launch whose per-launch conditions reject every
/// variant (kmeans' invert_mapping, rows under the floor) asks cudart
/// nothing.
struct CloneLimits {
  const ptxopt_nvcc_cudart &rt;
  NvccKernel &k;
  static uint32_t of(const void *self, size_t i, uint32_t threads) {
    auto &c = *static_cast<const CloneLimits *>(self);
    const int state = c.k.clones[i].state.load(std::memory_order_acquire);
    if (threads <= kAnyKernelThreads && state != 1) return state == 2 ? 0 : kAnyKernelThreads;
    return resolveClone(c.rt, c.k, i) ? c.k.clones[i].maxThreads : 0;
  }
  static bool confirm(const void *self, size_t i) {
    auto &c = *static_cast<const CloneLimits *>(self);
    return resolveClone(c.rt, c.k, i, false);
  }
};

/// The variant a launch of shape `s` runs (-1: the original), the one choice
/// (Select.h's chooseLaunch) of __ptxopt_nvcc_launch and of the launch APIs'
/// wrappers (nvccwrap::chooseLaunch): with the decisions' text when the
/// kernel is logged, else the shape's mask. `eligible`: the launch may run a
/// clone at all (mayRunClone).
int chooseForLaunch(const ptxopt_nvcc_cudart &rt, NvccKernel &k, const LaunchShape &s, void **args, bool eligible,
                    Selection &sel) {
  if (k.logged && eligible) std::call_once(k.clonesRead, [&] { readAllClones(rt, k); });
  static const ChoiceText text{config().log, 5, logLine};  // the shim's settings are the process's
  const CloneLimits limits{rt, k};
  return ptxopt::rt::chooseLaunch(k.manifest, s, k.limits, MaxThreadsOf{CloneLimits::of, &limits, CloneLimits::confirm}, args,
                                  allocationLookup(), eligible && (!k.logged || k.anyUsable), k.masks, k.cache,
                                  k.logged ? &text : nullptr, sel);
}

/// The handle map made (at the first registry() call) and one of its
/// lookups run, at start-up: every launch asks it.
void warmHandleMap() {
  static char notAKernel;
  (void)registry().byHandle.find(&notAKernel);
}

/// Runs the launch path once, at registration (start-up, outside any timed
/// region), for a launch no clone can take (a grid of 0 blocks: no variant's
/// conditions hold, so cudart is not asked): the same calls a real launch
/// makes (the handle map, mayRunClone, chooseForLaunch and its shape cache),
/// so that the kernel's first real launch finds the shim's code paged in and
/// its library calls bound. On an H200 a small program's first launch through
/// the shim spent 4 us (7 us with PTXOPT_DISABLE=1) more between cudart's
/// kernel lookup and its launch than nvcc's build when only part of that
/// path had run before (module_trace, MODULE_TRACE_ALL=1; docs/NVCC.md).
void warmLaunchPath(const ptxopt_nvcc_cudart &rt, NvccKernel &k) {
  const LaunchShape none{{0, 0, 0}, {0, 0, 0}, 0};
  warmHandleMap();
  void *args[1] = {nullptr};
  Selection sel;
  const bool eligible = mayRunClone(k, none, args);
  if (!k.logged) (void)chooseForLaunch(rt, k, none, args, eligible, sel);  // logged: text, cudart reads
  (void)allocationLookup();
}

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

// The launch APIs' side (NvccWrap.h): the same choice as __ptxopt_nvcc_launch
// with one more condition, the launch's cluster dimension.
namespace ptxopt::rt::nvccwrap {
namespace {

bool noCluster(const Dims &c) { return c[0] <= 1 && c[1] <= 1 && c[2] <= 1; }

bool clusterDivides(const Dims &grid, const Dims &cluster) {
  for (int d = 0; d < 3; ++d)
    if (cluster[d] > 1 && grid[d] % cluster[d] != 0) return false;
  return true;
}

/// chooseLaunch's text form for a launch with a cluster dimension: decided on every
/// launch (not cached: the cluster is not part of the shape), logged with
/// PTXOPT_LOG=1 each time.
int selectLoggedCluster(NvccKernel &k, const LaunchShape &s, void **args, bool eligible, const Dims &cluster,
                        Selection &sel) {
  if (eligible && k.anyUsable) {
    std::vector<uint32_t> maxThreads(k.clones.size());  // every clone was read (readAllClones)
    for (size_t i = 0; i < k.clones.size(); ++i)
      if (k.clones[i].state.load(std::memory_order_acquire) == 1) maxThreads[i] = k.clones[i].maxThreads;
    ShapeDecision d = decideShape(k.manifest, s, k.limits, maxThreads);
    for (size_t i = 0; i < k.clones.size(); ++i) {
      if (k.clones[i].state.load(std::memory_order_relaxed) != 1) d.reasons[i] = "the clone is not usable";
      else if (d.reasons[i].empty() && !clusterDivides(transformLaunch(k.manifest.variants[i], s).grid, cluster))
        d.reasons[i] = "the cluster dimension " + dimsText(cluster) + " does not divide the transformed grid";
    }
    sel = finishSelection(k.manifest, d, s, args, allocationLookup());
  } else {
    sel.launch = s;
  }
  if (config().log >= 1) logLine(describeSelection(k.manifest, s, sel) + " cluster=" + dimsText(cluster));
  return sel.variant;
}

/// chooseLaunch's mask form with the cluster condition, uncached.
int selectFastCluster(const ptxopt_nvcc_cudart &rt, NvccKernel &k, const LaunchShape &s, void **args,
                      const Dims &cluster) {
  uint64_t mask = 0;
  for (size_t i = 0; i < k.manifest.variants.size() && i < kMaskVariants; ++i) {
    const Variant &v = k.manifest.variants[i];
    if (!shapeHolds(v, s, k.limits, 0xffffffffu)) continue;
    const LaunchShape t = transformLaunch(v, s);
    if (!clusterDivides(t.grid, cluster)) continue;
    if (!resolveClone(rt, k, i) || blockThreads(t) > k.clones[i].maxThreads) continue;
    mask |= uint64_t(1) << i;
    if (!perLaunchConditions(v)) break;
  }
  return mask ? chooseVariant(k.manifest, mask, args, allocationLookup(), &s) : -1;
}

}  // namespace

void *findKernel(const void *func) {
  Registry &r = registry();
  NvccKernel *k = r.byHostAddress.find(func);
  return k ? k : r.byHandle.find(func);
}

bool chooseLaunch(void *kernel, const LaunchShape &s, void **args, const Dims &cluster, WrapLaunch &out) {
  NvccKernel &k = *static_cast<NvccKernel *>(kernel);
  if (tooSmallForClones(k, s)) return false;
  const ptxopt_nvcc_cudart &rt = *k.rt;
  const bool eligible = mayRunClone(k, s, args);  // as __ptxopt_nvcc_launch
  int variant = -1;
  Selection sel;
  if (noCluster(cluster)) {
    variant = chooseForLaunch(rt, k, s, args, eligible, sel);
  } else if (k.logged) {
    if (eligible) std::call_once(k.clonesRead, [&] { readAllClones(rt, k); });
    variant = selectLoggedCluster(k, s, args, eligible, cluster, sel);
  } else if (eligible) {
    variant = selectFastCluster(rt, k, s, args, cluster);
  }
  if (variant < 0) return false;
  const Variant &v = k.manifest.variants[size_t(variant)];
  out.variant = variant;
  out.func = k.clones[size_t(variant)].hostAddress.get();
  out.shape = transformLaunch(v, s);
  out.args = variantArgs(k.manifest, v, s, args, out.buf, allocationLookup());
  out.before = rt.peekAtLastError();
  return true;
}

/// Under lazy loading, every registered kernel's clone images loaded now,
/// once, by reading each clone's attributes (cudaFuncGetAttributes loads
/// the function and its module); called by the wrappers of cudart's
/// allocation calls (NvccWrap.cpp) after the program's first one: its
/// context exists, and programs allocate before their timed run. A kernel's
/// launches then choose as under EAGER (the rent-or-buy rule is for images
/// not loaded yet). Costs the process a module load per kernel with clones
/// and a function load per clone (tens of microseconds each on an H200),
/// outside the run: nvcc's build under EAGER pays the same at start-up.
void preloadImages() {
  static std::atomic<bool> done{false};
  if (done.load(std::memory_order_acquire) || done.exchange(true)) return;
  if (!config().lazyLoading || !config().preloadImages || config().disable) return;
  Registry &r = registry();
  std::vector<NvccKernel *> kernels;
  {
    std::shared_lock lock(r.mu);
    for (auto &[host, k] : r.byHost)
      if (k->hasImages && !k->imageUsed.load(std::memory_order_acquire)) kernels.push_back(k.get());
  }
  size_t loaded = 0;
  for (NvccKernel *k : kernels) {
    bool any = false;
    for (size_t i = 0; i < k->clones.size(); ++i)
      if (k->clones[i].image && resolveClone(*k->rt, *k, i)) any = true;
    if (!any) continue;
    k->imageUsed.store(true, std::memory_order_release);
    ++loaded;
  }
  if (config().log >= 1 && !kernels.empty())
    logLine("loaded the clone images of " + std::to_string(loaded) + " kernel(s) after the program's first allocation");
}

void noteHandle(const void *hostFun, cudaKernel_t handle) {
  Registry &r = registry();
  NvccKernel *k = handle ? r.byHostAddress.find(hostFun) : nullptr;
  if (k && r.byHandle.find(handle) != k) r.byHandle.insert(handle, k);
}

void launched(void *kernel, const WrapLaunch &l, cudaError_t e) {
  NvccKernel &k = *static_cast<NvccKernel *>(kernel);
  const Clone &c = k.clones[size_t(l.variant)];
  if (e == cudaSuccess) {
    lastVariantName = c.name.c_str();
    lastVariantKind = k.manifest.variants[size_t(l.variant)].kind.c_str();
    return;
  }
  if (l.before == cudaSuccess) (void)k.rt->getLastError();
  // A cooperative launch whose clone's blocks do not all fit at once: the
  // original's launch was sized to fit; it runs, no warning.
  if (e == cudaErrorCooperativeLaunchTooLarge) return;
  if (!k.warnedLaunch.exchange(true))
    logLine("warning: launching " + c.name + " grid=" + dimsText(l.shape.grid) + " block=" + dimsText(l.shape.block) +
            " failed (" + k.rt->getErrorName(e) + "); running the original " + k.name);
}

void ranOriginal(void *kernel) {
  NvccKernel &k = *static_cast<NvccKernel *>(kernel);
  lastVariantName = k.name.c_str();
  lastVariantKind = "original";
}

}  // namespace ptxopt::rt::nvccwrap

extern "C" {

void __ptxopt_nvcc_register(const ptxopt_nvcc_cudart *rt, const char *manifestJson, void **fatCubinHandle,
                            const char *hostFun, const char *deviceName) {
  if (config().disable) {
    // Every launch still asks the (empty) handle map: made and paged in
    // now, not at the first launch (warmLaunchPath).
    warmHandleMap();
    return;
  }
  if (!rt || rt->version < 1 || !manifestJson || !deviceName) return;
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
  k->minLaunchThreads = UINT64_MAX;
  for (const Variant &v : km->variants) k->minLaunchThreads = std::min<uint64_t>(k->minLaunchThreads, v.minLaunchThreads);
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
          for (size_t e = 0; e < imageCount; ++e) image->entries += images[e].name && images[e].fatbin == images[j].fatbin;
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
  // the kernel's clone images, now that they hold all its clones
  for (const Clone &c : k->clones)
    if (c.image) registerImage(*rt, *c.image);
  if (config().log >= 1) {
    std::string names;
    for (const Variant &v : km->variants) names += (names.empty() ? "" : ", ") + v.name + " (" + v.kind + ")";
    lock.unlock();
    logLine(k->name + ": " + std::to_string(km->variants.size()) + " clone(s): " + names);
    lock.lock();
  }
  // Images cudart loads at start-up (EAGER), or that any launch may load
  // (PTXOPT_FIRST_LAUNCH_CLONES): no rent-or-buy rule, so no launch pays
  // for the gate's uncached check (launch-bound programs felt it).
  if (k->hasImages && (!config().lazyLoading || config().firstLaunchClones)) k->imageUsed = true;
  k->rt = rt;
  k->hostFun = hostFun;
  r.byHostAddress.insert(hostFun, k.get());
  warmLaunchPath(*rt, *k);
  r.byHost[hostFun] = std::move(k);
}

PTXOPT_HOT cudaError_t __ptxopt_nvcc_get_kernel(const ptxopt_nvcc_cudart *rt, cudaKernel_t *kernel,
                                                const void *hostFun) {
  cudaError_t e = rt->getKernel(kernel, hostFun);
  if (e != cudaSuccess || !kernel) return e;
  // The registry's maps read without a lock; the handle map takes its own
  // to add the handle (once per kernel with clones).
  Registry &r = registry();
  NvccKernel *k = r.byHostAddress.find(hostFun);
  if (k && r.byHandle.find(*kernel) != k) r.byHandle.insert(*kernel, k);
  return e;
}


PTXOPT_HOT cudaError_t __ptxopt_nvcc_launch(const ptxopt_nvcc_cudart *rt, cudaKernel_t kernel, dim3 grid, dim3 block,
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
  Selection sel;
  const int variant = tooSmallForClones(*k, s)
                          ? -1
                          : chooseForLaunch(*rt, *k, s, args, sharedMem <= 0xffffffffu && mayRunClone(*k, s, args), sel);
  if (variant >= 0) {
    const Clone &c = k->clones[size_t(variant)];
    const Variant &v = k->manifest.variants[size_t(variant)];
    const LaunchShape &t = sel.launch;
    VariantArgs buf;
    void **cloneArgs = variantArgs(k->manifest, v, s, args, buf, allocationLookup());
    cudaError_t before = rt->peekAtLastError();
    cudaError_t e = launch(c.handle, dim3(t.grid[0], t.grid[1], t.grid[2]), dim3(t.block[0], t.block[1], t.block[2]),
                           cloneArgs, sharedMem, stream);
    if (e == cudaSuccess) {
      lastVariantName = c.name.c_str();
      lastVariantKind = v.kind.c_str();
      nvccwrap::noteCapture(perThreadStream && !stream ? cudaStreamPerThread : stream, k->hostFun, grid, block);
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
