// The launch path's text-free decision (shapeMask, chooseVariant,
// ShapeMaskCache in include/ptxopt/runtime/Select.h): the same variant as the
// decision with reasons (decideShape + finishSelection) on random manifests
// and launches, clone limits asked for only where a shape can use the clone,
// and the lock-free cache under many threads.
#include <catch2/catch.hpp>

#include <atomic>
#include <random>
#include <set>
#include <thread>

#include "ptxopt/runtime/Select.h"

using namespace ptxopt;
using namespace ptxopt::rt;

namespace {

/// A random variant: any mix of the manifest's transforms and conditions,
/// with values small enough that they hold now and then.
Variant randomVariant(std::mt19937 &rng, size_t params, int n) {
  auto pick = [&](uint32_t hi) { return static_cast<uint32_t>(rng() % (hi + 1)); };
  auto often = [&] { return rng() % 8 == 0; };
  Variant v;
  v.name = "k$" + std::to_string(n);
  v.kind = "test";
  auto source = [&](DimSource::From self, uint8_t d) {
    switch (rng() % 6) {
      case 0: return DimSource{DimSource::From::Grid, static_cast<uint8_t>(rng() % 3), 1 + pick(3), 0, false};
      case 1: return DimSource{DimSource::From::Block, static_cast<uint8_t>(rng() % 3), 1 + pick(3), 0, false};
      case 2: return DimSource{DimSource::From::Grid, static_cast<uint8_t>(rng() % 3), 1 + pick(7), 0, true};
      case 3: return DimSource::constant(pick(300));
      default: return DimSource{self, d, 1, 0, false};
    }
  };
  for (uint8_t d = 0; d < 3; ++d) {
    if (often()) v.grid[d] = source(DimSource::From::Grid, d);
    if (often()) v.block[d] = source(DimSource::From::Block, d);
    if (often()) v.gridMultiple[d] = 1 + pick(3);
    if (often()) v.blockMultiple[d] = 1 + pick(3);
    if (often()) v.blockMin[d] = pick(64);
    if (often()) v.gridMin[d] = pick(64);
    if (often()) v.gridMax[d] = pick(600);
    if (often()) v.blockMax[d] = pick(600);
  }
  if (often()) v.maxLaunchThreads = pick(1u << 20);
  if (often()) v.minLaunchThreads = pick(1u << 14);
  if (often()) v.minBlockThreads = pick(256);
  if (often()) v.allowDynamicShared = false;
  if (often() && params) v.alignedParams.push_back({pick(uint32_t(params)), 1u << pick(5)});
  if (rng() % 8 == 0) v.alignedParams.push_back({uint32_t(params) + 1, 4});  // a bad entry: never holds
  if (often()) v.extraArgs.push_back(DimSource{DimSource::From::Grid, static_cast<uint8_t>(rng() % 3), 1, 0, false});
  // rowwalk's argument conditions: pointers in two allocations, an integer
  // argument at least a value.
  if (often() && params >= 2) v.disjointParams.push_back({0, 1});
  if (often() && params >= 3) v.minParams.push_back({2, int64_t(pick(12))});
  // The transpose pass's thread-count conditions on argument 2 (7 in the
  // launches below): threads per unit of it, a grid-stride loop run once.
  if (often() && params >= 3) v.threadsPerParam.push_back({2, 1u + pick(4096)});
  if (often() && params >= 3) v.gridStrideOnce.push_back({uint32_t(rng() % 3), {2}});
  return v;
}

uint32_t randomDim(std::mt19937 &rng) {
  static const uint32_t edges[] = {1, 2, 3, 4, 8, 16, 32, 64, 96, 128, 256, 512, 1000, 1024, 2048, 65535, 65536};
  return rng() % 2 ? edges[rng() % (sizeof edges / sizeof *edges)] : 1 + static_cast<uint32_t>(rng() % 700);
}

}  // namespace

TEST_CASE("mask: the same choice as the decision with reasons, random manifests and launches", "[runtime]") {
  std::mt19937 rng(16);
  DeviceLimits dev;
  int chosen = 0, original = 0;
  for (int m = 0; m < 3000; ++m) {
    KernelManifest k;
    k.kernel = "k";
    k.paramSizes = {8, 8, 4};
    if (rng() % 4 == 0) dev.maxGrid = {65536, 65535, 65535};  // other device limits now and then
    else dev = DeviceLimits{};
    size_t n = 1 + rng() % 6;
    std::vector<uint32_t> maxThreads;
    for (size_t i = 0; i < n; ++i) {
      k.variants.push_back(randomVariant(rng, 3, int(i)));  // params 0, 1 pointers, 2 an int (7)
      static const uint32_t limits[] = {0, 128, 256, 512, 1024, 1024};  // 0: a clone cudart could not read
      maxThreads.push_back(limits[rng() % 6]);
    }
    for (int l = 0; l < 20; ++l) {
      LaunchShape s{{randomDim(rng), rng() % 3 ? 1 : randomDim(rng), rng() % 4 ? 1 : randomDim(rng)},
                    {randomDim(rng), rng() % 3 ? 1 : randomDim(rng), rng() % 5 ? 1 : 1 + uint32_t(rng() % 4)},
                    rng() % 4 ? 0 : uint32_t(rng() % 4096)};
      uint64_t a = uint64_t(0x7f0000000000) + (rng() % 4 ? 0 : 1u << (rng() % 6)), b = 0x7f0000100000;
      uint32_t c = 7;
      void *args[3] = {&a, &b, &c};
      void **params = rng() % 10 ? args : nullptr;
      std::vector<int> asked;
      uint64_t mask = shapeMask(k, s, dev, [&](size_t i) {
        asked.push_back(int(i));
        return maxThreads[i];
      });
      // Allocations of 1 MiB: a and b lie in two, except now and then.
      const bool oneAllocation = rng() % 4 == 0;
      AllocationLookup lookup = [&](uint64_t ptr, uint64_t &base, uint64_t &size) {
        size = oneAllocation ? uint64_t(1) << 24 : uint64_t(1) << 20;
        base = ptr & ~(size - 1);
        return true;
      };
      const AllocationLookup *lk = rng() % 5 ? &lookup : nullptr;
      int fast = chooseVariant(k, mask, params, lk, &s);
      Selection slow = selectVariant(k, s, dev, maxThreads, params, lk);
      INFO("manifest " << m << " launch " << l << ": " << shapeText(s) << " mask " << mask);
      REQUIRE(fast == slow.variant);
      // Bit i is set exactly where reason i is "", up to the first variant
      // that holds with no per-launch condition; none after it. The limit
      // of a clone is asked for once at most.
      ShapeDecision d = decideShape(k, s, dev, maxThreads);
      bool past = false;
      for (size_t i = 0; i < n; ++i) {
        bool bit = mask >> i & 1;
        if (past) {
          REQUIRE_FALSE(bit);
          continue;
        }
        REQUIRE(bit == d.reasons[i].empty());
        past = bit && !perLaunchConditions(k.variants[i]);
      }
      REQUIRE(std::set<int>(asked.begin(), asked.end()).size() == asked.size());
      (fast >= 0 ? chosen : original)++;
    }
  }
  // The random cases cover both outcomes well.
  INFO("chosen " << chosen << ", original " << original);
  CHECK(chosen > 10000);
  CHECK(original > 10000);
}

TEST_CASE("mask: a clone's limit is asked for only where the shape can use the clone", "[runtime]") {
  Variant never;  // needs block.x a multiple of 3
  never.name = "k$never";
  never.blockMultiple = {3, 1, 1};
  Variant plain;
  plain.name = "k$plain";
  Variant later;
  later.name = "k$later";
  KernelManifest k{"k", {8}, {never, plain, later}};
  LaunchShape s{{8, 1, 1}, {32, 1, 1}, 0};
  std::vector<size_t> asked;
  auto limit = [&](size_t i) {
    asked.push_back(i);
    return 1024u;
  };
  // The first variant fails on the shape: never asked. The second holds and
  // has no per-launch condition: the third can never run, never asked.
  CHECK(shapeMask(k, s, DeviceLimits{}, limit) == 0b010);
  CHECK(asked == std::vector<size_t>{1});
  // With an aligned parameter the second may fail per launch: the third is
  // decided too.
  k.variants[1].alignedParams = {{0, 16}};
  asked.clear();
  CHECK(shapeMask(k, s, DeviceLimits{}, limit) == 0b110);
  CHECK(asked == std::vector<size_t>{1, 2});
  uint64_t a = 0x1000, misaligned = 0x1004;
  void *pa[1] = {&a}, *pm[1] = {&misaligned};
  CHECK(chooseVariant(k, 0b110, pa) == 1);
  CHECK(chooseVariant(k, 0b110, pm) == 2);
  CHECK(chooseVariant(k, 0, pa) == -1);
  // A clone whose limit is below the transformed block, or unreadable (0).
  asked.clear();
  CHECK(shapeMask(k, s, DeviceLimits{}, [&](size_t i) { return i == 1 ? 16u : 0u; }) == 0);
  // A two-argument limit is given the transformed block's threads (the
  // shim then reads no attributes for blocks within kAnyKernelThreads).
  std::vector<uint32_t> threads;
  auto limit2 = [&](size_t, uint32_t t) {
    threads.push_back(t);
    return t;  // "it fits"
  };
  CHECK(shapeMask(k, s, DeviceLimits{}, limit2) == 0b110);
  CHECK(threads == std::vector<uint32_t>{32, 32});
  CHECK(kAnyKernelThreads == 256);
}

TEST_CASE("mask: extra arguments without the heap", "[runtime]") {
  Variant v;
  v.name = "k$merged";
  v.extraArgs = {DimSource{DimSource::From::Grid, 0, 1, 0, false}, DimSource{DimSource::From::Block, 1, 1, 0, false}};
  KernelManifest k{"k", {8, 8}, {v}};
  LaunchShape s{{1001, 1, 1}, {128, 3, 1}, 0};
  uint64_t a = 1, b = 2;
  void *args[2] = {&a, &b};
  void *pointers[kInlineParams];
  uint32_t values[kInlineExtra];
  uint64_t ends[kInlineEnds];
  void **p = variantParamsInline(k, v, s, args, pointers, values, ends);
  ExtraParams buf;
  void **q = variantParams(k, v, s, args, buf);
  REQUIRE(p == pointers);
  for (int i = 0; i < 2; ++i) CHECK(p[i] == q[i]);
  CHECK(*static_cast<uint32_t *>(p[2]) == 1001);
  CHECK(*static_cast<uint32_t *>(p[3]) == 3);
  // Without extra arguments the launch's own array; too many: nullptr (the
  // caller falls back to variantParams).
  KernelManifest plain{"k", {8, 8}, {Variant{}}};
  CHECK(variantParamsInline(plain, plain.variants[0], s, args, pointers, values, ends) == args);
  k.paramSizes.assign(kInlineParams, 8);
  CHECK(variantParamsInline(k, v, s, args, pointers, values, ends) == nullptr);
}

TEST_CASE("mask: allocation ends, a condition and .u64 arguments after the extra ones", "[runtime]") {
  Variant v;
  v.name = "k$staged";
  v.extraArgs = {DimSource{DimSource::From::Grid, 0, 1, 0, false}};
  v.allocEnds = {1};
  KernelManifest k{"k", {4, 8}, {v}};
  LaunchShape s{{64, 1, 1}, {256, 1, 1}, 0};
  int32_t n = 7;
  uint64_t ptr = 0x10040;
  void *args[2] = {&n, &ptr};
  // One allocation, [0x10000, 0x10000 + 0x1000).
  int calls = 0;
  AllocationLookup lookup = [&](uint64_t p, uint64_t &base, uint64_t &size) {
    ++calls;
    if (p < 0x10000 || p >= 0x11000) return false;
    base = 0x10000;
    size = 0x1000;
    return true;
  };
  CHECK(perLaunchConditions(v));
  CHECK(chooseVariant(k, 1, args, &lookup, &s) == 0);
  Selection sel = finishSelection(k, ShapeDecision{{""}}, s, args, &lookup);
  CHECK(sel.variant == 0);
  VariantArgs buf;
  void **p = variantArgs(k, v, s, args, buf, &lookup);
  CHECK(p[0] == args[0]);
  CHECK(p[1] == args[1]);
  CHECK(*static_cast<uint32_t *>(p[2]) == 64);
  CHECK(*static_cast<uint64_t *>(p[3]) == 0x11000);
  ExtraParams heap;
  void **q = variantParams(k, v, s, args, heap, &lookup);
  CHECK(*static_cast<uint64_t *>(q[3]) == 0x11000);
  // A pointer in no allocation: the condition fails, with its reason; the
  // arguments (were a caller to build them anyway) carry 0, which the clone
  // reads as "no row fits".
  ptr = 0x20000;
  CHECK(chooseVariant(k, 1, args, &lookup, &s) == -1);
  sel = finishSelection(k, ShapeDecision{{""}}, s, args, &lookup);
  CHECK(sel.variant == -1);
  REQUIRE(sel.rejected.size() == 1);
  CHECK(sel.rejected[0] == "k$staged: param 1 (0x20000) is in no known allocation");
  p = variantArgs(k, v, s, args, buf, &lookup);
  CHECK(*static_cast<uint64_t *>(p[3]) == 0);
  // No lookup, no argument array: the condition fails.
  ptr = 0x10040;
  CHECK(chooseVariant(k, 1, args, nullptr, &s) == -1);
  CHECK(chooseVariant(k, 1, nullptr, &lookup, &s) == -1);
  CHECK(calls > 0);
}

TEST_CASE("mask: variantArgs, the launch path's arguments: inline where they fit, else on the heap", "[runtime]") {
  Variant v;
  v.name = "k$merged";
  v.extraArgs = {DimSource{DimSource::From::Grid, 0, 1, 0, false}};
  KernelManifest k{"k", {8, 8}, {v}};
  LaunchShape s{{77, 1, 1}, {128, 1, 1}, 0};
  uint64_t a = 1, b = 2;
  void *args[kInlineParams] = {&a, &b};
  VariantArgs buf;
  void **p = variantArgs(k, v, s, args, buf);
  REQUIRE(p == buf.pointers);
  CHECK(buf.extra.pointers.empty());
  CHECK((p[0] == &a && p[1] == &b));
  CHECK(*static_cast<uint32_t *>(p[2]) == 77);
  // No extra arguments: the launch's own array.
  KernelManifest plain{"k", {8, 8}, {Variant{}}};
  VariantArgs unused;
  CHECK(variantArgs(plain, plain.variants[0], s, args, unused) == args);
  // More arguments than fit inline: buf.extra holds them.
  k.paramSizes.assign(kInlineParams, 8);
  VariantArgs big;
  void **q = variantArgs(k, v, s, args, big);
  REQUIRE(q == big.extra.pointers.data());
  REQUIRE(big.extra.pointers.size() == kInlineParams + 1);
  CHECK(q[0] == &a);
  CHECK(*static_cast<uint32_t *>(q[kInlineParams]) == 77);
}

TEST_CASE("mask cache: found after storing, other shapes are misses", "[runtime]") {
  auto cache = std::make_unique<ShapeMaskCache>();
  LaunchShape s{{64, 1, 1}, {128, 1, 1}, 0};
  uint64_t m = 0;
  CHECK_FALSE(cache->find(s, m));
  cache->store(s, 0b101);
  REQUIRE(cache->find(s, m));
  CHECK(m == 0b101);
  // Dynamic shared memory is part of the key; a stored 0 (the original) is
  // a hit too.
  LaunchShape t = s;
  t.sharedBytes = 16;
  CHECK_FALSE(cache->find(t, m));
  cache->store(t, 0);
  REQUIRE(cache->find(t, m));
  CHECK(m == 0);
  // More shapes than slots: each lookup is a miss or the shape's own mask,
  // never another shape's.
  auto maskOf = [](const LaunchShape &x) { return uint64_t(x.grid[0]) * 31 + x.block[0]; };
  for (uint32_t g = 1; g <= 4 * ShapeMaskCache::kSlots; ++g) cache->store({{g, 1, 1}, {32, 1, 1}, 0}, maskOf({{g, 1, 1}, {32, 1, 1}, 0}));
  size_t hits = 0;
  for (uint32_t g = 1; g <= 4 * ShapeMaskCache::kSlots; ++g) {
    LaunchShape x{{g, 1, 1}, {32, 1, 1}, 0};
    if (cache->find(x, m)) {
      ++hits;
      REQUIRE(m == maskOf(x));
    }
  }
  CHECK(hits > ShapeMaskCache::kSlots / 2);  // the most recent shapes stay
  CHECK(hits <= ShapeMaskCache::kSlots);
}

TEST_CASE("mask cache: many threads storing and finding", "[runtime]") {
  auto cache = std::make_unique<ShapeMaskCache>();
  auto maskOf = [](const LaunchShape &x) {
    return (uint64_t(x.grid[0]) << 32) ^ (uint64_t(x.grid[1]) << 16) ^ x.block[0] ^ (uint64_t(x.sharedBytes) << 48);
  };
  std::atomic<long> wrong{0}, hits{0};
  std::vector<std::thread> ts;
  for (int t = 0; t < 8; ++t)
    ts.emplace_back([&, t] {
      std::mt19937 rng(t);
      for (int i = 0; i < 40000; ++i) {
        // 1000 shapes over 256 slots: constant replacement.
        uint32_t n = rng() % 1000;
        LaunchShape x{{1 + n, 1 + n % 7, 1}, {32 * (1 + n % 4), 1, 1}, n % 3};
        uint64_t m;
        if (cache->find(x, m)) {
          ++hits;
          if (m != maskOf(x)) ++wrong;
        } else {
          cache->store(x, maskOf(x));
        }
      }
    });
  for (auto &t : ts) t.join();
  CHECK(wrong == 0);
  CHECK(hits > 0);
}

TEST_CASE("choose: a row floor is checked before the allocations (no driver call for a launch under it)",
          "[runtime]") {
  // rowwalk's staged clones of kmeans' invert_mapping: the stores' pointer
  // and the rows' in different allocations, rows of at least 256 elements.
  // A launch with 34 features fails the floor: the allocation lookup (two
  // driver calls in the shim) is never asked.
  Variant staged;
  staged.name = "k$staged";
  staged.disjointParams = {{1, 0}};
  staged.minParams = {{3, 256}};
  KernelManifest k{"k", {8, 8, 4, 4}, {staged}};
  uint64_t in = 0x7f0000000000, out = 0x7f0000100000;
  int32_t np = 65536, nf = 34;
  void *args[4] = {&in, &out, &np, &nf};
  int lookups = 0;
  AllocationLookup lookup = [&](uint64_t ptr, uint64_t &base, uint64_t &size) {
    ++lookups;
    size = uint64_t(1) << 20;
    base = ptr & ~(size - 1);
    return true;
  };
  CHECK(chooseVariant(k, 0b1, args, &lookup) == -1);
  CHECK(lookups == 0);
  // Above the floor: the allocations decide (two lookups), and the clone runs.
  nf = 256;
  CHECK(chooseVariant(k, 0b1, args, &lookup) == 0);
  CHECK(lookups == 2);
  // The same allocation: the original.
  out = in + 64;
  CHECK(chooseVariant(k, 0b1, args, &lookup) == -1);
}
