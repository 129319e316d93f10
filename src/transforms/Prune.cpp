// Clone pruning: after the passes, drops every variant that the runtime's
// selection (runtime/Select.cpp) can never choose, and the clones no
// remaining variant launches.
//
// Why: each clone costs ptxas time and cubin size at build time, and each
// variant a check per new launch shape; a variant that no launch can select
// pays nothing back. Which launches can reach a variant is decided from the
// manifest alone, against the kernel's own launch bounds, so the variants
// that remain and their order are the ones the runtime would pick among:
// no launch that can select a variant today selects another one after
// pruning.
//
// A variant is dropped, with a remark saying why, when
//  1. no block shape the kernel allows (its .reqntid; else at most .maxntid's
//     or the device's 1024 threads) meets the variant's block conditions:
//     block.d multiples, minimums and maximums, exact divisions of the
//     values it divides, transformed dimensions within the device limits,
//     and, when the transformed block comes from the original block alone,
//     its thread count within [minBlockThreads, 1024];
//  2. its grid conditions contradict each other or the device's grid limits
//     (no multiple of gridMultiple between gridMin and the largest grid the
//     transformed launch allows), or its minLaunchThreads floor exceeds the
//     largest launch those limits allow;
//  3. an earlier variant launches the same clone in the same way under
//     conditions that every launch meeting this variant's also meets
//     (identical variants included): the earlier one is chosen first.
// A launch outside the kernel's .reqntid/.maxntid is refused by the driver
// for the original, so it is not counted as one that could select a clone
// (the launch hook does not check those bounds itself: such a launch may
// run a clone today where the nvcc build fails; after pruning it fails too).
// The device limits used are those of every GPU since compute capability
// 3.0 (block 1024 x 1024 x 64 and 1024 threads, grid 2^31-1 x 65535 x 65535).
// A condition this code cannot bound (a transformed block that mixes grid
// and block dimensions) is taken as satisfiable: when in doubt a variant
// stays.
#include <algorithm>
#include <array>
#include <set>
#include <string>

#include "Pass.h"

namespace ptxopt::transforms {
namespace {

constexpr std::array<uint64_t, 3> kMaxBlock{1024, 1024, 64};
constexpr std::array<uint64_t, 3> kMaxGrid{2147483647, 65535, 65535};
constexpr uint64_t kMaxThreads = 1024;
constexpr uint64_t kCap = uint64_t(1) << 40;

/// The block shapes kernel `f` may be launched with: exactly `exact` when it
/// has .reqntid, else any with at most `maxThreads` threads.
struct BlockBounds {
  std::optional<std::array<uint64_t, 3>> exact;
  uint64_t maxThreads = kMaxThreads;
};

std::vector<uint64_t> ints(const ir::Directive &d) {
  std::vector<uint64_t> out;
  for (auto t : d.tokens)
    if (t != ",") out.push_back(static_cast<uint64_t>(ir::Operand::imm(t).intValue().value_or(0)));
  return out;
}

BlockBounds boundsOf(const ir::Function &f) {
  BlockBounds b;
  if (const auto *d = f.perfDirective(".reqntid")) {
    auto v = ints(*d);
    if (!v.empty() && v.size() <= 3 && std::find(v.begin(), v.end(), 0) == v.end()) {
      std::array<uint64_t, 3> e{1, 1, 1};
      for (size_t i = 0; i < v.size(); ++i) e[i] = v[i];
      b.exact = e;
      return b;
    }
  }
  if (const auto *d = f.perfDirective(".maxntid")) {
    auto v = ints(*d);
    uint64_t n = 1;
    for (auto x : v) n *= x;
    if (!v.empty() && v.size() <= 3 && n >= 1) b.maxThreads = std::min(n, kMaxThreads);
  }
  return b;
}

/// The block-only conditions of `v` on original block `b` (see rule 1).
bool blockFits(const Variant &v, const std::array<uint64_t, 3> &b) {
  for (int d = 0; d < 3; ++d) {
    if (b[d] % v.blockMultiple[d] != 0 || b[d] < v.blockMin[d]) return false;
    if (v.blockMax[d] && b[d] > v.blockMax[d]) return false;
  }
  // Transformed dimension e from the original block (or a constant): within
  // the device limits; nullopt when it comes from the grid.
  auto value = [&](const DimSource &s) -> std::optional<uint64_t> {
    if (s.from == DimSource::From::Const) return s.value;
    if (s.from == DimSource::From::Grid) return std::nullopt;
    if (s.dim > 2 || s.divide == 0) return 0;
    uint64_t x = b[s.dim];
    if (x % s.divide != 0 && !s.roundUp) return 0;
    return s.roundUp ? (x + s.divide - 1) / s.divide : x / s.divide;
  };
  uint64_t threads = 1;
  bool fromBlockOnly = true;
  for (int d = 0; d < 3; ++d) {
    auto g = value(v.grid[d]);
    if (g && (*g == 0 || *g > kMaxGrid[d])) return false;
    auto t = value(v.block[d]);
    if (!t) {
      fromBlockOnly = false;
      continue;
    }
    if (*t == 0 || *t > kMaxBlock[d]) return false;
    threads *= *t;
  }
  if (fromBlockOnly && (threads > kMaxThreads || threads < v.minBlockThreads)) return false;
  return true;
}

/// Rule 1: some allowed block shape meets `v`'s block conditions.
bool someBlockFits(const Variant &v, const BlockBounds &bb) {
  if (bb.exact) return blockFits(v, *bb.exact);
  const uint64_t n = bb.maxThreads;
  for (uint64_t x = 1; x <= std::min(n, kMaxBlock[0]); ++x)
    for (uint64_t y = 1; y <= std::min(n / x, kMaxBlock[1]); ++y)
      for (uint64_t z = 1; z <= std::min(n / (x * y), kMaxBlock[2]); ++z)
        if (blockFits(v, {x, y, z})) return true;
  return false;
}

/// Rule 2: why no grid meets `v`'s grid and launch-size conditions, or "".
std::string gridContradiction(const Variant &v, const BlockBounds &bb) {
  std::array<uint64_t, 3> ub = kMaxGrid;
  for (int d = 0; d < 3; ++d)
    if (v.gridMax[d]) ub[d] = std::min<uint64_t>(ub[d], v.gridMax[d]);
  // A transformed dimension taken from grid.d / k bounds grid.d by limit * k + k - 1.
  auto bound = [&](const DimSource &s, uint64_t limit) {
    if (s.from != DimSource::From::Grid || s.dim > 2 || s.divide == 0) return;
    ub[s.dim] = std::min(ub[s.dim], limit * s.divide + s.divide - 1);
  };
  for (int d = 0; d < 3; ++d) {
    bound(v.grid[d], kMaxGrid[d]);
    bound(v.block[d], kMaxBlock[d]);
  }
  uint64_t launch = bb.exact ? (*bb.exact)[0] * (*bb.exact)[1] * (*bb.exact)[2] : bb.maxThreads;
  for (int d = 0; d < 3; ++d) {
    uint64_t top = ub[d] / v.gridMultiple[d] * v.gridMultiple[d];  // largest allowed multiple
    if (top == 0 || top < v.gridMin[d])
      return std::string("no grid.") + "xyz"[d] + " is a multiple of " + std::to_string(v.gridMultiple[d]) +
             " between " + std::to_string(std::max<uint32_t>(v.gridMin[d], 1)) + " and " + std::to_string(ub[d]);
    launch = std::min(launch * top, kCap);
  }
  if (v.minLaunchThreads && launch < v.minLaunchThreads)
    return "the largest launch it allows has " + std::to_string(launch) + " threads, fewer than its minimum " +
           std::to_string(v.minLaunchThreads);
  return "";
}

/// Rule 3: every launch that meets `later`'s conditions meets `earlier`'s,
/// and both launch the same clone the same way.
bool implies(const Variant &later, const Variant &earlier) {
  const Variant &a = later, &b = earlier;
  if (a.name != b.name || a.grid != b.grid || a.block != b.block || a.extraArgs != b.extraArgs ||
      a.allocEnds != b.allocEnds)
    return false;
  if (a.allowDynamicShared && !b.allowDynamicShared) return false;
  auto bounded = [](uint32_t weak, uint32_t strong) { return weak == 0 || (strong != 0 && strong <= weak); };
  for (int d = 0; d < 3; ++d) {
    if (a.gridMultiple[d] % b.gridMultiple[d] != 0 || a.blockMultiple[d] % b.blockMultiple[d] != 0) return false;
    if (a.blockMin[d] < b.blockMin[d] || a.gridMin[d] < b.gridMin[d]) return false;
    if (!bounded(b.gridMax[d], a.gridMax[d]) || !bounded(b.blockMax[d], a.blockMax[d])) return false;
  }
  if (!bounded(b.maxLaunchThreads, a.maxLaunchThreads)) return false;
  if (a.minLaunchThreads < b.minLaunchThreads || a.minBlockThreads < b.minBlockThreads) return false;
  // Each parameter `earlier` checks, `later` checks too (a launch without
  // an argument array fails any check), at a multiple of the alignment.
  for (const auto &p : b.alignedParams) {
    bool covered = false;
    for (const auto &q : a.alignedParams)
      covered |= q.index == p.index && (p.bytes <= 1 || (q.bytes && q.bytes % p.bytes == 0));
    if (!covered) return false;
  }
  // Likewise rowwalk's argument conditions: each pair `earlier` needs in
  // different allocations, and each minimum at least as high.
  for (const auto &p : b.disjointParams)
    if (std::find(a.disjointParams.begin(), a.disjointParams.end(), p) == a.disjointParams.end()) return false;
  for (const auto &p : b.minParams) {
    bool covered = false;
    for (const auto &q : a.minParams) covered |= q.index == p.index && q.offset == p.offset && q.bytes == p.bytes && q.value >= p.value;
    if (!covered) return false;
  }
  for (const auto &p : b.threadsPerParam) {
    bool covered = false;
    for (const auto &q : a.threadsPerParam) covered |= q.index == p.index && q.times >= p.times;
    if (!covered) return false;
  }
  for (const auto &g : b.gridStrideOnce)
    if (std::find(a.gridStrideOnce.begin(), a.gridStrideOnce.end(), g) == a.gridStrideOnce.end()) return false;
  return true;
}

/// "block.x % 4 == 0, transformed block >= 128 threads": the block conditions, for remarks.
std::string blockConditions(const Variant &v) {
  std::string out;
  auto add = [&](const std::string &c) { out += (out.empty() ? "" : ", ") + c; };
  for (int d = 0; d < 3; ++d) {
    std::string b = std::string("block.") + "xyz"[d];
    if (v.blockMultiple[d] > 1) add(b + " % " + std::to_string(v.blockMultiple[d]) + " == 0");
    if (v.blockMin[d] > 1) add(b + " >= " + std::to_string(v.blockMin[d]));
    if (v.blockMax[d]) add(b + " <= " + std::to_string(v.blockMax[d]));
  }
  if (v.minBlockThreads) add("transformed block >= " + std::to_string(v.minBlockThreads) + " threads");
  return out.empty() ? "the transformed launch's limits" : out;
}

}  // namespace

void pruneClones(PassContext &ctx) {
  ir::Module &m = ctx.module;
  std::set<std::string> dropped, emptied;
  for (auto &k : ctx.manifest.kernels) {
    const ir::Function *original = m.findFunction(k.kernel);
    if (!original) continue;
    const BlockBounds bb = boundsOf(*original);
    std::vector<Variant> kept;
    for (auto &v : k.variants) {
      std::string why;
      if (!someBlockFits(v, bb)) {
        why = (bb.exact ? std::string("the kernel's .reqntid block")
                        : "no block of at most " + std::to_string(bb.maxThreads) + " threads (the kernel's " +
                              (original->perfDirective(".maxntid") ? ".maxntid" : "device limit") + ")") +
              (bb.exact ? " does not meet " : " meets ") + blockConditions(v);
      } else if (std::string g = gridContradiction(v, bb); !g.empty()) {
        why = g;
      } else {
        for (size_t j = 0; j < kept.size() && why.empty(); ++j)
          if (implies(v, kept[j]))
            why = v == kept[j] ? "it repeats variant " + std::to_string(j)
                               : "variant " + std::to_string(j) + " launches the same clone under weaker conditions";
      }
      if (why.empty()) {
        kept.push_back(std::move(v));
        continue;
      }
      ctx.remark(Remark::Kind::Note, *original, "",
                 "variant " + v.name + " (" + v.kind + ") dropped: no launch can select it (" + why + ")");
      ctx.count("dropped-variants");
      dropped.insert(v.name);
    }
    if (kept.empty() && !k.variants.empty()) emptied.insert(k.kernel);
    k.variants = std::move(kept);
  }
  // Clones that no remaining variant launches.
  for (const auto &k : ctx.manifest.kernels)
    for (const auto &v : k.variants) dropped.erase(v.name);
  for (const auto &name : dropped)
    if (const ir::Function *f = m.findFunction(name)) {
      m.eraseFunction(f);
      ctx.count("dropped-clones");
    }
  // A kernel left without variants needs no manifest (nor the launch hook's checks).
  std::erase_if(ctx.manifest.kernels, [&](const KernelManifest &k) { return emptied.count(k.kernel) != 0; });
}

}  // namespace ptxopt::transforms
