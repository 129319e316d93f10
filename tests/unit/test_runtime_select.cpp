// The runtime's launch selection, cache, autotuning bookkeeping and settings
// with made-up device limits (no GPU, no driver), and the C API's behaviour
// on a machine without a CUDA driver.
#include <catch2/catch.hpp>

#include <dlfcn.h>

#include <atomic>
#include <cstdlib>
#include <fstream>
#include <map>
#include <thread>

#include "ptxopt/runtime/Config.h"
#include "ptxopt/runtime/Select.h"
#ifdef PTXOPT_HAVE_RUNTIME
#include "ptxopt/runtime/ptxopt_runtime.h"
#include "ptxopt/runtime/ptxopt_runtime.hpp"
#endif

using namespace ptxopt;
using namespace ptxopt::rt;

namespace {

Variant remap(const std::string &name = "k$remap") {
  Variant v;
  v.name = name;
  v.pass = "coalesce";
  v.kind = "remap";
  return v;
}

/// grid.x from block.x and block.x from grid.x.
Variant swap() {
  Variant v = remap("k$swap");
  v.kind = "swap";
  v.grid[0] = {DimSource::From::Block, 0};
  v.block[0] = {DimSource::From::Grid, 0};
  return v;
}

/// block.x / 4, blockMultiple.x = 4, param 0 16-byte aligned, no dynamic shared.
Variant group() {
  Variant v = remap("k$group4");
  v.pass = v.kind = "group";
  v.block[0] = {DimSource::From::Block, 0, 4};
  v.blockMultiple = {4, 1, 1};
  v.alignedParams = {{0, 16}};
  v.allowDynamicShared = false;
  return v;
}

KernelManifest kernel(std::vector<Variant> vs) { return {"k", {8, 8, 8}, std::move(vs)}; }

LaunchShape shape(Dims grid, Dims block, uint32_t shared = 0) { return {grid, block, shared}; }

/// Pointer arguments for (a, b, c) in cuLaunchKernel style.
struct Params {
  uint64_t a, b, c;
  void *p[3] = {&a, &b, &c};
  explicit Params(uint64_t a_ = 0x7f0000000000, uint64_t b_ = 0x7f0000100000, uint64_t c_ = 0x7f0000200000)
      : a(a_), b(b_), c(c_) {}
};

const DeviceLimits kH200;  // 1024 threads, block (1024,1024,64), grid (2^31-1,65535,65535)

/// The selection's reason for rejecting variant 0 (after "name: ").
std::string reason0(const Selection &s) {
  REQUIRE(!s.rejected.empty());
  return s.rejected[0].substr(s.rejected[0].find(": ") + 2);
}

Selection select1(const Variant &v, const LaunchShape &s, uint32_t maxThreads = 1024, Params p = Params()) {
  return selectVariant(kernel({v}), s, kH200, {maxThreads}, p.p);
}

/// A manifest field travels through the JSON: variant `v` comes back equal,
/// its JSON holds `text`, and the JSON of `plain` (the field at 0) has no
/// `key` at all.
void checkFieldTravels(const Variant &v, const std::string &text, const Variant &plain, const std::string &key) {
  KernelManifest k = kernel({v});
  std::string json = toJson(k);
  CHECK(json.find(text) != std::string::npos);
  KernelManifest back;
  std::string error;
  REQUIRE(fromJson(json, back, error));
  CHECK(back == k);
  CHECK(toJson(kernel({plain})).find(key) == std::string::npos);
}

}  // namespace

TEST_CASE("select: the launch transform", "[runtime]") {
  LaunchShape s = shape({512, 3, 1}, {256, 2, 1}, 64);
  CHECK(transformLaunch(remap(), s) == s);
  LaunchShape t = transformLaunch(swap(), s);
  CHECK(t.grid == Dims{256, 3, 1});
  CHECK(t.block == Dims{512, 2, 1});
  CHECK(t.sharedBytes == 64);
  CHECK(transformLaunch(group(), s).block == Dims{64, 2, 1});
}

TEST_CASE("select: every condition holding chooses the variant", "[runtime]") {
  Selection s = select1(swap(), shape({512, 1, 1}, {256, 1, 1}));
  CHECK(s.variant == 0);
  CHECK(s.launch == shape({256, 1, 1}, {512, 1, 1}));
  CHECK(s.rejected.empty());
}

TEST_CASE("select: each failing condition gives the original and its reason", "[runtime]") {
  Variant v = remap();
  SECTION("grid multiple") {
    v.gridMultiple = {1, 2, 1};
    Selection s = select1(v, shape({8, 3, 1}, {32, 1, 1}));
    CHECK(s.variant == -1);
    CHECK(reason0(s) == "grid.y=3 is not a multiple of 2");
  }
  SECTION("block multiple") {
    v.blockMultiple = {4, 1, 1};
    CHECK(reason0(select1(v, shape({8, 1, 1}, {50, 1, 1}))) == "block.x=50 is not a multiple of 4");
    CHECK(select1(v, shape({8, 1, 1}, {48, 1, 1})).variant == 0);
  }
  SECTION("block minimum") {
    v.blockMin = {1, 1, 2};
    CHECK(reason0(select1(v, shape({8, 1, 1}, {32, 1, 1}))) == "block.z=1 is below the minimum 2");
  }
  SECTION("a division that does not come out even") {
    v.grid[1] = {DimSource::From::Grid, 1, 3};
    CHECK(reason0(select1(v, shape({8, 10, 1}, {32, 1, 1}))) == "grid.y=10 is not a multiple of 3");
    CHECK(select1(v, shape({8, 9, 1}, {32, 1, 1})).launch.grid == Dims{8, 3, 1});
  }
  SECTION("transformed grid above the device limit") {
    v.grid[1] = {DimSource::From::Grid, 0};  // grid.y from grid.x
    CHECK(reason0(select1(v, shape({70000, 1, 1}, {32, 1, 1}))) ==
          "transformed grid.y=70000 exceeds the device limit 65535");
  }
  SECTION("transformed block with too many threads") {
    Variant w = swap();
    CHECK(reason0(select1(w, shape({64, 1, 1}, {32, 32, 1}))) ==
          "transformed block has 2048 threads, more than the device limit 1024");
  }
  SECTION("the clone's own thread limit") {
    Selection s = select1(v, shape({8, 1, 1}, {1024, 1, 1}), 768);
    CHECK(s.variant == -1);
    CHECK(reason0(s) == "transformed block has 1024 threads, more than the clone's limit 768");
  }
  SECTION("dynamic shared memory forbidden") {
    v.allowDynamicShared = false;
    CHECK(reason0(select1(v, shape({8, 1, 1}, {32, 1, 1}, 256))) ==
          "dynamic shared memory (256 bytes) is not allowed");
    CHECK(select1(v, shape({8, 1, 1}, {32, 1, 1}, 0)).variant == 0);
    CHECK(select1(remap(), shape({8, 1, 1}, {32, 1, 1}, 256)).variant == 0);  // allowed by default
  }
  SECTION("a misaligned pointer") {
    v.alignedParams = {{0, 16}};
    CHECK(reason0(select1(v, shape({8, 1, 1}, {32, 1, 1}), 1024, Params(0x7f0000000004))) ==
          "param 0 (0x7f0000000004) is not 16-byte aligned");
  }
}

TEST_CASE("select: a swap whose block would exceed 1024 threads falls back", "[runtime]") {
  Selection s = select1(swap(), shape({65536, 1, 1}, {1024, 1, 1}));
  CHECK(s.variant == -1);
  CHECK(s.launch == shape({65536, 1, 1}, {1024, 1, 1}));  // the original launch, untouched
  CHECK(s.rejected == std::vector<std::string>{"k$swap: transformed block.x=65536 exceeds the device limit 1024"});
  CHECK(select1(swap(), shape({1024, 1, 1}, {1024, 1, 1})).variant == 0);
  CHECK(select1(swap(), shape({1025, 1, 1}, {1024, 1, 1})).variant == -1);
}

TEST_CASE("select: a group clone keeps blocks of minBlockThreads or more", "[runtime]") {
  Variant v = group();
  v.minBlockThreads = 64;
  // 256 / 4 = 64 threads: allowed; 128 / 4 = 32: the original.
  CHECK(select1(v, shape({1024, 1, 1}, {256, 1, 1}), 1024, Params(0x7f0000000010)).variant == 0);
  Selection small = select1(v, shape({1024, 1, 1}, {128, 1, 1}), 1024, Params(0x7f0000000010));
  CHECK(small.variant == -1);
  CHECK(reason0(small) == "transformed block has 32 threads, fewer than the clone's minimum 64");
  // The other block dimensions count: 32 x 8 / 4 = 64.
  CHECK(select1(v, shape({1024, 1, 1}, {32, 8, 1}), 1024, Params(0x7f0000000010)).variant == 0);
  // The field travels through the JSON (and is absent when 0).
  checkFieldTravels(v, "\"minBlockThreads\":64", group(), "minBlockThreads");
}

TEST_CASE("select: a remap clone over a grid index runs launches of fewer than 2^32 threads", "[runtime]") {
  Variant v = remap("k$remap");
  v.maxLaunchThreads = UINT32_MAX;
  // 2^22 blocks of 1024 = 2^32 threads: one too many; 2^32 - 1024 fits.
  Selection big = select1(v, shape({1u << 22, 1, 1}, {1024, 1, 1}));
  CHECK(big.variant == -1);
  CHECK(reason0(big) == "the launch has more than 4294967295 threads (the clone's maximum)");
  CHECK(select1(v, shape({(1u << 22) - 1, 1, 1}, {1024, 1, 1})).variant == 0);
  // Every dimension counts, and the product cannot wrap around 64 bits.
  CHECK(select1(v, shape({65536, 256, 1}, {256, 1, 1})).variant == -1);
  CHECK(select1(v, shape({2147483647u, 65535, 65535}, {1024, 1, 1})).variant == -1);
  CHECK(select1(v, shape({1000, 10, 4}, {32, 4, 2})).variant == 0);
  // The field travels through the JSON (and is absent when 0).
  checkFieldTravels(v, "\"maxLaunchThreads\":4294967295", remap("k$remap"), "maxLaunchThreads");
}

TEST_CASE("select: group falls back on a misaligned pointer, runs on an aligned one", "[runtime]") {
  LaunchShape s = shape({1024, 1, 1}, {256, 1, 1});
  Selection bad = select1(group(), s, 1024, Params(0x7f0000000001));
  CHECK(bad.variant == -1);
  CHECK(reason0(bad) == "param 0 (0x7f0000000001) is not 16-byte aligned");
  Selection good = select1(group(), s, 1024, Params(0x7f0000000010));
  CHECK(good.variant == 0);
  CHECK(good.launch.block == Dims{64, 1, 1});
  CHECK(good.launch.grid == Dims{1024, 1, 1});
  // Only the aligned parameter matters.
  CHECK(select1(group(), s, 1024, Params(0x7f0000000010, 0x3, 0x5)).variant == 0);
}

TEST_CASE("select: 32-bit pointer parameters are read with their size", "[runtime]") {
  KernelManifest k = kernel({group()});
  k.paramSizes = {4, 4, 4};
  uint32_t a = 0x1000, b = 0, c = 0;
  void *p[3] = {&a, &b, &c};
  CHECK(selectVariant(k, shape({8, 1, 1}, {64, 1, 1}), kH200, {1024}, p).variant == 0);
  a = 0x1008;
  CHECK(selectVariant(k, shape({8, 1, 1}, {64, 1, 1}), kH200, {1024}, p).variant == -1);
}

TEST_CASE("select: missing arguments never choose an aligned variant", "[runtime]") {
  KernelManifest k = kernel({group()});
  Selection s = selectVariant(k, shape({8, 1, 1}, {64, 1, 1}), kH200, {1024}, nullptr);
  CHECK(s.variant == -1);
  CHECK(reason0(s) == "param 0 was not given");
}

TEST_CASE("select: the first variant fails, the second is chosen", "[runtime]") {
  KernelManifest k = kernel({group(), swap(), remap()});
  Params p;
  Selection s = selectVariant(k, shape({512, 1, 1}, {50, 1, 1}), kH200, {1024, 1024, 1024}, p.p);
  CHECK(s.variant == 1);
  CHECK(s.launch == shape({50, 1, 1}, {512, 1, 1}));
  CHECK(s.rejected == std::vector<std::string>{"k$group4: block.x=50 is not a multiple of 4"});
  // With the swap out of bounds too, the third (remap) runs.
  Selection t = selectVariant(k, shape({4096, 1, 1}, {50, 1, 1}), kH200, {1024, 1024, 1024}, p.p);
  CHECK(t.variant == 2);
  CHECK(t.rejected.size() == 2);
  CHECK(describeSelection(k, shape({4096, 1, 1}, {50, 1, 1}), t) ==
        "k grid=(4096,1,1) block=(50,1,1) shared=0 -> k$remap (remap); rejected "
        "k$group4: block.x=50 is not a multiple of 4; "
        "k$swap: transformed block.x=4096 exceeds the device limit 1024");
}

TEST_CASE("select: log lines", "[runtime]") {
  KernelManifest k = kernel({swap()});
  Params p;
  LaunchShape s = shape({512, 1, 1}, {256, 1, 1});
  CHECK(describeSelection(k, s, selectVariant(k, s, kH200, {1024}, p.p)) ==
        "k grid=(512,1,1) block=(256,1,1) shared=0 -> k$swap (swap) grid=(256,1,1) block=(512,1,1)");
  KernelManifest none = kernel({});
  CHECK(describeSelection(none, s, selectVariant(none, s, kH200, {}, p.p)) ==
        "k grid=(512,1,1) block=(256,1,1) shared=0 -> original; no variants");
}

TEST_CASE("select: other device limits", "[runtime]") {
  DeviceLimits small;
  small.maxBlock = {512, 512, 64};
  small.maxThreadsPerBlock = 512;
  KernelManifest k = kernel({swap()});
  Params p;
  Selection s = selectVariant(k, shape({1024, 1, 1}, {256, 1, 1}), small, {512}, p.p);
  CHECK(s.variant == -1);
  CHECK(reason0(s) == "transformed block.x=1024 exceeds the device limit 512");
}

TEST_CASE("select: a bad manifest entry is rejected, never trusted", "[runtime]") {
  Variant v = remap();
  v.grid[0].dim = 5;
  CHECK(select1(v, shape({8, 1, 1}, {32, 1, 1})).variant == -1);
  Variant w = group();
  w.alignedParams = {{7, 16}};  // no such parameter
  CHECK(reason0(select1(w, shape({8, 1, 1}, {32, 1, 1}))) == "param 7 is not in the manifest");
}

TEST_CASE("cache: one decision per shape, alignment still per launch", "[runtime]") {
  KernelManifest k = kernel({group()});
  ShapeCache cache;
  int made = 0;
  auto get = [&](const LaunchShape &s, bool *inserted) {
    return cache.get(
        s,
        [&] {
          ++made;
          return std::make_shared<ShapeEntry>(decideShape(k, s, kH200, {1024}));
        },
        inserted);
  };
  LaunchShape s = shape({64, 1, 1}, {128, 1, 1});
  bool inserted = false;
  auto e1 = get(s, &inserted);
  CHECK(inserted);
  auto e2 = get(s, &inserted);
  CHECK_FALSE(inserted);
  CHECK(e1 == e2);
  CHECK(made == 1);
  CHECK(cache.hits() == 1);
  CHECK(cache.misses() == 1);
  // Same shape, different pointer: same cached entry, different choice.
  CHECK(finishSelection(k, e1->decision, s, Params(0x1000).p).variant == 0);
  CHECK(finishSelection(k, e1->decision, s, Params(0x1004).p).variant == -1);
  // Dynamic shared memory is part of the shape.
  auto e3 = get(shape({64, 1, 1}, {128, 1, 1}, 16), &inserted);
  CHECK(inserted);
  CHECK(e3 != e1);
  CHECK(finishSelection(k, e3->decision, shape({64, 1, 1}, {128, 1, 1}, 16), Params(0x1000).p).variant == -1);
  CHECK(cache.size() == 2);
}

TEST_CASE("cache: full cache starts over", "[runtime]") {
  ShapeCache cache(2);
  auto make = [] { return std::make_shared<ShapeEntry>(ShapeDecision{}); };
  cache.get(shape({1, 1, 1}, {1, 1, 1}), make);
  cache.get(shape({2, 1, 1}, {1, 1, 1}), make);
  CHECK(cache.size() == 2);
  cache.get(shape({3, 1, 1}, {1, 1, 1}), make);
  CHECK(cache.size() == 1);
}

TEST_CASE("cache: many threads, one entry per shape", "[runtime]") {
  ShapeCache cache;
  std::atomic<int> made{0};
  std::vector<std::thread> ts;
  std::vector<std::shared_ptr<ShapeEntry>> seen(8 * 100);
  for (int t = 0; t < 8; ++t)
    ts.emplace_back([&, t] {
      for (int i = 0; i < 100; ++i)
        seen[t * 100 + i] = cache.get(shape({uint32_t(i % 10 + 1), 1, 1}, {32, 1, 1}), [&] {
          ++made;
          return std::make_shared<ShapeEntry>(ShapeDecision{});
        });
    });
  for (auto &t : ts) t.join();
  CHECK(made == 10);
  CHECK(cache.size() == 10);
  CHECK(cache.hits() + cache.misses() == 800);
  for (int i = 0; i < 800; ++i) CHECK(seen[i] == seen[i % 100]);
}

TEST_CASE("autotune: alternates, then keeps the faster by median", "[runtime]") {
  Autotuner t(3);
  std::vector<bool> clones;
  for (int i = 0; i < 6; ++i) {
    Autotuner::Step s = t.next();
    CHECK(s.timed);
    clones.push_back(s.runClone);
  }
  CHECK(clones == std::vector<bool>{false, true, false, true, false, true});
  // All six slots out and no result yet: untimed launches run the clone.
  CHECK_FALSE(t.next().timed);
  CHECK_FALSE(t.record(false, 2.0f));
  CHECK_FALSE(t.record(true, 1.0f));
  CHECK_FALSE(t.record(false, 2.2f));
  CHECK_FALSE(t.record(true, 9.0f));  // one outlier does not move the median
  CHECK_FALSE(t.record(false, 2.1f));
  CHECK(t.decision() == Autotuner::Decision::Undecided);
  CHECK(t.record(true, 1.1f));
  CHECK(t.decision() == Autotuner::Decision::Clone);
  CHECK(t.summary() == "clone 1.1000 ms vs original 2.1000 ms (median of 3 and 3 launches)");
  Autotuner::Step after = t.next();
  CHECK(after.runClone);
  CHECK_FALSE(after.timed);
}

TEST_CASE("autotune: a slower clone loses, failures keep the clone", "[runtime]") {
  Autotuner t(1);
  t.next();
  t.next();
  t.record(false, 1.0f);
  CHECK(t.record(true, 1.5f));
  CHECK(t.decision() == Autotuner::Decision::Original);
  CHECK_FALSE(t.next().runClone);
  Autotuner u(5);
  u.next();
  u.abandon();
  CHECK(u.decision() == Autotuner::Decision::Clone);
  CHECK_FALSE(u.record(false, 1.0f));
}

TEST_CASE("config: environment variables", "[runtime]") {
  std::map<std::string, std::string> env;
  auto get = [&](const char *name) -> const char * {
    auto it = env.find(name);
    return it == env.end() ? nullptr : it->second.c_str();
  };
  Config c = configFrom(get);
  CHECK_FALSE(c.disable);
  CHECK(c.log == 0);
  CHECK_FALSE(c.autotune);
  CHECK(c.autotuneSamples == 5);
  CHECK(c.libcuda == "libcuda.so.1");
  CHECK_FALSE(c.firstLaunchClones);
  CHECK(c.lazyLoading);  // CUDA's default
  CHECK(c.preloadImages);  // on by default
  env = {{"PTXOPT_DISABLE", "1"}, {"PTXOPT_LOG", "2"}, {"PTXOPT_AUTOTUNE", "yes"}, {"PTXOPT_AUTOTUNE_SAMPLES", "9"},
         {"PTXOPT_DEVICE", "1"}, {"PTXOPT_LIBCUDA", "/x/libcuda.so"}, {"CUDA_MODULE_LOADING", "EAGER"}};
  c = configFrom(get);
  CHECK(c.disable);
  CHECK(c.log == 2);
  CHECK(c.autotune);
  CHECK(c.autotuneSamples == 9);
  CHECK(c.device == 1);
  CHECK(c.libcuda == "/x/libcuda.so");
  CHECK_FALSE(c.firstLaunchClones);
  CHECK_FALSE(c.lazyLoading);
  env = {{"PTXOPT_DISABLE", "0"}, {"PTXOPT_LOG", "7"}, {"PTXOPT_AUTOTUNE_SAMPLES", "zero"},
         {"PTXOPT_FIRST_LAUNCH_CLONES", "yes"}, {"CUDA_MODULE_LOADING", "LAZY"}};
  c = configFrom(get);
  CHECK(c.lazyLoading);
  CHECK_FALSE(c.disable);
  CHECK(c.firstLaunchClones);
  CHECK(c.log == 2);
  CHECK(c.autotuneSamples == 5);
  CHECK(c.preloadImages);
  env = {{"PTXOPT_LOG", "on"}, {"PTXOPT_AUTOTUNE_SAMPLES", "0"}, {"PTXOPT_PRELOAD_IMAGES", "0"}};
  c = configFrom(get);
  CHECK_FALSE(c.preloadImages);
  CHECK(c.log == 1);
  CHECK(c.autotuneSamples == 5);
  CHECK(envFlag("TRUE"));
  CHECK_FALSE(envFlag("no"));
  CHECK_FALSE(envFlag(nullptr));
}

#ifdef PTXOPT_HAVE_RUNTIME

namespace {

/// Points the runtime at a driver library that does not exist, for the
/// duration of a test (the machine may have a real one).
struct NoDriver {
  NoDriver() { setenv("PTXOPT_LIBCUDA", "/nonexistent/libcuda.so.1", 1); }
  ~NoDriver() { unsetenv("PTXOPT_LIBCUDA"); }
};

const char kPtx[] = ".version 9.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n\tret;\n}\n";

}  // namespace

TEST_CASE("runtime: loading without a driver fails cleanly", "[runtime]") {
  NoDriver nd;
  ptxopt_module m = reinterpret_cast<ptxopt_module>(0x1);
  CHECK(ptxopt_module_load_ptx(&m, kPtx, sizeof kPtx - 1, nullptr) == PTXOPT_ERROR_NO_DRIVER);
  CHECK(m == nullptr);
  std::string error = ptxopt_last_error();
  CHECK_THAT(error, Catch::Contains("driver"));
  CHECK_THAT(error, Catch::Contains("/nonexistent/libcuda.so.1"));
  ptxopt_options disabled{nullptr, 1, nullptr};
  CHECK(ptxopt_module_load_ptx(&m, kPtx, sizeof kPtx - 1, &disabled) == PTXOPT_ERROR_NO_DRIVER);
  CHECK(ptxopt_module_load_image(&m, kPtx, nullptr) == PTXOPT_ERROR_NO_DRIVER);
  CHECK_THAT(std::string(ptxopt_last_error()), Catch::Contains("driver"));
  CHECK(std::string(ptxopt_status_name(PTXOPT_ERROR_NO_DRIVER)) == "PTXOPT_ERROR_NO_DRIVER");
}

TEST_CASE("runtime: the CUDA stub library is not a driver", "[runtime]") {
  const char *stub = "/usr/local/cuda/lib64/stubs/libcuda.so";
  if (!std::ifstream(stub)) return;  // no toolkit stub on this machine
  setenv("PTXOPT_LIBCUDA", stub, 1);
  ptxopt_module m = nullptr;
  ptxopt_status s = ptxopt_module_load_ptx(&m, kPtx, sizeof kPtx - 1, nullptr);
  unsetenv("PTXOPT_LIBCUDA");
  CHECK(s == PTXOPT_ERROR_NO_DRIVER);
  CHECK(m == nullptr);
  CHECK_THAT(std::string(ptxopt_last_error()), Catch::Contains("failed to initialize: cuInit: CUDA_ERROR_STUB_LIBRARY"));
}

TEST_CASE("runtime: bad arguments", "[runtime]") {
  ptxopt_module m = nullptr;
  CHECK(ptxopt_module_load_ptx(nullptr, kPtx, 1, nullptr) == PTXOPT_ERROR_INVALID_VALUE);
  CHECK(ptxopt_module_load_ptx(&m, nullptr, 1, nullptr) == PTXOPT_ERROR_INVALID_VALUE);
  CHECK(ptxopt_module_load_file(&m, "/nonexistent/file.ptx", nullptr) == PTXOPT_ERROR_IO);
  CHECK_THAT(std::string(ptxopt_last_error()), Catch::Contains("cannot read /nonexistent/file.ptx"));
  CHECK(ptxopt_launch(nullptr, 1, 1, 1, 1, 1, 1, 0, nullptr, nullptr) == PTXOPT_ERROR_INVALID_VALUE);
  ptxopt_kernel k = nullptr;
  CHECK(ptxopt_module_get_kernel(&k, nullptr, "k") == PTXOPT_ERROR_INVALID_VALUE);
  CHECK(ptxopt_module_unload(nullptr) == PTXOPT_SUCCESS);
  CHECK(std::string(ptxopt_kernel_last_variant(nullptr)).empty());
  CHECK(ptxopt_kernel_variant_count(nullptr) == 0);
}

TEST_CASE("runtime: the C++ API throws with the message", "[runtime]") {
  NoDriver nd;
  try {
    ptxopt::rt::Module::fromPtx(kPtx);
    FAIL("no exception");
  } catch (const ptxopt::rt::Error &e) {
    CHECK(e.status() == PTXOPT_ERROR_NO_DRIVER);
    CHECK_THAT(std::string(e.what()), Catch::StartsWith("PTXOPT_ERROR_NO_DRIVER: no CUDA driver"));
  }
}

// ---------------------------------------------------------------------------
// The whole runtime on a fake driver (tests/gpu/fake/fake_cuda.cpp): module
// loading, manifests from the optimizer, the PTX comment and the per-kernel
// globals, launches through the shim, autotuning, threads.
#ifdef PTXOPT_FAKE_CUDA

namespace {

/// The fake driver's test controls, and PTXOPT_LIBCUDA pointing at it.
struct Fake {
  void *lib = nullptr;
  void (*reset)() = nullptr;
  int (*launchCount)() = nullptr;
  const char *(*launch)(int, unsigned *) = nullptr;
  void (*setTime)(const char *, float) = nullptr;
  void (*setMaxThreads)(const char *, int) = nullptr;
  void (*setParamCount)(const char *, int) = nullptr;
  uint32_t (*launchArg)(int, int) = nullptr;
  void (*rejectNextLoads)(int) = nullptr;
  int (*liveModules)() = nullptr;
  int (*primaryRefs)() = nullptr;
  void (*clearCurrent)() = nullptr;

  Fake() {
    setenv("PTXOPT_LIBCUDA", PTXOPT_FAKE_CUDA, 1);
    lib = dlopen(PTXOPT_FAKE_CUDA, RTLD_NOW | RTLD_LOCAL);
    REQUIRE(lib);
    bind(reset, "fake_cuda_reset");
    bind(launchCount, "fake_cuda_launch_count");
    bind(launch, "fake_cuda_launch");
    bind(setTime, "fake_cuda_set_time");
    bind(setMaxThreads, "fake_cuda_set_max_threads");
    bind(setParamCount, "fake_cuda_set_param_count");
    bind(launchArg, "fake_cuda_launch_arg");
    bind(rejectNextLoads, "fake_cuda_reject_next_loads");
    bind(liveModules, "fake_cuda_live_modules");
    bind(primaryRefs, "fake_cuda_primary_refs");
    bind(clearCurrent, "fake_cuda_clear_current");
    reset();
    clearCurrent();
  }
  ~Fake() {
    for (const char *v : {"PTXOPT_LIBCUDA", "PTXOPT_DISABLE", "PTXOPT_AUTOTUNE", "PTXOPT_AUTOTUNE_SAMPLES", "PTXOPT_LOG"})
      unsetenv(v);
    dlclose(lib);
  }
  template <class F>
  void bind(F &f, const char *name) {
    f = reinterpret_cast<F>(dlsym(lib, name));
    REQUIRE(f);
  }
  std::string lastName() { return launch(launchCount() - 1, nullptr); }
  std::vector<unsigned> lastDims() {
    std::vector<unsigned> d(7);
    launch(launchCount() - 1, d.data());
    return d;
  }
};

/// A kernel `k` (3 pointer parameters) and copies k_swap, k_group, k_merged
/// (with a 4th, extra .u32 parameter) as its clones.
std::string ptxWith(const std::string &tail) {
  std::string ptx = ".version 9.0\n.target sm_90\n.address_size 64\n";
  for (std::string name : {"k", "k_swap", "k_group", "k_merged"})
    ptx += ".visible .entry " + name + "(\n\t.param .u64 p0,\n\t.param .u64 p1,\n\t.param .u64 p2" +
           (name == "k_merged" ? ",\n\t.param .u32 p3" : "") + "\n)\n{\n\tret;\n}\n";
  return ptx + tail;
}

std::string manifestFor(std::vector<Variant> vs) {
  Manifest m;
  m.kernels.push_back({"k", {8, 8, 8}, std::move(vs)});
  return toJson(m);
}

Variant named(Variant v, const std::string &name) {
  v.name = name;
  return v;
}

struct Loaded {
  ptxopt_module m = nullptr;
  ptxopt_kernel k = nullptr;
  ~Loaded() { ptxopt_module_unload(m); }
};

void loadImage(Loaded &l, const std::string &ptx, const char *kernelName = "k") {
  REQUIRE(ptxopt_module_load_image(&l.m, ptx.c_str(), nullptr) == PTXOPT_SUCCESS);
  REQUIRE(ptxopt_module_get_kernel(&l.k, l.m, kernelName) == PTXOPT_SUCCESS);
}

ptxopt_status launch(ptxopt_kernel k, Dims g, Dims b, unsigned shared = 0, void **params = nullptr) {
  static Params p;
  return ptxopt_launch(k, g[0], g[1], g[2], b[0], b[1], b[2], shared, nullptr, params ? params : p.p);
}

const std::string kTwoVariants = manifestFor({named(group(), "k_group"), named(swap(), "k_swap")});

}  // namespace

TEST_CASE("fake driver: the manifest comment drives the launches", "[runtime][fake]") {
  Fake fake;
  Loaded l;
  loadImage(l, ptxWith("// @ptxopt-manifest " + kTwoVariants + "\n"));
  CHECK(ptxopt_kernel_variant_count(l.k) == 2);
  CHECK(std::string(ptxopt_kernel_last_variant(l.k)) == "k");  // before any launch
  // group: block.x 256 % 4 == 0, pointer aligned (Params), no dynamic shared.
  REQUIRE(launch(l.k, {512, 1, 1}, {256, 1, 1}) == PTXOPT_SUCCESS);
  CHECK(fake.lastName() == "k_group");
  CHECK(fake.lastDims() == std::vector<unsigned>{512, 1, 1, 64, 1, 1, 0});
  CHECK(std::string(ptxopt_kernel_last_variant(l.k)) == "k_group");
  CHECK(std::string(ptxopt_kernel_last_variant_kind(l.k)) == "group");
  // block.x = 50: group refused, the swap runs with grid and block exchanged.
  REQUIRE(launch(l.k, {512, 1, 1}, {50, 1, 1}) == PTXOPT_SUCCESS);
  CHECK(fake.lastName() == "k_swap");
  CHECK(fake.lastDims() == std::vector<unsigned>{50, 1, 1, 512, 1, 1, 0});
  // Neither: the swap's block would be 65536 threads.
  REQUIRE(launch(l.k, {65536, 1, 1}, {50, 1, 1}) == PTXOPT_SUCCESS);
  CHECK(fake.lastName() == "k");
  CHECK(std::string(ptxopt_kernel_last_variant_kind(l.k)) == "original");
  // Dynamic shared memory: group refused, swap allowed.
  REQUIRE(launch(l.k, {512, 1, 1}, {256, 1, 1}, 128) == PTXOPT_SUCCESS);
  CHECK(fake.lastName() == "k_swap");
  // Misaligned pointer: group refused on this launch only.
  Params odd(0x7f0000000004);
  REQUIRE(launch(l.k, {512, 1, 1}, {256, 1, 1}, 0, odd.p) == PTXOPT_SUCCESS);
  CHECK(fake.lastName() == "k_swap");
  REQUIRE(launch(l.k, {512, 1, 1}, {256, 1, 1}) == PTXOPT_SUCCESS);
  CHECK(fake.lastName() == "k_group");
}

TEST_CASE("fake driver: the clone's own thread limit is read from the driver", "[runtime][fake]") {
  Fake fake;
  fake.setMaxThreads("k_swap", 256);
  Loaded l;
  loadImage(l, ptxWith("// @ptxopt-manifest " + manifestFor({named(swap(), "k_swap")}) + "\n"));
  REQUIRE(launch(l.k, {512, 1, 1}, {128, 1, 1}) == PTXOPT_SUCCESS);
  CHECK(fake.lastName() == "k");  // the swap would need 512 threads
  REQUIRE(launch(l.k, {256, 1, 1}, {128, 1, 1}) == PTXOPT_SUCCESS);
  CHECK(fake.lastName() == "k_swap");
}

TEST_CASE("fake driver: PTXOPT_DISABLE=1 and the disable option run the originals", "[runtime][fake]") {
  Fake fake;
  std::string ptx = ptxWith("// @ptxopt-manifest " + kTwoVariants + "\n");
  ptxopt_options off{nullptr, 1, "off"};
  Loaded a;
  REQUIRE(ptxopt_module_load_image(&a.m, ptx.c_str(), &off) == PTXOPT_SUCCESS);
  REQUIRE(ptxopt_module_get_kernel(&a.k, a.m, "k") == PTXOPT_SUCCESS);
  CHECK(ptxopt_kernel_variant_count(a.k) == 0);
  REQUIRE(launch(a.k, {512, 1, 1}, {256, 1, 1}) == PTXOPT_SUCCESS);
  CHECK(fake.lastName() == "k");
  setenv("PTXOPT_DISABLE", "1", 1);
  Loaded b;
  loadImage(b, ptx);
  REQUIRE(launch(b.k, {512, 1, 1}, {256, 1, 1}) == PTXOPT_SUCCESS);
  CHECK(fake.lastName() == "k");
}

TEST_CASE("fake driver: a bad manifest means the originals, never a failure", "[runtime][fake]") {
  Fake fake;
  SECTION("unparsable comment") {
    Loaded l;
    loadImage(l, ptxWith("// @ptxopt-manifest {\"version\":7}\n"));
    CHECK(ptxopt_kernel_variant_count(l.k) == 0);
    REQUIRE(launch(l.k, {512, 1, 1}, {256, 1, 1}) == PTXOPT_SUCCESS);
    CHECK(fake.lastName() == "k");
  }
  SECTION("a clone that is not in the module is dropped") {
    Loaded l;
    loadImage(l, ptxWith("// @ptxopt-manifest " +
                         manifestFor({named(remap(), "k_missing"), named(swap(), "k_swap")}) + "\n"));
    CHECK(ptxopt_kernel_variant_count(l.k) == 1);
    REQUIRE(launch(l.k, {512, 1, 1}, {256, 1, 1}) == PTXOPT_SUCCESS);
    CHECK(fake.lastName() == "k_swap");
  }
  SECTION("no manifest at all") {
    Loaded l;
    loadImage(l, ptxWith(""));
    CHECK(ptxopt_kernel_variant_count(l.k) == 0);
    REQUIRE(launch(l.k, {512, 1, 1}, {256, 1, 1}) == PTXOPT_SUCCESS);
    CHECK(fake.lastName() == "k");
  }
  SECTION("a kernel the manifest does not list") {
    Loaded l;
    loadImage(l, ptxWith("// @ptxopt-manifest " + kTwoVariants + "\n"), "k_swap");
    CHECK(ptxopt_kernel_variant_count(l.k) == 0);
  }
}

TEST_CASE("fake driver: the per-kernel manifest global", "[runtime][fake]") {
  Fake fake;
  KernelManifest entry{"k", {8, 8, 8}, {named(swap(), "k_swap")}};
  std::string json = toJson(entry), bytes;
  for (unsigned char c : json) bytes += (bytes.empty() ? "" : ", ") + std::to_string(c);
  std::string global = ".visible .global .align 1 .b8 __ptxopt_manifest_k[" + std::to_string(json.size()) +
                       "] = {" + bytes + "};\n";
  Loaded l;
  loadImage(l, ptxWith(global));
  CHECK(ptxopt_kernel_variant_count(l.k) == 1);
  REQUIRE(launch(l.k, {512, 1, 1}, {256, 1, 1}) == PTXOPT_SUCCESS);
  CHECK(fake.lastName() == "k_swap");
  // A global that is not JSON: the original, with a warning.
  Loaded bad;
  loadImage(bad, ptxWith(".visible .global .align 1 .b8 __ptxopt_manifest_k[2] = {1, 2};\n"));
  CHECK(ptxopt_kernel_variant_count(bad.k) == 0);
}

TEST_CASE("fake driver: PTX through the optimizer", "[runtime][fake]") {
  Fake fake;
  Loaded l;
  std::string path = std::string(PTXOPT_SOURCE_DIR) + "/examples/matadd/matadd.ptx";
  REQUIRE(ptxopt_module_load_file(&l.m, path.c_str(), nullptr) == PTXOPT_SUCCESS);
  REQUIRE(ptxopt_module_get_kernel(&l.k, l.m, "_Z10matadd_intPKiS0_Pi") == PTXOPT_SUCCESS);
  int variants = ptxopt_kernel_variant_count(l.k);
  for (Dims g : {Dims{512, 1, 1}, Dims{65536, 1, 1}}) {
    REQUIRE(launch(l.k, g, {1024, 1, 1}) == PTXOPT_SUCCESS);
    // What ran is what the runtime says ran, and a clone only if there are any.
    CHECK(fake.lastName() == ptxopt_kernel_last_variant(l.k));
    if (variants == 0) CHECK(fake.lastName() == "_Z10matadd_intPKiS0_Pi");
    if (g[0] == 65536) CHECK(std::string(ptxopt_kernel_last_variant_kind(l.k)) != "swap");
  }
  // The same file, disabled: no clones.
  Loaded off;
  ptxopt_options o{nullptr, 1, nullptr};
  REQUIRE(ptxopt_module_load_file(&off.m, path.c_str(), &o) == PTXOPT_SUCCESS);
  REQUIRE(ptxopt_module_get_kernel(&off.k, off.m, "_Z10matadd_intPKiS0_Pi") == PTXOPT_SUCCESS);
  CHECK(ptxopt_kernel_variant_count(off.k) == 0);
  // An unknown pass: the optimizer fails, the original PTX is loaded.
  Loaded unknown;
  ptxopt_options bad{"no-such-pass", 0, nullptr};
  REQUIRE(ptxopt_module_load_file(&unknown.m, path.c_str(), &bad) == PTXOPT_SUCCESS);
  REQUIRE(ptxopt_module_get_kernel(&unknown.k, unknown.m, "_Z10matadd_intPKiS0_Pi") == PTXOPT_SUCCESS);
  CHECK(ptxopt_kernel_variant_count(unknown.k) == 0);
}

TEST_CASE("fake driver: pass options after the pipeline", "[runtime][fake]") {
  Fake fake;
  std::string path = std::string(PTXOPT_SOURCE_DIR) + "/examples/matadd/matadd.ptx";
  // -O2 groups the swap clone by 4 (32-bit data); "group-k=2" asks for 2.
  // 2048 x 1024 threads: the group clones' minimum launch (2^21); the swap
  // alone at 1024 x 512 (its block of 1024).
  struct Want {
    const char *spec, *name;
    uint32_t grid, block;
  };
  for (auto [spec, name, grid, block] : {Want{"-O2", "_Z10matadd_intPKiS0_Pi__ptxopt_swap_group4", 2048, 1024},
                                         Want{"-O2;group-k=2", "_Z10matadd_intPKiS0_Pi__ptxopt_swap_group2", 2048, 1024},
                                         Want{"coalesce", "_Z10matadd_intPKiS0_Pi__ptxopt_swap", 1024, 512}}) {
    Loaded l;
    ptxopt_options o{spec, 0, nullptr};
    REQUIRE(ptxopt_module_load_file(&l.m, path.c_str(), &o) == PTXOPT_SUCCESS);
    REQUIRE(ptxopt_module_get_kernel(&l.k, l.m, "_Z10matadd_intPKiS0_Pi") == PTXOPT_SUCCESS);
    REQUIRE(launch(l.k, {grid, 1, 1}, {block, 1, 1}) == PTXOPT_SUCCESS);
    CHECK(fake.lastName() == name);
  }
}

TEST_CASE("fake driver: an unknown or ill-typed pass option is an error", "[runtime][fake]") {
  Fake fake;
  std::string path = std::string(PTXOPT_SOURCE_DIR) + "/examples/matadd/matadd.ptx";
  for (auto [spec, says] : {std::pair<const char *, const char *>{"-O2;grup-k=4", "unknown option 'grup-k'"},
                            {"-O2;group-k=3", "group-k: '3' is not one of 2, 4, 8, 16"},
                            {"-O2;group-k", "group-k needs a value K"},
                            {"-O2;group-gathers=maybe", "group-gathers: 'maybe' is not a boolean"},
                            {"-O2;rowwalk-stages=40", "rowwalk-stages: '40' is not in 2..16"}}) {
    Loaded l;
    ptxopt_options o{spec, 0, nullptr};
    CHECK(ptxopt_module_load_file(&l.m, path.c_str(), &o) == PTXOPT_ERROR_INVALID_VALUE);
    CHECK(l.m == nullptr);
    CHECK_THAT(std::string(ptxopt_last_error()), Catch::Contains(says));
  }
}

TEST_CASE("fake driver: PTX the optimizer cannot parse is loaded as is", "[runtime][fake]") {
  Fake fake;
  Loaded l;
  const char text[] = ".version 9.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n\tret;\n}\n@@@\n";
  REQUIRE(ptxopt_module_load_ptx(&l.m, text, sizeof text - 1, nullptr) == PTXOPT_SUCCESS);
  REQUIRE(ptxopt_module_get_kernel(&l.k, l.m, "k") == PTXOPT_SUCCESS);
}

TEST_CASE("fake driver: the driver rejecting the optimized PTX", "[runtime][fake]") {
  Fake fake;
  std::string path = std::string(PTXOPT_SOURCE_DIR) + "/examples/matadd/matadd.ptx";
  fake.rejectNextLoads(1);
  Loaded l;
  REQUIRE(ptxopt_module_load_file(&l.m, path.c_str(), nullptr) == PTXOPT_SUCCESS);  // the original, retried
  REQUIRE(ptxopt_module_get_kernel(&l.k, l.m, "_Z10matadd_intPKiS0_Pi") == PTXOPT_SUCCESS);
  CHECK(ptxopt_kernel_variant_count(l.k) == 0);
  fake.rejectNextLoads(2);
  Loaded none;
  CHECK(ptxopt_module_load_file(&none.m, path.c_str(), nullptr) == PTXOPT_ERROR_CUDA);
  std::string error = ptxopt_last_error();
  CHECK_THAT(error, Catch::StartsWith("cuModuleLoadDataEx: CUDA_ERROR_INVALID_PTX: a PTX JIT compilation failed"));
  CHECK_THAT(error, Catch::Contains("JIT log: fake ptxas: rejected on purpose"));
  CHECK(ptxopt_last_cuda_result() == 218);  // CUDA_ERROR_INVALID_PTX
}

TEST_CASE("fake driver: errors name the call and the kernel", "[runtime][fake]") {
  Fake fake;
  Loaded l;
  loadImage(l, ptxWith(""));
  ptxopt_kernel k = nullptr;
  CHECK(ptxopt_module_get_kernel(&k, l.m, "nope") == PTXOPT_ERROR_NOT_FOUND);
  CHECK_THAT(std::string(ptxopt_last_error()), Catch::Contains("no kernel 'nope'"));
  CHECK(launch(l.k, {1, 1, 1}, {2048, 1, 1}) == PTXOPT_ERROR_CUDA);
  CHECK_THAT(std::string(ptxopt_last_error()),
             Catch::StartsWith("cuLaunchKernel: CUDA_ERROR_INVALID_VALUE: fake driver error (kernel k grid=(1,1,1)"));
  CHECK(launch(l.k, {0, 1, 1}, {32, 1, 1}) == PTXOPT_ERROR_INVALID_VALUE);
  ptxopt_kernel again = nullptr;
  REQUIRE(ptxopt_module_get_kernel(&again, l.m, "k") == PTXOPT_SUCCESS);
  CHECK(again == l.k);
}

TEST_CASE("fake driver: contexts and unloading", "[runtime][fake]") {
  Fake fake;
  int modules = fake.liveModules(), refs = fake.primaryRefs();
  {
    Loaded l;
    loadImage(l, ptxWith(""));  // no current context: the primary one is retained and made current
    CHECK(fake.liveModules() == modules + 1);
    CHECK(fake.primaryRefs() == refs + 1);
    // A thread without a current context can launch: the module's is used.
    ptxopt_status st = PTXOPT_ERROR_CUDA;
    std::thread([&] { st = launch(l.k, {4, 1, 1}, {32, 1, 1}); }).join();
    CHECK(st == PTXOPT_SUCCESS);
  }
  CHECK(fake.liveModules() == modules);
  CHECK(fake.primaryRefs() == refs);
}

TEST_CASE("fake driver: autotuning keeps the faster kernel", "[runtime][fake]") {
  Fake fake;
  setenv("PTXOPT_AUTOTUNE", "1", 1);
  setenv("PTXOPT_AUTOTUNE_SAMPLES", "3", 1);
  fake.setTime("k", 2.0f);
  fake.setTime("k_swap", 1.0f);
  Loaded l;
  loadImage(l, ptxWith("// @ptxopt-manifest " + manifestFor({named(swap(), "k_swap")}) + "\n"));
  std::vector<std::string> ran;
  for (int i = 0; i < 10; ++i) {
    REQUIRE(launch(l.k, {512, 1, 1}, {256, 1, 1}) == PTXOPT_SUCCESS);
    ran.push_back(fake.lastName());
    CHECK(ran.back() == ptxopt_kernel_last_variant(l.k));
  }
  // Exactly one kernel per launch: original and clone alternate, then the clone stays.
  CHECK(ran == std::vector<std::string>{"k", "k_swap", "k", "k_swap", "k", "k_swap", "k_swap", "k_swap", "k_swap",
                                        "k_swap"});
  CHECK(fake.launchCount() == 10);
  // A slower clone loses for its shape; other shapes are tuned on their own.
  fake.setTime("k_swap", 3.0f);
  for (int i = 0; i < 6; ++i) REQUIRE(launch(l.k, {256, 1, 1}, {256, 1, 1}) == PTXOPT_SUCCESS);
  REQUIRE(launch(l.k, {256, 1, 1}, {256, 1, 1}) == PTXOPT_SUCCESS);
  CHECK(fake.lastName() == "k");
  REQUIRE(launch(l.k, {512, 1, 1}, {256, 1, 1}) == PTXOPT_SUCCESS);
  CHECK(fake.lastName() == "k_swap");
  // A shape that selects the original is never tuned.
  int before = fake.launchCount();
  REQUIRE(launch(l.k, {4096, 1, 1}, {256, 1, 1}) == PTXOPT_SUCCESS);
  CHECK(fake.launchCount() == before + 1);
  CHECK(fake.lastName() == "k");
}

TEST_CASE("fake driver: launches from many threads", "[runtime][fake]") {
  Fake fake;
  Loaded l;
  loadImage(l, ptxWith("// @ptxopt-manifest " + manifestFor({named(swap(), "k_swap")}) + "\n"));
  std::atomic<int> wrong{0};
  std::vector<std::thread> ts;
  for (int t = 0; t < 8; ++t)
    ts.emplace_back([&, t] {
      // Even threads: a shape where the swap runs; odd: one where it cannot.
      Dims g{t % 2 ? 4096u : 512u, 1, 1};
      for (int i = 0; i < 200; ++i) {
        if (launch(l.k, g, {uint32_t(64 + 32 * (i % 4)), 1, 1}) != PTXOPT_SUCCESS) ++wrong;
        if (std::string(ptxopt_kernel_last_variant(l.k)) != (t % 2 ? "k" : "k_swap")) ++wrong;
      }
    });
  for (auto &t : ts) t.join();
  CHECK(wrong == 0);
  CHECK(fake.launchCount() == 8 * 200);
}

#endif  // PTXOPT_FAKE_CUDA

#endif  // PTXOPT_HAVE_RUNTIME

TEST_CASE("select: the split variant (constant block.x, grid.x cut over grid.y)", "[runtime]") {
  Variant v = remap("k$split");
  v.kind = "split";
  v.grid = {DimSource{DimSource::From::Grid, 0, 256}, DimSource{DimSource::From::Block, 0},
            DimSource{DimSource::From::Grid, 2}};
  v.block[0] = DimSource::constant(256);
  v.gridMultiple = {256, 1, 1};
  v.gridMax = {0, 1, 0};
  // 65536 blocks of 1024: grid (256, 1024, 1), block (256, 1, 1).
  Selection s = select1(v, shape({65536, 1, 1}, {1024, 1, 1}));
  CHECK(s.variant == 0);
  CHECK(s.launch == shape({256, 1024, 1}, {256, 1, 1}));
  // grid.x not a multiple of 256.
  CHECK(reason0(select1(v, shape({3000, 1, 1}, {1000, 1, 1}))) == "grid.x=3000 is not a multiple of 256");
  // grid.y is the split's: a 2-D grid falls back.
  CHECK(reason0(select1(v, shape({512, 2, 1}, {128, 1, 1}))) == "grid.y=2 is above the maximum 1");
  // A lower bound on grid.x: below it, the next variant.
  Variant large = v;
  large.gridMin = {32768, 0, 0};
  CHECK(reason0(select1(large, shape({4096, 1, 1}, {1024, 1, 1}))) == "grid.x=4096 is below the minimum 32768");
  CHECK(select1(large, shape({65536, 1, 1}, {1024, 1, 1})).variant == 0);
  // 256 x 8 threads would exceed the device's 1024.
  CHECK(reason0(select1(v, shape({512, 1, 1}, {128, 8, 1}))) ==
        "transformed block has 2048 threads, more than the device limit 1024");
}

namespace {
/// The block-merged group clone: original block, ceil(grid.x / 4) blocks,
/// the original grid.x as an extra argument.
Variant merged() {
  Variant v = group();
  v.name = "k$group4_merged";
  v.kind = "group-merged";
  v.block[0] = {DimSource::From::Block, 0};
  v.grid[0] = {DimSource::From::Grid, 0, 4, 0, true};
  v.minBlockThreads = 64;
  v.extraArgs = {{DimSource::From::Grid, 0}};
  return v;
}
}  // namespace

TEST_CASE("select: a block-merged clone rounds the grid up and needs no grid multiple", "[runtime]") {
  // 1001 blocks of 128: ceil(1001 / 4) = 251 blocks of 128, the block still
  // a multiple of 4 and of 64+ threads.
  LaunchShape s = shape({1001, 2, 1}, {128, 1, 1});
  Selection sel = select1(merged(), s, 1024, Params(0x7f0000000010));
  REQUIRE(sel.variant == 0);
  CHECK(sel.launch.grid == Dims{251, 2, 1});
  CHECK(sel.launch.block == Dims{128, 1, 1});
  CHECK(transformLaunch(merged(), shape({1000, 1, 1}, {128, 1, 1})).grid == Dims{250, 1, 1});
  CHECK(transformLaunch(merged(), shape({1, 1, 1}, {128, 1, 1})).grid == Dims{1, 1, 1});
  // The block must still divide by 4; the pointer must still be aligned.
  CHECK(reason0(select1(merged(), shape({1001, 1, 1}, {126, 1, 1}), 1024, Params(0x7f0000000010))) ==
        "block.x=126 is not a multiple of 4");
  CHECK(select1(merged(), s, 1024, Params(0x7f0000000001)).variant == -1);
  // The plain group clone comes first and wins where its block is big enough.
  KernelManifest k = kernel({group(), merged()});
  k.variants[0].minBlockThreads = 64;
  Params p(0x7f0000000010);
  CHECK(selectVariant(k, shape({1000, 1, 1}, {256, 1, 1}), kH200, {1024, 1024}, p.p).variant == 0);
  CHECK(selectVariant(k, shape({1000, 1, 1}, {128, 1, 1}), kH200, {1024, 1024}, p.p).variant == 1);
}

TEST_CASE("select: a clone for large launches only (minLaunchThreads)", "[runtime]") {
  Variant v = merged();
  v.minLaunchThreads = 1u << 22;
  // 8192 x 8192 pixels in 32 x 8 blocks: 2^26 threads; 1920 x 1080: 2^21.
  CHECK(select1(v, shape({256, 1024, 1}, {32, 8, 1}), 1024, Params(0x7f0000000010)).variant == 0);
  Selection small = select1(v, shape({60, 135, 1}, {32, 8, 1}), 1024, Params(0x7f0000000010));
  CHECK(small.variant == -1);
  CHECK(reason0(small) == "the launch has 2073600 threads, fewer than the clone's minimum 4194304");
  // Exactly the minimum runs it; the largest launches do not wrap around.
  CHECK(select1(v, shape({16384, 1, 1}, {256, 1, 1}), 1024, Params(0x7f0000000010)).variant == 0);
  CHECK(select1(v, shape({2147483644u, 65535, 65535}, {256, 1, 1}), 1024, Params(0x7f0000000010)).variant == 0);
  // The field travels through the JSON (and is absent when 0).
  checkFieldTravels(v, "\"minLaunchThreads\":4194304", merged(), "minLaunchThreads");
}

TEST_CASE("select: extra arguments follow the original's", "[runtime]") {
  KernelManifest k = kernel({group(), merged()});
  LaunchShape s = shape({1001, 2, 1}, {128, 1, 1});
  Params p(0x7f0000000010);
  ExtraParams buf;
  // No extra arguments: the same array.
  CHECK(variantParams(k, k.variants[0], s, p.p, buf) == p.p);
  void **args = variantParams(k, k.variants[1], s, p.p, buf);
  REQUIRE(args != p.p);
  REQUIRE(buf.pointers.size() == 4);
  CHECK(args[0] == p.p[0]);
  CHECK(args[2] == p.p[2]);
  CHECK(*static_cast<uint32_t *>(args[3]) == 1001);  // the ORIGINAL grid.x
  // A launch without an argument array cannot take a variant with extra
  // arguments (even one without aligned parameters).
  Variant v = merged();
  v.alignedParams.clear();
  Selection none = selectVariant(kernel({v}), s, kH200, {1024}, nullptr);
  CHECK(none.variant == -1);
  CHECK(reason0(none) == "it takes 1 extra argument(s) and the launch passed no argument array");
}

TEST_CASE("fake driver: a block-merged clone gets the original grid.x as an extra argument", "[runtime][fake]") {
  Fake fake;
  fake.setParamCount("k_merged", 4);
  fake.setParamCount("k_group", 3);
  Variant g = named(group(), "k_group");
  g.minBlockThreads = 64;
  Loaded l;
  loadImage(l, ptxWith("// @ptxopt-manifest " + manifestFor({g, named(merged(), "k_merged")}) + "\n"));
  Params p(0x7f0000000010, 0x11, 0x22);
  // 128 / 4 = 32 threads: too few for k_group; k_merged runs ceil(1001/4)
  // blocks of 128 and receives 1001 after the three original arguments.
  REQUIRE(launch(l.k, {1001, 1, 1}, {128, 1, 1}, 0, p.p) == PTXOPT_SUCCESS);
  CHECK(fake.lastName() == "k_merged");
  CHECK(fake.lastDims() == std::vector<unsigned>{251, 1, 1, 128, 1, 1, 0});
  const int i = fake.launchCount() - 1;
  CHECK(fake.launchArg(i, 0) == 0x10);
  CHECK(fake.launchArg(i, 1) == 0x11);
  CHECK(fake.launchArg(i, 2) == 0x22);
  CHECK(fake.launchArg(i, 3) == 1001);
  CHECK(std::string(ptxopt_kernel_last_variant_kind(l.k)) == "group-merged");
  // Blocks of 256: the plain group clone, with the original's arguments only.
  REQUIRE(launch(l.k, {1001, 1, 1}, {256, 1, 1}, 0, p.p) == PTXOPT_SUCCESS);
  CHECK(fake.lastName() == "k_group");
  CHECK(fake.launchArg(fake.launchCount() - 1, 2) == 0x22);
  // Under autotuning the clone's launches carry the extra argument too.
  setenv("PTXOPT_AUTOTUNE", "1", 1);
  Loaded t;
  loadImage(t, ptxWith("// @ptxopt-manifest " + manifestFor({named(merged(), "k_merged")}) + "\n"));
  for (int n = 0; n < 8; ++n) REQUIRE(launch(t.k, {1001, 1, 1}, {128, 1, 1}, 0, p.p) == PTXOPT_SUCCESS);
  int merges = 0;
  for (int j = 0; j < fake.launchCount(); ++j)
    if (std::string(fake.launch(j, nullptr)) == "k_merged") {
      ++merges;
      CHECK(fake.launchArg(j, 3) == 1001);
    }
  CHECK(merges >= 2);
}

namespace {
/// The rowwalk lanes clone: grid.x*32, block.x a multiple of 32, params 0
/// and 1 apart from param 2.
Variant lanes() {
  Variant v = remap("k__ptxopt_lanes");
  v.pass = "rowwalk";
  v.kind = "lanes";
  v.grid[0].multiply = 32;
  v.blockMultiple = {32, 1, 1};
  v.disjointParams = {{0, 2}, {1, 2}};
  return v;
}
/// Three allocations of 1 MiB at 0x7f0000000000, 0x7f0000100000, 0x7f0000200000.
const AllocationLookup kThreeAllocations = [](uint64_t ptr, uint64_t &base, uint64_t &size) {
  const uint64_t first = 0x7f0000000000, mib = 0x100000;
  if (ptr < first || ptr >= first + 3 * mib) return false;
  base = first + (ptr - first) / mib * mib;
  size = mib;
  return true;
};
}  // namespace

TEST_CASE("select: multiplied dimensions grow the launch", "[runtime]") {
  LaunchShape s = shape({128, 2, 1}, {256, 1, 1});
  CHECK(transformLaunch(lanes(), s).grid == Dims{4096, 2, 1});
  Variant b = lanes();
  b.grid[0].multiply = 1;
  b.block[0].multiply = 32;
  b.blockMultiple = {1, 1, 1};
  b.blockMax = {32, 0, 0};
  CHECK(transformLaunch(b, shape({100, 1, 1}, {20, 1, 1})).block == Dims{640, 1, 1});
  // Past the device limits: the original runs.
  Params p;
  Selection big = selectVariant(kernel({b}), shape({1, 1, 1}, {32, 2, 1}), kH200, {1024}, p.p, &kThreeAllocations);
  CHECK(big.variant == -1);
  CHECK_THAT(reason0(big), Catch::Contains("transformed block has 2048 threads"));
  Selection wide = selectVariant(kernel({lanes()}), shape({0x7fffffffu, 1, 1}, {32, 1, 1}), kH200, {1024}, p.p,
                                 &kThreeAllocations);
  CHECK(wide.variant == -1);
  CHECK_THAT(reason0(wide), Catch::Contains("exceeds the device limit"));
}

TEST_CASE("select: disjoint parameters need different allocations", "[runtime]") {
  const LaunchShape s = shape({128, 1, 1}, {256, 1, 1});
  // Three different allocations: the clone runs, launched 32 times wider.
  Params apart;
  Selection ok = selectVariant(kernel({lanes()}), s, kH200, {1024}, apart.p, &kThreeAllocations);
  CHECK(ok.variant == 0);
  CHECK(ok.launch.grid == Dims{4096, 1, 1});
  // tmp inside A's allocation (they may overlap): the original.
  Params inA(0x7f0000000000, 0x7f0000100000, 0x7f0000000400);
  Selection overlap = selectVariant(kernel({lanes()}), s, kH200, {1024}, inA.p, &kThreeAllocations);
  CHECK(overlap.variant == -1);
  CHECK(reason0(overlap) == "params 0 and 2 point into the same allocation (they may overlap)");
  // The same pointer twice.
  Params same(0x7f0000000000, 0x7f0000100000, 0x7f0000100000);
  CHECK(reason0(selectVariant(kernel({lanes()}), s, kH200, {1024}, same.p, &kThreeAllocations)) ==
        "params 1 and 2 are the same pointer");
  // An address the driver does not know (host memory, say).
  Params host(0x7f0000000000, 0x7f0000100000, 0x1000);
  CHECK(reason0(selectVariant(kernel({lanes()}), s, kH200, {1024}, host.p, &kThreeAllocations)) ==
        "param 2 (0x1000) is in no known allocation");
  // No lookup at all: never assumed apart.
  CHECK_THAT(reason0(selectVariant(kernel({lanes()}), s, kH200, {1024}, apart.p)),
             Catch::Contains("no allocation lookup"));
  // No argument array.
  CHECK(reason0(selectVariant(kernel({lanes()}), s, kH200, {1024}, nullptr, &kThreeAllocations)) ==
        "param 0 was not given");
  // The next variant (the regacc clone would be one) is taken instead.
  Variant plain = remap("k__ptxopt_regacc");
  Selection next = selectVariant(kernel({lanes(), plain}), s, kH200, {1024, 1024}, inA.p, &kThreeAllocations);
  CHECK(next.variant == 1);
}

TEST_CASE("select: minimum parameter values (the rowwalk clones' row length)", "[runtime]") {
  Variant v = remap("k__ptxopt_lanes");
  v.minParams = {{1, 128}};
  KernelManifest k{"k", {8, 4, 8}, {v}};
  uint64_t a = 0x7f0000000000, c = 0x7f0000200000;
  int32_t rows = 4096;
  void *p[3] = {&a, &rows, &c};
  const LaunchShape s = shape({16, 1, 1}, {256, 1, 1});
  CHECK(selectVariant(k, s, kH200, {1024}, p).variant == 0);
  rows = 127;
  Selection short_ = selectVariant(k, s, kH200, {1024}, p);
  CHECK(short_.variant == -1);
  CHECK(reason0(short_) == "param 1 (127) is below the clone's minimum 128");
  rows = -1;  // read signed
  CHECK(reason0(selectVariant(k, s, kH200, {1024}, p)) == "param 1 (-1) is below the clone's minimum 128");
  // 64-bit integers.
  KernelManifest k8{"k", {8, 8, 8}, {v}};
  int64_t rows8 = int64_t(1) << 40;
  void *p8[3] = {&a, &rows8, &c};
  CHECK(selectVariant(k8, s, kH200, {1024}, p8).variant == 0);
  rows8 = 100;
  CHECK(selectVariant(k8, s, kH200, {1024}, p8).variant == -1);
}

TEST_CASE("select: minimum values of a struct argument's fields (rowwalk on `struct P p`, p.m)", "[runtime]") {
  Variant v = remap("k__ptxopt_staged");
  v.minParams = {{0, 256, 28, 4}, {0, 2, 32, 8}};
  KernelManifest k{"k", {40}, {v}};
  struct P {
    uint64_t a, x, y;
    int32_t n, m;
    int64_t batches;
  } arg{0x7f0000000000, 0x7f0000200000, 0x7f0000400000, 4096, 4096, 3};
  static_assert(sizeof(P) == 40);
  void *p[1] = {&arg};
  const LaunchShape s = shape({16, 1, 1}, {256, 1, 1});
  CHECK(selectVariant(k, s, kH200, {1024}, p).variant == 0);
  arg.m = 255;
  CHECK(reason0(selectVariant(k, s, kH200, {1024}, p)) == "param 0 bytes 28..31 (255) is below the clone's minimum 256");
  arg.m = -7;  // read signed
  CHECK(selectVariant(k, s, kH200, {1024}, p).variant == -1);
  arg.m = 4096;
  arg.batches = 1;  // the 8-byte field
  CHECK(reason0(selectVariant(k, s, kH200, {1024}, p)) == "param 0 bytes 32..39 (1) is below the clone's minimum 2");
  // A field past the argument's end (a manifest that does not match the kernel) fails.
  v.minParams = {{0, 1, 36, 8}};
  CHECK(reason0(selectVariant(KernelManifest{"k", {40}, {v}}, s, kH200, {1024}, p)) ==
        "param 0 has no 8-byte field at byte 36");
}

TEST_CASE("select: a grid-stride loop that may run several times (gridStrideOnce, several)", "[runtime]") {
  Variant v = remap("k__ptxopt_tiledloop");
  Variant::GridStrideOnce g{0, {1}, 1};
  g.several = true;
  g.minBound = 1u << 20;
  v.gridStrideOnce = {g};
  KernelManifest k{"k", {8, 4, 4}, {v}};
  uint64_t a = 0x7f0000000000;
  int32_t n = 1 << 24, h = 64;
  void *p[3] = {&a, &n, &h};
  // 528 blocks of 256: each thread loops 124 times; any grid holds.
  const LaunchShape s = shape({528, 1, 1}, {256, 1, 1}), one = shape({1, 1, 1}, {64, 1, 1});
  CHECK(selectVariant(k, s, kH200, {1024}, p).variant == 0);
  CHECK(chooseVariant(k, 0b1, p, nullptr, &s) == 0);
  CHECK(chooseVariant(k, 0b1, p, nullptr, &one) == 0);
  // The bound under the floor, 2^30 or more, negative: the original.
  n = (1 << 20) - 1;
  CHECK(chooseVariant(k, 0b1, p, nullptr, &s) == -1);
  CHECK(reason0(selectVariant(k, s, kH200, {1024}, p)) ==
        "param 1 (1048575) is under 1048576 (the grid-stride loop's clone pays from there)");
  n = 1 << 30;
  CHECK(chooseVariant(k, 0b1, p, nullptr, &s) == -1);
  CHECK(reason0(selectVariant(k, s, kH200, {1024}, p)) == "param 1 (1073741824) is 2^30 or more (a grid-stride index could wrap)");
  n = (1 << 30) - 1;
  CHECK(chooseVariant(k, 0b1, p, nullptr, &s) == 0);
  n = -5;
  CHECK(chooseVariant(k, 0b1, p, nullptr, &s) == -1);
  // A product: 2^15 * 64 = 2^21; 2^25 * 64 = 2^31 (past the cap, no wrap in the check).
  v.gridStrideOnce[0].params = {1, 2};
  KernelManifest k2{"k", {8, 4, 4}, {v}};
  n = 1 << 15;
  CHECK(chooseVariant(k2, 0b1, p, nullptr, &s) == 0);
  n = 1 << 25;
  CHECK(chooseVariant(k2, 0b1, p, nullptr, &s) == -1);
  // The launch's threads along x still under 2^30.
  n = 1 << 24;
  const LaunchShape big = shape({1u << 22, 1, 1}, {256, 1, 1});
  CHECK(chooseVariant(k, 0b1, p, nullptr, &big) == -1);
  // 32 rows of the width (param 2): 2^24 >= 32 * 2^19 holds, 32 * (2^19 + 1) does not; 0 or less holds.
  v.gridStrideOnce[0].params = {1};
  v.gridStrideOnce[0].perParam = {{2, 32}};
  KernelManifest k3{"k", {8, 4, 4}, {v}};
  h = 1 << 19;
  CHECK(chooseVariant(k3, 0b1, p, nullptr, &s) == 0);
  h = (1 << 19) + 1;
  CHECK(chooseVariant(k3, 0b1, p, nullptr, &s) == -1);
  CHECK(reason0(selectVariant(k3, s, kH200, {1024}, p)) ==
        "param 1 (16777216) is under 32 times param 2 (524289): the clone's tiles would be thin");
  h = -3;
  CHECK(chooseVariant(k3, 0b1, p, nullptr, &s) == 0);
}

TEST_CASE("select: a grid-stride loop runs once (gridStrideOnce)", "[runtime]") {
  Variant v = remap("k__ptxopt_tiledflat");
  v.gridStrideOnce = {{0, {1}}};
  KernelManifest k{"k", {8, 4, 4}, {v}};
  uint64_t a = 0x7f0000000000;
  int32_t n = 32768, h = 64;
  void *p[3] = {&a, &n, &h};
  // 128 blocks of 256 along x: 32768 threads, one per element.
  const LaunchShape s = shape({128, 1, 1}, {256, 1, 1});
  CHECK(selectVariant(k, s, kH200, {1024}, p).variant == 0);
  CHECK(chooseVariant(k, 0b1, p, nullptr, &s) == 0);
  n = 32769;  // a thread would loop twice
  Selection twice = selectVariant(k, s, kH200, {1024}, p);
  CHECK(twice.variant == -1);
  CHECK(reason0(twice) ==
        "the launch's 32768 threads along x are fewer than param 1 (32769): its grid-stride loop would run more than once");
  CHECK(chooseVariant(k, 0b1, p, nullptr, &s) == -1);
  // Zero holds (no iteration); a negative bound fails, as does an unknown launch.
  n = 0;
  CHECK(chooseVariant(k, 0b1, p, nullptr, &s) == 0);
  n = -1;
  CHECK(chooseVariant(k, 0b1, p, nullptr, &s) == -1);
  CHECK(reason0(selectVariant(k, s, kH200, {1024}, p)) == "param 1 (-1) is negative");
  n = 100;
  CHECK(chooseVariant(k, 0b1, p, nullptr) == -1);
  // 2^30 threads along x or more: i + the stride could wrap in 32 bits.
  const LaunchShape big = shape({1u << 22, 1, 1}, {256, 1, 1});
  CHECK(chooseVariant(k, 0b1, p, nullptr, &big) == -1);
  CHECK(reason0(selectVariant(k, big, kH200, {1024}, p)) ==
        "the launch's 1073741824 threads along x are 2^30 or more (a grid-stride index could wrap)");
  // A product of two arguments, along y: grid.y * block.y = 4 * 16 = 64 threads.
  v.gridStrideOnce = {{1, {1, 2}}};
  KernelManifest k2{"k", {8, 4, 4}, {v}};
  const LaunchShape s2 = shape({1, 4, 1}, {1, 16, 1});
  n = 1;
  h = 64;
  CHECK(chooseVariant(k2, 0b1, p, nullptr, &s2) == 0);
  n = 2;  // 128 > 64
  CHECK(chooseVariant(k2, 0b1, p, nullptr, &s2) == -1);
  CHECK(reason0(selectVariant(k2, s2, kH200, {1024}, p)) ==
        "the launch's 64 threads along y are fewer than param 1 (2) * param 2 (64): its grid-stride loop would run more than "
        "once");
  // A product that would wrap 64 bits still fails.
  KernelManifest k8{"k", {8, 8, 8}, {v}};
  int64_t huge = int64_t(1) << 40, huge2 = int64_t(1) << 40;
  void *p8[3] = {&a, &huge, &huge2};
  CHECK(chooseVariant(k8, 0b1, p8, nullptr, &s2) == -1);
  // A compile-time bound (times), alone and times an argument.
  v.gridStrideOnce = {{0, {}, 32768}};
  KernelManifest kc{"k", {8, 4, 4}, {v}};
  CHECK(chooseVariant(kc, 0b1, p, nullptr, &s) == 0);  // 32768 threads
  const LaunchShape fewer = shape({127, 1, 1}, {256, 1, 1});
  CHECK(chooseVariant(kc, 0b1, p, nullptr, &fewer) == -1);
  CHECK(reason0(selectVariant(kc, fewer, kH200, {1024}, p)) ==
        "the launch's 32512 threads along x are fewer than 32768: its grid-stride loop would run more than once");
  v.gridStrideOnce = {{0, {2}, 512}};
  KernelManifest kt{"k", {8, 4, 4}, {v}};
  h = 64;  // 512 * 64 = 32768
  CHECK(chooseVariant(kt, 0b1, p, nullptr, &s) == 0);
  h = 65;
  CHECK(reason0(selectVariant(kt, s, kH200, {1024}, p)) ==
        "the launch's 32768 threads along x are fewer than 512 * param 2 (65): its grid-stride loop would run more than "
        "once");
  v.gridStrideOnce = {{0, {}, uint64_t(1) << 40}};  // past any launch: no wrap in the product
  KernelManifest kb{"k", {8, 4, 4}, {v}};
  CHECK(chooseVariant(kb, 0b1, p, nullptr, &s) == -1);
}

TEST_CASE("select: threads per parameter value (the flat transpose's 32 rows)", "[runtime]") {
  Variant v = remap("k__ptxopt_tiledflat");
  v.threadsPerParam = {{1, 32}};
  KernelManifest k{"k", {8, 4}, {v}};
  uint64_t a = 0x7f0000000000;
  int32_t w = 1000;
  void *p[2] = {&a, &w};
  // 128 blocks of 256: 32768 threads, 32 rows of 1000 and more.
  const LaunchShape s = shape({128, 1, 1}, {256, 1, 1});
  CHECK(selectVariant(k, s, kH200, {1024}, p).variant == 0);
  CHECK(chooseVariant(k, 0b1, p, nullptr, &s) == 0);
  w = 1025;  // 32 * 1025 = 32800 > 32768
  Selection thin = selectVariant(k, s, kH200, {1024}, p);
  CHECK(thin.variant == -1);
  CHECK(reason0(thin) == "the launch's 32768 threads are fewer than 32 times param 1 (1025)");
  CHECK(chooseVariant(k, 0b1, p, nullptr, &s) == -1);
  // An unknown launch (0 threads) fails; a value of 0 or less holds.
  w = 1000;
  CHECK(chooseVariant(k, 0b1, p, nullptr) == -1);
  w = -3;
  CHECK(chooseVariant(k, 0b1, p, nullptr, &s) == 0);
  CHECK(reason0(selectVariant(k, s, kH200, {1024}, nullptr)) == "param 1 was not given");
  // An 8-byte argument whose product with `times` would wrap still fails.
  KernelManifest k8{"k", {8, 8}, {v}};
  int64_t huge = int64_t(1) << 59;  // 32 * 2^59 = 2^64: 0 if multiplied
  void *p8[2] = {&a, &huge};
  CHECK(chooseVariant(k8, 0b1, p8, nullptr, &s) == -1);
  CHECK(selectVariant(k8, s, kH200, {1024}, p8).variant == -1);
}
