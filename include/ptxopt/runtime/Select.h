// Launch selection: which variant of a kernel a launch runs, and with which
// grid and block (docs/RUNTIME.md, "Selection rules"). Pure logic on the
// manifest, the launch and the device limits: no driver, so the unit tests
// (tests/unit/test_runtime_select.cpp) call it with made-up limits.
//
// A launch runs the first variant, in manifest order, whose conditions all
// hold, and the original when none does. The conditions that depend only on
// the launch shape (grid, block, dynamic shared memory) are decided once per
// shape and cached (ShapeCache); pointer alignment is checked on every launch.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <shared_mutex>
#include <string>
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

/// The arguments of a launch of variant `v` for the original launch `s`:
/// `params` itself, or, for a variant with extra arguments (v.extraArgs),
/// the original's k.paramSizes.size() argument pointers followed by one per
/// extra .u32 value, all held in `buf` (which must outlive the launch call).
struct ExtraParams {
  std::vector<void *> pointers;
  std::vector<uint32_t> values;
};
void **variantParams(const KernelManifest &k, const Variant &v, const LaunchShape &s, void **params,
                     ExtraParams &buf);

/// The first shape condition of `v` that fails for launch `s`, or "" when
/// all hold. `variantMaxThreads` is the clone's
/// CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK.
std::string checkShape(const Variant &v, const LaunchShape &s, const DeviceLimits &dev, uint32_t variantMaxThreads);

/// The first aligned parameter of `v` whose pointer value is misaligned, or
/// "". `params[i]` points to argument i's value (cuLaunchKernel style);
/// `paramSizes` gives each argument's size in bytes.
std::string checkAlignment(const Variant &v, const std::vector<uint32_t> &paramSizes, void *const *params);

/// The allocation holding device address `ptr`: its base and size in bytes
/// (cuMemGetAddressRange); false when the address is in no allocation the
/// driver knows.
using AllocationLookup = std::function<bool(uint64_t ptr, uint64_t &base, uint64_t &size)>;

/// The first pair of `v.disjointParams` whose argument values do not lie in
/// two different known allocations, or "". Without `lookup` (null) every
/// such condition fails.
std::string checkDisjoint(const Variant &v, const std::vector<uint32_t> &paramSizes, void *const *params,
                          const AllocationLookup *lookup);

/// The first `v.minParams` entry whose argument (a signed 4- or 8-byte
/// integer) is below its minimum, or "".
std::string checkMinParams(const Variant &v, const std::vector<uint32_t> &paramSizes, void *const *params);

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

}  // namespace ptxopt::rt
