// Launch selection (include/ptxopt/runtime/Select.h): the conditions of each
// variant checked against a launch, with a readable reason for the first one
// that fails. No driver calls here.
#include "ptxopt/runtime/Select.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <cstring>

namespace ptxopt::rt {

namespace {

constexpr char kDim[] = "xyz";

std::string dimsText(const Dims &d) {
  std::string t = "(";  // built with += : GCC 12 warns falsely (-Wrestrict) on "(" + std::string
  t += std::to_string(d[0]);
  t += ",";
  t += std::to_string(d[1]);
  t += ",";
  t += std::to_string(d[2]);
  return t + ")";
}

/// "block.x=48".
std::string valueText(const char *what, int d, uint32_t v) {
  return std::string(what) + "." + kDim[d] + "=" + std::to_string(v);
}

std::string notMultiple(const char *what, int d, uint32_t v, uint32_t m) {
  return valueText(what, d, v) + " is not a multiple of " + std::to_string(m);
}

uint32_t sourceValue(const DimSource &src, const LaunchShape &s) {
  if (src.from == DimSource::From::Const) return src.value;
  const Dims &from = src.from == DimSource::From::Grid ? s.grid : s.block;
  return src.dim < 3 ? from[src.dim] : 0;
}

/// Reports a failed condition: its text into `*why` when asked (the launch
/// path asks for none, so it builds no strings). Always true ("failed").
template <class Text>
bool failed(std::string *why, Text &&text) {
  if (why) *why = text();
  return true;
}

/// The launch's own multiples and minimums (grid/blockMultiple, blockMin).
bool originalDimsFail(const Variant &v, const LaunchShape &s, std::string *why) {
  for (int d = 0; d < 3; ++d)
    if (s.grid[d] % v.gridMultiple[d] != 0)
      return failed(why, [&] { return notMultiple("grid", d, s.grid[d], v.gridMultiple[d]); });
  for (int d = 0; d < 3; ++d)
    if (s.block[d] % v.blockMultiple[d] != 0)
      return failed(why, [&] { return notMultiple("block", d, s.block[d], v.blockMultiple[d]); });
  for (int d = 0; d < 3; ++d)
    if (s.block[d] < v.blockMin[d])
      return failed(why, [&] {
        return valueText("block", d, s.block[d]) + " is below the minimum " + std::to_string(v.blockMin[d]);
      });
  for (int d = 0; d < 3; ++d)
    if (v.gridMin[d] && s.grid[d] < v.gridMin[d])
      return failed(why, [&] {
        return valueText("grid", d, s.grid[d]) + " is below the minimum " + std::to_string(v.gridMin[d]);
      });
  for (int d = 0; d < 3; ++d)
    if (v.gridMax[d] && s.grid[d] > v.gridMax[d])
      return failed(why, [&] {
        return valueText("grid", d, s.grid[d]) + " is above the maximum " + std::to_string(v.gridMax[d]);
      });
  for (int d = 0; d < 3; ++d)
    if (v.blockMax[d] && s.block[d] > v.blockMax[d])
      return failed(why, [&] {
        return valueText("block", d, s.block[d]) + " is above the maximum " + std::to_string(v.blockMax[d]);
      });
  if (v.maxLaunchThreads || v.minLaunchThreads) {
    const uint64_t threads = launchThreads(s);
    if (v.maxLaunchThreads && threads > v.maxLaunchThreads)
      return failed(why, [&] {
        return "the launch has more than " + std::to_string(v.maxLaunchThreads) + " threads (the clone's maximum)";
      });
    if (threads < v.minLaunchThreads)
      return failed(why, [&] {
        return "the launch has " + std::to_string(threads) + " threads, fewer than the clone's minimum " +
               std::to_string(v.minLaunchThreads);
      });
  }
  return false;
}

/// Each divided source value must divide exactly (else the clone would
/// cover fewer threads than the original launch).
bool divisionsFail(const Variant &v, const LaunchShape &s, std::string *why) {
  for (const auto *dims : {&v.grid, &v.block})
    for (const DimSource &src : *dims) {
      if (src.from == DimSource::From::Const) continue;
      if (src.dim > 2)
        return failed(why, [&] { return "the manifest names dimension " + std::to_string(src.dim); });
      uint32_t value = sourceValue(src, s);
      if (src.divide == 0 || (value % src.divide != 0 && !src.roundUp))
        return failed(why, [&] {
          return notMultiple(src.from == DimSource::From::Grid ? "grid" : "block", src.dim, value, src.divide);
        });
    }
  return false;
}

bool limitsFail(const LaunchShape &t, const DeviceLimits &dev, uint32_t variantMaxThreads, std::string *why) {
  for (int d = 0; d < 3; ++d) {
    if (t.grid[d] == 0) return failed(why, [&] { return "transformed " + valueText("grid", d, 0); });
    if (t.grid[d] > dev.maxGrid[d])
      return failed(why, [&] {
        return "transformed " + valueText("grid", d, t.grid[d]) + " exceeds the device limit " +
               std::to_string(dev.maxGrid[d]);
      });
  }
  for (int d = 0; d < 3; ++d) {
    if (t.block[d] == 0) return failed(why, [&] { return "transformed " + valueText("block", d, 0); });
    if (t.block[d] > dev.maxBlock[d])
      return failed(why, [&] {
        return "transformed " + valueText("block", d, t.block[d]) + " exceeds the device limit " +
               std::to_string(dev.maxBlock[d]);
      });
  }
  uint64_t threads = blockThreads(t);
  if (threads > dev.maxThreadsPerBlock)
    return failed(why, [&] {
      return "transformed block has " + std::to_string(threads) + " threads, more than the device limit " +
             std::to_string(dev.maxThreadsPerBlock);
    });
  if (threads > variantMaxThreads)
    return failed(why, [&] {
      return "transformed block has " + std::to_string(threads) + " threads, more than the clone's limit " +
             std::to_string(variantMaxThreads);
    });
  return false;
}

}  // namespace

size_t LaunchShapeHash::operator()(const LaunchShape &s) const {
  uint64_t h = 1469598103934665603ull;  // FNV-1a over the seven numbers
  auto mix = [&](uint32_t v) {
    h ^= v;
    h *= 1099511628211ull;
  };
  for (uint32_t v : s.grid) mix(v);
  for (uint32_t v : s.block) mix(v);
  mix(s.sharedBytes);
  return static_cast<size_t>(h);
}

std::string shapeText(const LaunchShape &s) {
  return "grid=" + dimsText(s.grid) + " block=" + dimsText(s.block) + " shared=" + std::to_string(s.sharedBytes);
}

namespace {
uint32_t transformedDim(const DimSource &src, const LaunchShape &s) {
  if (!src.divide) return 0;
  uint64_t value = sourceValue(src, s);
  if (src.multiply != 1)  // past 2^32 - 1: reported as over the device limit
    return static_cast<uint32_t>(std::min<uint64_t>(value * src.multiply / src.divide, UINT32_MAX));
  return static_cast<uint32_t>(src.roundUp ? (value + src.divide - 1) / src.divide : value / src.divide);
}
}  // namespace

namespace {
/// "param <index> (0x...) is in no known allocation".
std::string notInAllocation(uint32_t index, uint64_t value) {
  char hex[32];
  std::snprintf(hex, sizeof hex, "0x%" PRIx64, value);
  return "param " + std::to_string(index) + " (" + hex + ") is in no known allocation";
}

/// The end (base + size) of the allocation holding pointer argument
/// `index`'s value; false (with the reason, when `why` is given) when the
/// argument is missing, not 8 bytes, or in no allocation the driver knows.
bool allocationEnd(const std::vector<uint32_t> &paramSizes, void *const *params, uint32_t index,
                   const AllocationLookup *lookup, uint64_t &end, std::string *why) {
  if (index >= paramSizes.size() || paramSizes[index] != 8)
    return !failed(why, [&] { return "param " + std::to_string(index) + " is not an 8-byte pointer in the manifest"; });
  if (!params || !params[index]) return !failed(why, [&] { return "param " + std::to_string(index) + " was not given"; });
  uint64_t value = 0, base = 0, size = 0;
  std::memcpy(&value, params[index], 8);
  if (!lookup || !*lookup)
    return !failed(why, [&] { return "param " + std::to_string(index) + ": no allocation lookup to find its end"; });
  if (!(*lookup)(value, base, size))
    return !failed(why, [&] { return notInAllocation(index, value); });
  end = base + size;
  return true;
}

/// The end of the allocation of each of v.allocEnds' arguments into `ends`;
/// 0 where it cannot be found (the selection checked that it can: a clone
/// given 0 runs its original loop in every warp, RowWalkStaged.cpp).
void allocationEnds(const KernelManifest &k, const Variant &v, void **params, const AllocationLookup *lookup,
                    uint64_t *ends) {
  for (size_t i = 0; i < v.allocEnds.size(); ++i)
    if (!allocationEnd(k.paramSizes, params, v.allocEnds[i], lookup, ends[i], nullptr)) ends[i] = 0;
}
}  // namespace

void **variantParams(const KernelManifest &k, const Variant &v, const LaunchShape &s, void **params,
                     ExtraParams &buf, const AllocationLookup *lookup) {
  if (v.extraArgs.empty() && v.allocEnds.empty()) return params;
  const size_t n = k.paramSizes.size();
  buf.pointers.assign(params, params + n);
  buf.values.resize(v.extraArgs.size());
  buf.ends.resize(v.allocEnds.size());
  for (size_t i = 0; i < v.extraArgs.size(); ++i) {
    buf.values[i] = sourceValue(v.extraArgs[i], s);
    buf.pointers.push_back(&buf.values[i]);
  }
  allocationEnds(k, v, params, lookup, buf.ends.data());
  for (auto &end : buf.ends) buf.pointers.push_back(&end);
  return buf.pointers.data();
}

void **variantParamsInline(const KernelManifest &k, const Variant &v, const LaunchShape &s, void **params,
                           void **pointers, uint32_t *values, uint64_t *ends, const AllocationLookup *lookup) {
  if (v.extraArgs.empty() && v.allocEnds.empty()) return params;
  const size_t n = k.paramSizes.size(), x = v.extraArgs.size();
  if (n + x + v.allocEnds.size() > kInlineParams || x > kInlineExtra || v.allocEnds.size() > kInlineEnds)
    return nullptr;
  std::copy(params, params + n, pointers);
  for (size_t i = 0; i < x; ++i) {
    values[i] = sourceValue(v.extraArgs[i], s);
    pointers[n + i] = &values[i];
  }
  allocationEnds(k, v, params, lookup, ends);
  for (size_t i = 0; i < v.allocEnds.size(); ++i) pointers[n + x + i] = &ends[i];
  return pointers;
}

void **variantArgs(const KernelManifest &k, const Variant &v, const LaunchShape &s, void **params, VariantArgs &buf,
                   const AllocationLookup *lookup) {
  if (void **inline_ = variantParamsInline(k, v, s, params, buf.pointers, buf.values, buf.ends, lookup))
    return inline_;
  return variantParams(k, v, s, params, buf.extra, lookup);
}

LaunchShape transformLaunch(const Variant &v, const LaunchShape &s) {
  LaunchShape t;
  t.sharedBytes = s.sharedBytes;
  for (int d = 0; d < 3; ++d) {
    t.grid[d] = transformedDim(v.grid[d], s);
    t.block[d] = transformedDim(v.block[d], s);
  }
  return t;
}

namespace {

bool shapeFails(const Variant &v, const LaunchShape &s, const DeviceLimits &dev, uint32_t variantMaxThreads,
                std::string *why) {
  if (!v.allowDynamicShared && s.sharedBytes != 0)
    return failed(why, [&] {
      return "dynamic shared memory (" + std::to_string(s.sharedBytes) + " bytes) is not allowed";
    });
  if (originalDimsFail(v, s, why) || divisionsFail(v, s, why)) return true;
  LaunchShape t = transformLaunch(v, s);
  if (limitsFail(t, dev, variantMaxThreads, why)) return true;
  uint64_t threads = blockThreads(t);
  if (v.minBlockThreads && threads < v.minBlockThreads)
    return failed(why, [&] {
      return "transformed block has " + std::to_string(threads) + " threads, fewer than the clone's minimum " +
             std::to_string(v.minBlockThreads);
    });
  return false;
}

bool alignmentFails(const Variant &v, const std::vector<uint32_t> &paramSizes, void *const *params,
                    std::string *why) {
  for (const auto &ap : v.alignedParams) {
    if (ap.index >= paramSizes.size())
      return failed(why, [&] { return "param " + std::to_string(ap.index) + " is not in the manifest"; });
    if (!params || !params[ap.index])
      return failed(why, [&] { return "param " + std::to_string(ap.index) + " was not given"; });
    uint64_t value = 0;
    std::memcpy(&value, params[ap.index], std::min<size_t>(paramSizes[ap.index], sizeof value));
    if (ap.bytes != 0 && value % ap.bytes != 0)
      return failed(why, [&] {
        char hex[32];
        std::snprintf(hex, sizeof hex, "0x%" PRIx64, value);
        return "param " + std::to_string(ap.index) + " (" + hex + ") is not " + std::to_string(ap.bytes) +
               "-byte aligned";
      });
  }
  return false;
}

}  // namespace

std::string checkShape(const Variant &v, const LaunchShape &s, const DeviceLimits &dev, uint32_t variantMaxThreads) {
  std::string why;
  shapeFails(v, s, dev, variantMaxThreads, &why);
  return why;
}

bool shapeHolds(const Variant &v, const LaunchShape &s, const DeviceLimits &dev, uint32_t variantMaxThreads) {
  return !shapeFails(v, s, dev, variantMaxThreads, nullptr);
}

std::string checkAlignment(const Variant &v, const std::vector<uint32_t> &paramSizes, void *const *params) {
  std::string why;
  alignmentFails(v, paramSizes, params, &why);
  return why;
}

bool alignmentHolds(const Variant &v, const std::vector<uint32_t> &paramSizes, void *const *params) {
  return !alignmentFails(v, paramSizes, params, nullptr);
}

namespace {

/// The disjointParams conditions; text only when `why` is given (the launch
/// path passes none).
bool disjointFails(const Variant &v, const std::vector<uint32_t> &paramSizes, void *const *params,
                   const AllocationLookup *lookup, std::string *why) {
  for (const auto &p : v.disjointParams) {
    auto pair = [&] { return "params " + std::to_string(p.a) + " and " + std::to_string(p.b); };
    uint64_t value[2] = {0, 0}, base[2] = {0, 0}, size[2] = {0, 0};
    const uint32_t idx[2] = {p.a, p.b};
    for (int i = 0; i < 2; ++i) {
      if (idx[i] >= paramSizes.size())
        return failed(why, [&] { return "param " + std::to_string(idx[i]) + " is not in the manifest"; });
      if (!params || !params[idx[i]])
        return failed(why, [&] { return "param " + std::to_string(idx[i]) + " was not given"; });
      std::memcpy(&value[i], params[idx[i]], std::min<size_t>(paramSizes[idx[i]], sizeof value[i]));
    }
    if (value[0] == value[1]) return failed(why, [&] { return pair() + " are the same pointer"; });
    if (!lookup || !*lookup)
      return failed(why, [&] { return pair() + ": no allocation lookup to tell whether they overlap"; });
    for (int i = 0; i < 2; ++i)
      if (!(*lookup)(value[i], base[i], size[i]))
        return failed(why, [&] { return notInAllocation(idx[i], value[i]); });
    if (base[0] < base[1] + size[1] && base[1] < base[0] + size[0])
      return failed(why, [&] { return pair() + " point into the same allocation (they may overlap)"; });
  }
  return false;
}

/// The allocEnds conditions; text only when `why` is given.
bool allocEndsFail(const Variant &v, const std::vector<uint32_t> &paramSizes, void *const *params,
                   const AllocationLookup *lookup, std::string *why) {
  for (uint32_t index : v.allocEnds) {
    uint64_t end = 0;
    if (!allocationEnd(paramSizes, params, index, lookup, end, why)) return true;
  }
  return false;
}

/// Argument `index` as a signed 4- or 8-byte integer, or (`bytes` 4 or 8)
/// the field of `bytes` bytes at byte `offset` of it (a struct argument's,
/// minParams' fields); false (with the reason, when `why` is given) when it
/// cannot be read.
bool intArgument(const std::vector<uint32_t> &paramSizes, void *const *params, uint32_t index, int64_t &value,
                 std::string *why, uint32_t offset = 0, uint32_t bytes = 0) {
  if (index >= paramSizes.size())
    return !failed(why, [&] { return "param " + std::to_string(index) + " is not in the manifest"; });
  if (!params || !params[index]) return !failed(why, [&] { return "param " + std::to_string(index) + " was not given"; });
  const uint32_t n = bytes ? bytes : paramSizes[index];
  if (bytes && ((bytes != 4 && bytes != 8) || uint64_t(offset) + bytes > paramSizes[index]))
    return !failed(why, [&] {
      return "param " + std::to_string(index) + " has no " + std::to_string(bytes) + "-byte field at byte " +
             std::to_string(offset);
    });
  if (n != 4 && n != 8)
    return !failed(why, [&] { return "param " + std::to_string(index) + " is not a 4- or 8-byte integer"; });
  const auto *p = static_cast<const unsigned char *>(params[index]) + offset;
  if (n == 4) {
    int32_t x;
    std::memcpy(&x, p, 4);
    value = x;
  } else {
    std::memcpy(&value, p, 8);
  }
  return true;
}

/// The threadsPerParam conditions; text only when `why` is given.
/// The first entry of `per` that `count` fails (count < times * argument,
/// an argument of 0 or less holding), its text `what(entry, value)`; an
/// unreadable argument fails too. threadsPerParam (count: the launch's
/// threads) and gridStrideOnce's perParam (count: the loop's bound).
template <class What>
bool perParamFail(const std::vector<Variant::ThreadsPerParam> &per, uint64_t count,
                  const std::vector<uint32_t> &paramSizes, void *const *params, std::string *why, What what) {
  for (const auto &tp : per) {
    int64_t value = 0;
    if (!intArgument(paramSizes, params, tp.index, value, why)) return true;
    // count < times * value, without the product (an 8-byte argument times
    // 32 could wrap): value > count / times.
    if (value > 0 && tp.times > 0 && uint64_t(value) > count / tp.times)
      return failed(why, [&] { return what(tp, value); });
  }
  return false;
}

bool threadsPerParamFail(const Variant &v, const std::vector<uint32_t> &paramSizes, void *const *params,
                         uint64_t threads, std::string *why) {
  return perParamFail(v.threadsPerParam, threads, paramSizes, params, why, [&](const auto &tp, int64_t value) {
    return "the launch's " + std::to_string(threads) + " threads are fewer than " + std::to_string(tp.times) +
           " times param " + std::to_string(tp.index) + " (" + std::to_string(value) + ")";
  });
}

/// The minParams conditions; text only when `why` is given.
bool minParamsFail(const Variant &v, const std::vector<uint32_t> &paramSizes, void *const *params, std::string *why) {
  for (const auto &mp : v.minParams) {
    int64_t value = 0;
    if (!intArgument(paramSizes, params, mp.index, value, why, mp.offset, mp.bytes)) return true;
    if (value < mp.value)
      return failed(why, [&] {
        return "param " + std::to_string(mp.index) +
               (mp.bytes ? " bytes " + std::to_string(mp.offset) + ".." + std::to_string(mp.offset + mp.bytes - 1) : "") +
               " (" + std::to_string(value) + ") is below the clone's minimum " + std::to_string(mp.value);
      });
  }
  return false;
}

}  // namespace

std::string checkDisjoint(const Variant &v, const std::vector<uint32_t> &paramSizes, void *const *params,
                          const AllocationLookup *lookup) {
  std::string why;
  disjointFails(v, paramSizes, params, lookup, &why);
  return why;
}

bool disjointHolds(const Variant &v, const std::vector<uint32_t> &paramSizes, void *const *params,
                   const AllocationLookup *lookup) {
  return !disjointFails(v, paramSizes, params, lookup, nullptr);
}

std::string checkMinParams(const Variant &v, const std::vector<uint32_t> &paramSizes, void *const *params) {
  std::string why;
  minParamsFail(v, paramSizes, params, &why);
  return why;
}

bool minParamsHold(const Variant &v, const std::vector<uint32_t> &paramSizes, void *const *params) {
  return !minParamsFail(v, paramSizes, params, nullptr);
}

std::string checkThreadsPerParam(const Variant &v, const std::vector<uint32_t> &paramSizes, void *const *params,
                                 uint64_t threads) {
  std::string why;
  threadsPerParamFail(v, paramSizes, params, threads, &why);
  return why;
}

/// The gridStrideOnce conditions; text only when `why` is given (the
/// launch path's calls build none).
bool gridStrideOnceFail(const Variant &v, const std::vector<uint32_t> &paramSizes, void *const *params,
                        const LaunchShape *s, std::string *why) {
  for (const auto &g : v.gridStrideOnce) {
    if (!s || g.dim > 2) return failed(why, [&] { return std::string("the launch's shape is not known"); });
    const std::string axis(1, char('x' + g.dim));
    const uint64_t threads = uint64_t(s->grid[g.dim]) * s->block[g.dim];
    if (threads >= (uint64_t(1) << 30))
      return failed(why, [&] {
        return "the launch's " + std::to_string(threads) + " threads along " + axis +
               " are 2^30 or more (a grid-stride index could wrap)";
      });
    // The product of the arguments and the constant factor, stopped once
    // past `cap` (no wrap): the launch's threads, or (a loop that may run
    // several times) the bound's own limit 2^30.
    const uint64_t cap = g.several ? (uint64_t(1) << 30) : threads;
    uint64_t product = g.times > cap ? cap + 1 : g.times;
    // "param 1 (2) * param 2 (64)", the first `upTo` arguments read again
    // (after the constant, where there is one): text only on failure.
    auto names = [&](size_t upTo) {
      std::string t = g.times != 1 ? std::to_string(g.times) : "";
      for (size_t i = 0; i < upTo; ++i) {
        int64_t value = 0;
        intArgument(paramSizes, params, g.params[i], value, nullptr);
        t += (t.empty() ? "param " : " * param ") + std::to_string(g.params[i]) + " (" + std::to_string(value) + ")";
      }
      return t;
    };
    for (size_t i = 0; i < g.params.size(); ++i) {
      int64_t value = 0;
      if (!intArgument(paramSizes, params, g.params[i], value, why)) return true;
      if (value < 0) return failed(why, [&] { return names(i + 1) + " is negative"; });
      if (product <= cap) product = uint64_t(value) > cap ? cap + 1 : product * uint64_t(value);
    }
    if (g.several) {
      if (product >= cap)
        return failed(why, [&] { return names(g.params.size()) + " is 2^30 or more (a grid-stride index could wrap)"; });
      if (product < g.minBound)
        return failed(why, [&] {
          return names(g.params.size()) + " is under " + std::to_string(g.minBound) +
                 " (the grid-stride loop's clone pays from there)";
        });
      if (perParamFail(g.perParam, product, paramSizes, params, why, [&](const auto &t, int64_t value) {
            return names(g.params.size()) + " is under " + std::to_string(t.times) + " times param " +
                   std::to_string(t.index) + " (" + std::to_string(value) + "): the clone's tiles would be thin";
          }))
        return true;
      continue;
    }
    if (product > threads)
      return failed(why, [&] {
        return "the launch's " + std::to_string(threads) + " threads along " + axis + " are fewer than " +
               names(g.params.size()) + ": its grid-stride loop would run more than once";
      });
  }
  return false;
}

std::string checkGridStrideOnce(const Variant &v, const std::vector<uint32_t> &paramSizes, void *const *params,
                                const LaunchShape &s) {
  std::string why;
  gridStrideOnceFail(v, paramSizes, params, &s, &why);
  return why;
}

ShapeDecision decideShape(const KernelManifest &k, const LaunchShape &s, const DeviceLimits &dev,
                          const std::vector<uint32_t> &variantMaxThreads) {
  ShapeDecision d;
  for (size_t i = 0; i < k.variants.size(); ++i) {
    uint32_t maxThreads = i < variantMaxThreads.size() ? variantMaxThreads[i] : dev.maxThreadsPerBlock;
    d.reasons.push_back(checkShape(k.variants[i], s, dev, maxThreads));
  }
  return d;
}

Selection finishSelection(const KernelManifest &k, const ShapeDecision &d, const LaunchShape &s,
                          void *const *params, const AllocationLookup *lookup) {
  Selection sel;
  sel.launch = s;
  for (size_t i = 0; i < k.variants.size(); ++i) {
    const Variant &v = k.variants[i];
    std::string reason = i < d.reasons.size() ? d.reasons[i] : "not decided for this shape";
    if (reason.empty()) reason = checkAlignment(v, k.paramSizes, params);
    // The row floor before the allocations (driver calls), as chooseVariant.
    if (reason.empty() && !v.minParams.empty()) reason = checkMinParams(v, k.paramSizes, params);
    if (reason.empty() && !v.threadsPerParam.empty())
      reason = checkThreadsPerParam(v, k.paramSizes, params, launchThreads(s));
    if (reason.empty() && !v.gridStrideOnce.empty()) reason = checkGridStrideOnce(v, k.paramSizes, params, s);
    // Extra arguments are appended to the original's argument array: it
    // must be there (not a packed CU_LAUNCH_PARAM_BUFFER).
    if (reason.empty() && !v.extraArgs.empty() && !params)
      reason = "it takes " + std::to_string(v.extraArgs.size()) + " extra argument(s) and the launch passed no argument array";
    if (reason.empty() && !v.allocEnds.empty() && !params)
      reason = "it takes the end of " + std::to_string(v.allocEnds.size()) +
               " argument(s)' allocation and the launch passed no argument array";
    if (reason.empty() && !v.disjointParams.empty()) reason = checkDisjoint(v, k.paramSizes, params, lookup);
    if (reason.empty() && !v.allocEnds.empty()) allocEndsFail(v, k.paramSizes, params, lookup, &reason);
    if (reason.empty()) {
      sel.variant = static_cast<int>(i);
      sel.launch = transformLaunch(v, s);
      return sel;
    }
    sel.rejected.push_back(v.name + ": " + reason);
  }
  return sel;
}

int chooseVariant(const KernelManifest &k, uint64_t mask, void *const *params, const AllocationLookup *lookup,
                  const LaunchShape *shape) {
  const uint64_t threads = shape ? launchThreads(*shape) : 0;
  for (size_t i = 0; mask != 0 && i < k.variants.size(); ++i, mask >>= 1) {
    if (!(mask & 1)) continue;
    const Variant &v = k.variants[i];
    if (!alignmentHolds(v, k.paramSizes, params)) continue;
    // Argument conditions, as finishSelection (no text): the row lengths
    // and thread counts before the allocations (two driver calls a pointer
    // pair, which a launch under a clone's row floor, kmeans' 34 features,
    // need not make).
    if (!v.minParams.empty() && !minParamsHold(v, k.paramSizes, params)) continue;
    if (!v.threadsPerParam.empty() && threadsPerParamFail(v, k.paramSizes, params, threads, nullptr)) continue;
    if (!v.gridStrideOnce.empty() && gridStrideOnceFail(v, k.paramSizes, params, shape, nullptr)) continue;
    if ((!v.extraArgs.empty() || !v.allocEnds.empty()) && !params) continue;  // as finishSelection
    if (!v.disjointParams.empty() && !disjointHolds(v, k.paramSizes, params, lookup)) continue;
    if (!v.allocEnds.empty() && allocEndsFail(v, k.paramSizes, params, lookup, nullptr)) continue;
    return static_cast<int>(i);
  }
  return -1;
}

Selection selectVariant(const KernelManifest &k, const LaunchShape &s, const DeviceLimits &dev,
                        const std::vector<uint32_t> &variantMaxThreads, void *const *params,
                        const AllocationLookup *lookup) {
  return finishSelection(k, decideShape(k, s, dev, variantMaxThreads), s, params, lookup);
}

std::string describeSelection(const KernelManifest &k, const LaunchShape &s, const Selection &sel) {
  std::string line = k.kernel + " " + shapeText(s) + " -> ";
  if (sel.variant < 0) {
    line += "original";
  } else {
    const Variant &v = k.variants[sel.variant];
    line += v.name + " (" + v.kind + ")";
    if (!(sel.launch == s)) line += " grid=" + dimsText(sel.launch.grid) + " block=" + dimsText(sel.launch.block);
  }
  if (k.variants.empty()) line += "; no variants";
  for (size_t i = 0; i < sel.rejected.size(); ++i) line += (i ? "; " : "; rejected ") + sel.rejected[i];
  return line;
}

int chooseLaunchWithText(const KernelManifest &k, const LaunchShape &s, const DeviceLimits &dev,
                         MaxThreadsOf maxThreadsOf, void *const *params, const AllocationLookup *lookup,
                         bool eligible, ShapeCache &cache, const ChoiceText &text, Selection &sel,
                         std::shared_ptr<ShapeEntry> *entry) {
  sel.launch = s;
  bool inserted = false;
  if (eligible) {
    auto e = cache.get(
        s,
        [&] {
          std::vector<uint32_t> limits(k.variants.size());
          for (size_t i = 0; i < limits.size(); ++i) limits[i] = maxThreadsOf(i);
          ShapeDecision d = decideShape(k, s, dev, limits);
          for (size_t i = 0; i < limits.size(); ++i)
            if (!limits[i]) d.reasons[i] = "the clone is not usable";
          return std::make_shared<ShapeEntry>(std::move(d), text.autotuneSamples);
        },
        &inserted);
    sel = finishSelection(k, e->decision, s, params, lookup);
    if (entry) *entry = std::move(e);
  }
  if (text.logLine && (text.log >= 2 || (text.log == 1 && inserted))) text.logLine(describeSelection(k, s, sel));
  return sel.variant;
}

size_t ShapeMaskCache::slotOf(const LaunchShape &s) {
  uint64_t h = LaunchShapeHash()(s);
  return static_cast<size_t>(h ^ (h >> 29) ^ (h >> 47)) & (kSlots - 1);
}

bool ShapeMaskCache::find(const LaunchShape &s, uint64_t &mask) const {
  const Slot &slot = slots_[slotOf(s)];
  uint32_t seq = slot.seq.load(std::memory_order_acquire);
  if (seq == 0 || (seq & 1)) return false;
  uint32_t key[7];
  for (int i = 0; i < 7; ++i) key[i] = slot.key[i].load(std::memory_order_relaxed);
  uint64_t m = slot.mask.load(std::memory_order_relaxed);
  std::atomic_thread_fence(std::memory_order_acquire);
  if (slot.seq.load(std::memory_order_relaxed) != seq) return false;
  if (key[0] != s.grid[0] || key[1] != s.grid[1] || key[2] != s.grid[2] || key[3] != s.block[0] ||
      key[4] != s.block[1] || key[5] != s.block[2] || key[6] != s.sharedBytes)
    return false;
  mask = m;
  return true;
}

void ShapeMaskCache::store(const LaunchShape &s, uint64_t mask) {
  Slot &slot = slots_[slotOf(s)];
  uint32_t seq = slot.seq.load(std::memory_order_relaxed);
  if ((seq & 1) || !slot.seq.compare_exchange_strong(seq, seq + 1, std::memory_order_acquire))
    return;  // another thread is writing this slot
  std::atomic_thread_fence(std::memory_order_release);
  const uint32_t key[7] = {s.grid[0], s.grid[1], s.grid[2], s.block[0], s.block[1], s.block[2], s.sharedBytes};
  for (int i = 0; i < 7; ++i) slot.key[i].store(key[i], std::memory_order_relaxed);
  slot.mask.store(mask, std::memory_order_relaxed);
  slot.seq.store(seq + 2, std::memory_order_release);
}

size_t ShapeCache::size() const {
  std::shared_lock lock(mu_);
  return map_.size();
}

}  // namespace ptxopt::rt
