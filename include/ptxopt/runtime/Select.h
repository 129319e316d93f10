// Launch selection: which variant of a kernel a launch runs, and with which
// grid and block (docs/RUNTIME.md, "Selection rules"). Pure logic on the
// manifest, the launch and the device limits: no driver, so the unit tests
// (tests/unit/test_runtime_select.cpp) call it with made-up limits.
//
// A launch runs the first variant, in manifest order, whose conditions all
// hold, and the original when none does. The conditions that depend only on
// the launch shape (grid, block, dynamic shared memory) are decided once per
// shape and cached; pointer alignment is checked on every launch.
//
// Two forms of the same decision: with text (decideShape/finishSelection,
// ShapeCache: every reason, for PTXOPT_LOG and autotuning) and without
// (shapeMask/chooseVariant, ShapeMaskCache: integers only, a lock-free
// lookup; the launch path when nothing is logged). Both call the same checks,
// so they choose the same variant (tests/unit/test_runtime_select.cpp).
#pragma once

#include <algorithm>

#include <array>
#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <shared_mutex>
#include <string>
#include <type_traits>
#include <unordered_map>
#include <vector>

#include "ptxopt/Manifest.h"
#include "ptxopt/runtime/Autotune.h"

namespace ptxopt::rt {

using Dims = std::array<uint32_t, 3>;

struct LaunchShape {
  Dims grid{1, 1, 1};
  Dims block{1, 1, 1};
  uint32_t sharedBytes = 0;  // dynamic shared memory
  bool operator==(const LaunchShape &) const = default;
};

struct LaunchShapeHash {
  size_t operator()(const LaunchShape &s) const;
};

/// The device's limits (cuDeviceGetAttribute); defaults are those of every
/// GPU since compute capability 3.0.
struct DeviceLimits {
  Dims maxBlock{1024, 1024, 64};
  Dims maxGrid{2147483647u, 65535, 65535};
  uint32_t maxThreadsPerBlock = 1024;
};

/// "grid=(512,1,1) block=(512,1,1) shared=0".
std::string shapeText(const LaunchShape &s);

/// The launch of variant `v` for the original launch `s`:
/// new.grid[d] = s.(grid|block)[src.dim] / src.divide (rounded up for a
/// ceil() source), likewise block.
LaunchShape transformLaunch(const Variant &v, const LaunchShape &s);

/// The allocation holding device address `ptr`: its base and size in bytes
/// (cuMemGetAddressRange); false when the address is in no allocation the
/// driver knows.
using AllocationLookup = std::function<bool(uint64_t ptr, uint64_t &base, uint64_t &size)>;

/// The arguments of a launch of variant `v` for the original launch `s`:
/// `params` itself, or, for a variant with extra arguments (v.extraArgs,
/// v.allocEnds), the original's k.paramSizes.size() argument pointers
/// followed by one per extra .u32 value, then one per allocation end (.u64,
/// from `lookup`; 0 where it finds none), all held in `buf` (which must
/// outlive the launch call).
struct ExtraParams {
  std::vector<void *> pointers;
  std::vector<uint32_t> values;
  std::vector<uint64_t> ends;
};
void **variantParams(const KernelManifest &k, const Variant &v, const LaunchShape &s, void **params,
                     ExtraParams &buf, const AllocationLookup *lookup = nullptr);
/// The same without the heap, for the launch path: `pointers` has room for
/// kInlineParams, `values` for kInlineExtra, `ends` for kInlineEnds; nullptr
/// when they are too small.
constexpr size_t kInlineParams = 64, kInlineExtra = 8, kInlineEnds = 4;
void **variantParamsInline(const KernelManifest &k, const Variant &v, const LaunchShape &s, void **params,
                           void **pointers, uint32_t *values, uint64_t *ends,
                           const AllocationLookup *lookup = nullptr);
/// Room for a clone launch's arguments on the caller's stack (variantArgs).
struct VariantArgs {
  void *pointers[kInlineParams];
  uint32_t values[kInlineExtra];
  uint64_t ends[kInlineEnds];
  ExtraParams extra;  // only past kInlineParams / kInlineExtra / kInlineEnds
};
/// The launch path's form, shared by ptxopt_launch and the ptx-nvcc shim:
/// variantParamsInline into `buf`, else variantParams into `buf.extra`.
/// The result lives as long as `buf`.
void **variantArgs(const KernelManifest &k, const Variant &v, const LaunchShape &s, void **params, VariantArgs &buf,
                   const AllocationLookup *lookup = nullptr);

/// Threads per block of `s`.
inline uint64_t blockThreads(const LaunchShape &s) { return uint64_t(s.block[0]) * s.block[1] * s.block[2]; }
/// The launch's threads, grid x block over all six dimensions, counted up to
/// 2^40 (past any 32-bit bound) so that the product cannot wrap around.
inline uint64_t launchThreads(const LaunchShape &s) {
  uint64_t threads = 1;
  for (uint32_t x : {s.grid[0], s.grid[1], s.grid[2], s.block[0], s.block[1], s.block[2]})
    threads = std::min<uint64_t>(threads * x, uint64_t(1) << 40);
  return threads;
}

/// The first shape condition of `v` that fails for launch `s`, or "" when
/// all hold. `variantMaxThreads` is the clone's
/// CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK.
std::string checkShape(const Variant &v, const LaunchShape &s, const DeviceLimits &dev, uint32_t variantMaxThreads);
/// checkShape(...).empty(), building no text.
bool shapeHolds(const Variant &v, const LaunchShape &s, const DeviceLimits &dev, uint32_t variantMaxThreads);

/// The first aligned parameter of `v` whose pointer value is misaligned, or
/// "". `params[i]` points to argument i's value (cuLaunchKernel style);
/// `paramSizes` gives each argument's size in bytes.
std::string checkAlignment(const Variant &v, const std::vector<uint32_t> &paramSizes, void *const *params);
/// checkAlignment(...).empty(), building no text.
bool alignmentHolds(const Variant &v, const std::vector<uint32_t> &paramSizes, void *const *params);

/// The first pair of `v.disjointParams` whose argument values do not lie in
/// two different known allocations, or "". Without `lookup` (null) every
/// such condition fails.
std::string checkDisjoint(const Variant &v, const std::vector<uint32_t> &paramSizes, void *const *params,
                          const AllocationLookup *lookup);
/// checkDisjoint(...).empty(), building no text.
bool disjointHolds(const Variant &v, const std::vector<uint32_t> &paramSizes, void *const *params,
                   const AllocationLookup *lookup);

/// The first `v.minParams` entry whose argument (a signed 4- or 8-byte
/// integer) is below its minimum, or "".
std::string checkMinParams(const Variant &v, const std::vector<uint32_t> &paramSizes, void *const *params);
/// checkMinParams(...).empty(), building no text.
bool minParamsHold(const Variant &v, const std::vector<uint32_t> &paramSizes, void *const *params);
/// The first `v.threadsPerParam` entry the launch's `threads` fall short
/// of, or "" (0 threads: the launch is not known, every entry fails).
std::string checkThreadsPerParam(const Variant &v, const std::vector<uint32_t> &paramSizes, void *const *params,
                                 uint64_t threads);
/// The first `v.gridStrideOnce` entry launch `s` fails (its threads along
/// the dimension fewer than the product of the arguments, or 2^30 or more;
/// an argument negative or unreadable; with `several`, the product under
/// `minBound`, under a `perParam` multiple, or 2^30 or more), or "".
std::string checkGridStrideOnce(const Variant &v, const std::vector<uint32_t> &paramSizes, void *const *params,
                                const LaunchShape &s);

/// The shape-dependent part of a decision: per variant, the first failed
/// shape condition ("" when the shape conditions hold).
struct ShapeDecision {
  std::vector<std::string> reasons;
};

ShapeDecision decideShape(const KernelManifest &k, const LaunchShape &s, const DeviceLimits &dev,
                          const std::vector<uint32_t> &variantMaxThreads);

struct Selection {
  int variant = -1;    // index into KernelManifest::variants; -1 = the original
  LaunchShape launch;  // the launch to make (transformed for a variant)
  /// For each variant rejected before the choice: "<name>: <reason>".
  std::vector<std::string> rejected;
};

/// Completes a cached shape decision with this launch's arguments.
Selection finishSelection(const KernelManifest &k, const ShapeDecision &d, const LaunchShape &s,
                          void *const *params, const AllocationLookup *lookup = nullptr);

/// decideShape + finishSelection in one call (no cache).
Selection selectVariant(const KernelManifest &k, const LaunchShape &s, const DeviceLimits &dev,
                        const std::vector<uint32_t> &variantMaxThreads, void *const *params,
                        const AllocationLookup *lookup = nullptr);

/// The text-free decision: the most variants it handles (one bit each).
constexpr size_t kMaskVariants = 64;

/// Threads per block every kernel can be launched with on the GPUs CUDA 13
/// supports (compute capability 7.5 on): 255 registers a thread, allocated
/// 256 a warp, leave 8 warps of the 64K registers a block may have. A launch
/// this small needs no read of a clone's attributes (cudaFuncGetAttributes
/// loads the function under lazy loading); a clone that still refuses it
/// (a .maxntid below it) is refused at launch, and the original runs.
constexpr uint32_t kAnyKernelThreads = 256;

/// Whether variant `v` has conditions checked on every launch (aligned
/// pointer parameters, extra arguments that need the argument array).
inline bool perLaunchConditions(const Variant &v) {
  return !v.alignedParams.empty() || !v.extraArgs.empty() || !v.allocEnds.empty() || !v.disjointParams.empty() ||
         !v.minParams.empty() ||
         !v.threadsPerParam.empty() || !v.gridStrideOnce.empty();
}

/// The shape-dependent part of the decision as a bit mask: bit i is set when
/// variant i's shape conditions hold (decideShape's reason i is ""). Variants
/// after the first one that holds and has no per-launch condition are not
/// examined (no launch of this shape can run them): their bits are 0.
/// `maxThreadsOf(i)` gives variant i's thread limit (0: the clone is not
/// usable) and is called only for variants whose other shape conditions
/// hold, so a caller may read a clone's attributes only when a shape can use
/// the clone. A `maxThreadsOf(i, threads)` is also given the transformed
/// block's threads: it may answer any limit of at least `threads` without
/// reading the clone (kAnyKernelThreads: every kernel takes that many).
/// For kernels of at most kMaskVariants variants.
template <class MaxThreadsOf>
uint64_t shapeMask(const KernelManifest &k, const LaunchShape &s, const DeviceLimits &dev,
                   MaxThreadsOf &&maxThreadsOf) {
  uint64_t mask = 0;
  for (size_t i = 0; i < k.variants.size() && i < kMaskVariants; ++i) {
    const Variant &v = k.variants[i];
    // Every condition but the clone's own thread limit (one the device
    // limit already bounds); that one only where the rest hold.
    if (!shapeHolds(v, s, dev, 0xffffffffu)) continue;
    const uint32_t threads = blockThreads(transformLaunch(v, s));
    uint32_t limit;
    if constexpr (std::is_invocable_v<MaxThreadsOf, size_t, uint32_t>)
      limit = maxThreadsOf(i, threads);
    else
      limit = maxThreadsOf(i);
    if (threads > limit) continue;
    mask |= uint64_t(1) << i;
    if (!perLaunchConditions(v)) break;
  }
  return mask;
}

/// finishSelection's choice without the text: the first variant in `mask`
/// whose per-launch conditions hold for `params` and launch `shape` (null:
/// not known; threadsPerParam and gridStrideOnce conditions then fail); -1
/// for the original.
int chooseVariant(const KernelManifest &k, uint64_t mask, void *const *params,
                  const AllocationLookup *lookup = nullptr, const LaunchShape *shape = nullptr);

/// One log line: "<kernel> grid=(..) block=(..) shared=N -> <variant> (<kind>)
/// grid=(..) block=(..); rejected: <name>: <reason>; ...".
std::string describeSelection(const KernelManifest &k, const LaunchShape &s, const Selection &sel);

/// What the runtime keeps per launch shape of a kernel.
struct ShapeEntry {
  explicit ShapeEntry(ShapeDecision d, uint32_t autotuneSamples = 5) : decision(std::move(d)), tuner(autotuneSamples) {}
  ShapeDecision decision;
  Autotuner tuner;
};

/// Thread-safe map from launch shape to ShapeEntry. When it holds
/// `capacity` shapes, the next new shape clears it (shapes are cheap to
/// decide again; autotuning of the dropped shapes starts over).
class ShapeCache {
public:
  explicit ShapeCache(size_t capacity = 4096) : capacity_(capacity ? capacity : 1) {}

  /// The entry for `s`; on a miss `make()` builds it (a
  /// std::shared_ptr<ShapeEntry>) and `*inserted` is set.
  template <class Make>
  std::shared_ptr<ShapeEntry> get(const LaunchShape &s, Make &&make, bool *inserted = nullptr) {
    if (inserted) *inserted = false;
    {
      std::shared_lock lock(mu_);
      auto it = map_.find(s);
      if (it != map_.end()) {
        hits_.fetch_add(1, std::memory_order_relaxed);
        return it->second;
      }
    }
    std::unique_lock lock(mu_);
    auto it = map_.find(s);  // another thread may have added it meanwhile
    if (it != map_.end()) {
      hits_.fetch_add(1, std::memory_order_relaxed);
      return it->second;
    }
    if (map_.size() >= capacity_) map_.clear();
    misses_.fetch_add(1, std::memory_order_relaxed);
    if (inserted) *inserted = true;
    return map_.emplace(s, make()).first->second;
  }

  size_t size() const;
  uint64_t hits() const { return hits_.load(std::memory_order_relaxed); }
  uint64_t misses() const { return misses_.load(std::memory_order_relaxed); }

private:
  mutable std::shared_mutex mu_;
  size_t capacity_;
  std::unordered_map<LaunchShape, std::shared_ptr<ShapeEntry>, LaunchShapeHash> map_;
  std::atomic<uint64_t> hits_{0}, misses_{0};
};

/// The launch path's cache: launch shape -> shapeMask, a fixed table of
/// kSlots entries (direct-mapped by LaunchShapeHash), read without a lock:
/// each slot has a sequence number, odd while a writer fills it; a reader
/// that sees it change, or another shape in the slot, has a miss. A shape
/// stored in a taken slot replaces the one there (misses are cheap: a few
/// integer checks per variant), so the table never grows or clears. Safe
/// from any number of threads; a writer that finds the slot busy skips it.
class ShapeMaskCache {
public:
  static constexpr size_t kSlots = 256;
  /// The mask stored for `s`, if any.
  bool find(const LaunchShape &s, uint64_t &mask) const;
  void store(const LaunchShape &s, uint64_t mask);

private:
  struct Slot {
    std::atomic<uint32_t> seq{0};  // 0: empty; odd: being written
    std::atomic<uint32_t> key[7] = {};
    std::atomic<uint64_t> mask{0};
  };
  static size_t slotOf(const LaunchShape &s);
  Slot slots_[kSlots];
};

/// A variant's thread limit for chooseLaunch (0: the clone is not usable),
/// asked only where a launch shape can use the variant: a function and its
/// context, so that the launch path allocates nothing.
struct MaxThreadsOf {
  uint32_t (*fn)(const void *ctx, size_t variant, uint32_t threads);
  const void *ctx;
  /// Whether the variant chooseVariant picked can be launched (nullptr:
  /// always): a caller whose `fn` answered for a clone it had not read yet
  /// (a small block: any kernel takes it) reads it here, once a launch
  /// chooses it, and not for every variant whose shape conditions hold (a
  /// launch those variants' per-launch conditions reject would read them
  /// all for nothing; each read is a cudart call).
  bool (*confirm)(const void *ctx, size_t variant) = nullptr;
  /// `threads`: the transformed block's (shapeMask); the default asks for
  /// the clone's own limit.
  uint32_t operator()(size_t i, uint32_t threads = 0xffffffffu) const { return fn(ctx, i, threads); }
};

/// The choice with its text: PTXOPT_LOG, autotuning, or more variants than
/// the mask form takes.
struct ChoiceText {
  int log = 0;                    // 1: a line per new shape, 2: a line per launch
  uint32_t autotuneSamples = 5;   // of a new shape's entry
  void (*logLine)(const std::string &) = nullptr;
};

/// The variant a launch of shape `s` runs (-1: the original), the one choice
/// of ptxopt_launch (Launch.cpp) and the ptx-nvcc shim (NvccShim.cpp);
/// `sel.launch` is the launch to make. `eligible` false: the original, no
/// decision. Without `text`: the shape's bit mask from `masks` (shapeMask
/// on a miss), then the per-launch conditions (chooseVariant); no text is
/// built. With `text`: the shape's decision from `cache` (decideShape on a
/// miss; a variant whose thread limit is 0 is rejected as "the clone is not
/// usable"), completed by finishSelection, the line logged as text->log
/// says; `entry` (when given) gets the shape's entry, for autotuning.
/// The text-free form is inline: it is every launch's path (a few
/// nanoseconds less than a call, runtime/NvccShim.cpp's hook cost).
int chooseLaunchWithText(const KernelManifest &k, const LaunchShape &s, const DeviceLimits &dev,
                         MaxThreadsOf maxThreadsOf, void *const *params, const AllocationLookup *lookup,
                         bool eligible, ShapeCache &cache, const ChoiceText &text, Selection &sel,
                         std::shared_ptr<ShapeEntry> *entry);
inline int chooseLaunch(const KernelManifest &k, const LaunchShape &s, const DeviceLimits &dev,
                        MaxThreadsOf maxThreadsOf, void *const *params, const AllocationLookup *lookup, bool eligible,
                        ShapeMaskCache &masks, ShapeCache &cache, const ChoiceText *text, Selection &sel,
                        std::shared_ptr<ShapeEntry> *entry = nullptr) {
  if (text) return chooseLaunchWithText(k, s, dev, maxThreadsOf, params, lookup, eligible, cache, *text, sel, entry);
  sel.launch = s;
  if (!eligible) return sel.variant = -1;
  uint64_t mask;
  if (!masks.find(s, mask)) {
    mask = shapeMask(k, s, dev, maxThreadsOf);
    masks.store(s, mask);
  }
  sel.variant = mask ? chooseVariant(k, mask, params, lookup, &s) : -1;
  // A chosen clone that cannot be launched is dropped for good (confirm
  // fails once per clone): the shape's mask again, without it.
  while (sel.variant >= 0 && maxThreadsOf.confirm && !maxThreadsOf.confirm(maxThreadsOf.ctx, size_t(sel.variant))) {
    mask = shapeMask(k, s, dev, maxThreadsOf);
    masks.store(s, mask);
    sel.variant = mask ? chooseVariant(k, mask, params, lookup, &s) : -1;
  }
  if (sel.variant >= 0) sel.launch = transformLaunch(k.variants[size_t(sel.variant)], s);
  return sel.variant;
}

}  // namespace ptxopt::rt
