// The ptx-nvcc launch shim (runtime/NvccShim.cpp) called as a hook block
// calls it, with a function table of counting fakes instead of cudart: which
// variant each launch runs (the same as ptxopt::rt::selectVariant), from
// many threads launching a kernel for the first time at once, and which
// cudart calls the launch path makes (a clone's attributes only when a
// shape can use the clone; none but the launch for a cached shape).
// Linked with the shim alone (its own copy of the selection logic) and
// Catch2's main (tests/catch_main.cpp).
#include <catch2/catch.hpp>

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <new>
#include <map>
#include <set>
#include <mutex>
#include <string>
#include <thread>

#include "ptxopt/Manifest.h"
#include "ptxopt/runtime/NvccShim.h"
#include "ptxopt/runtime/Select.h"

using namespace ptxopt;
using namespace ptxopt::rt;

// Heap allocations of the calling thread, counted while `countAllocations`
// is set (the launch path must make none for a cached shape).
namespace {
thread_local bool countAllocations = false;
thread_local long allocations = 0;
}  // namespace

void *operator new(size_t n) {
  if (countAllocations) ++allocations;
  if (void *p = std::malloc(n ? n : 1)) return p;
  throw std::bad_alloc();
}
// Not inlined: GCC would pair the inlined free() with operator new (-Wmismatched-new-delete).
__attribute__((noinline)) void operator delete(void *p) noexcept { std::free(p); }
__attribute__((noinline)) void operator delete(void *p, size_t) noexcept { std::free(p); }
// Every other form of new and delete too: one left to the sanitizer's allocator
// pairs its allocation with our free() (Catch allocates with nothrow new).
void *operator new[](size_t n) { return ::operator new(n); }
void *operator new(size_t n, const std::nothrow_t &) noexcept {
  if (countAllocations) ++allocations;
  return std::malloc(n ? n : 1);
}
void *operator new[](size_t n, const std::nothrow_t &t) noexcept { return ::operator new(n, t); }
__attribute__((noinline)) void operator delete[](void *p) noexcept { std::free(p); }
__attribute__((noinline)) void operator delete[](void *p, size_t) noexcept { std::free(p); }
__attribute__((noinline)) void operator delete(void *p, const std::nothrow_t &) noexcept { std::free(p); }
__attribute__((noinline)) void operator delete[](void *p, const std::nothrow_t &) noexcept { std::free(p); }

namespace {

struct Fake {
  std::mutex mu;
  std::map<const void *, std::string> names;  // host address -> device name
  std::map<std::string, uint32_t> maxThreads;  // clone name -> maxThreadsPerBlock (default 1024)
  std::map<std::string, int> attributeReads;   // cudaFuncGetAttributes per name
  std::map<std::string, int> handleReads;      // cudaGetKernel per name
  std::set<std::string> unusable;              // names cudaGetKernel fails for
  std::atomic<long> getKernel{0}, getDevice{0}, deviceAttribute{0}, launches{0}, errorCalls{0};
} fake;

/// A cudaKernel_t here is the address of the name string in Fake::names.
const std::string *nameOf(cudaKernel_t k) { return reinterpret_cast<const std::string *>(k); }

thread_local std::string lastLaunched;
thread_local LaunchShape lastShape;

void fRegister(void **, const char *host, char *, const char *name, int, uint3 *, uint3 *, dim3 *, dim3 *, int *) {
  std::lock_guard<std::mutex> l(fake.mu);
  fake.names[host] = name;
}
cudaError_t fGetKernel(cudaKernel_t *k, const void *host) {
  ++fake.getKernel;
  std::lock_guard<std::mutex> l(fake.mu);
  auto it = fake.names.find(host);
  if (it == fake.names.end()) return cudaErrorInvalidDeviceFunction;
  ++fake.handleReads[it->second];
  if (fake.unusable.count(it->second)) return cudaErrorInvalidDeviceFunction;
  *k = reinterpret_cast<cudaKernel_t>(const_cast<std::string *>(&it->second));
  return cudaSuccess;
}
cudaError_t fLaunch(cudaKernel_t k, dim3 g, dim3 b, void **, size_t shared, cudaStream_t) {
  ++fake.launches;
  lastLaunched = *nameOf(k);
  lastShape = {{g.x, g.y, g.z}, {b.x, b.y, b.z}, uint32_t(shared)};
  return cudaSuccess;
}
cudaError_t fGetDevice(int *d) {
  ++fake.getDevice;
  *d = 0;
  return cudaSuccess;
}
cudaError_t fDeviceAttribute(int *v, cudaDeviceAttr a, int) {
  ++fake.deviceAttribute;
  switch (a) {
    case cudaDevAttrMaxBlockDimX: case cudaDevAttrMaxBlockDimY: *v = 1024; break;
    case cudaDevAttrMaxBlockDimZ: *v = 64; break;
    case cudaDevAttrMaxGridDimX: *v = 2147483647; break;
    case cudaDevAttrMaxGridDimY: case cudaDevAttrMaxGridDimZ: *v = 65535; break;
    case cudaDevAttrMaxThreadsPerBlock: *v = 1024; break;
    default: return cudaErrorInvalidValue;
  }
  return cudaSuccess;
}
cudaError_t fFuncAttributes(cudaFuncAttributes *a, const void *host) {
  std::lock_guard<std::mutex> l(fake.mu);
  auto it = fake.names.find(host);
  if (it == fake.names.end()) return cudaErrorInvalidDeviceFunction;
  std::memset(a, 0, sizeof *a);
  ++fake.attributeReads[it->second];
  auto m = fake.maxThreads.find(it->second);
  a->maxThreadsPerBlock = m == fake.maxThreads.end() ? 1024 : int(m->second);
  return cudaSuccess;
}
std::atomic<long> fatbins{0};
std::vector<const void *> fatbinData;  // what each registerFatBinary got (under fake.mu)
void **fRegisterFatBinary(void *wrapper) {
  ++fatbins;
  struct Wrapper {
    int magic, version;
    const unsigned long long *data;
    void *rest;
  };
  std::lock_guard<std::mutex> l(fake.mu);
  auto *w = static_cast<const Wrapper *>(wrapper);
  fatbinData.push_back(w->magic == 0x466243B1 && w->version == 1 ? w->data : nullptr);
  static void *handles[256];  // cudart keeps its handles to the end; so do we, without leaking them
  return &handles[fatbinData.size() % 256];
}
void fRegisterFatBinaryEnd(void **) {}
cudaError_t fPeek() {
  ++fake.errorCalls;
  return cudaSuccess;
}
cudaError_t fGetLast() {
  ++fake.errorCalls;
  return cudaSuccess;
}
const char *fErrorName(cudaError_t) { return "cudaErrorFake"; }

const ptxopt_nvcc_cudart table = {1,          fRegister,  fGetKernel,      fLaunch, fLaunch, fGetDevice, fDeviceAttribute,
                                  fFuncAttributes, fPeek, fGetLast, fErrorName, nullptr, nullptr, nullptr, 0, nullptr};

Variant variant(const std::string &name) {
  Variant v;
  v.name = name;
  v.kind = "test";
  return v;
}

/// Kernel "k" with four clones: `never` (block.x a multiple of 3), `aligned`
/// (parameter 0 16-byte aligned, block.x / 2, grid.x * 2 via the grid from
/// block), `swap` (grid and block exchanged; its cudart limit 256 threads)
/// and `last` (no condition: only reached when swap fails).
KernelManifest manifest() {
  Variant never = variant("k$never");
  never.blockMultiple = {3, 1, 1};
  Variant aligned = variant("k$aligned");
  aligned.alignedParams = {{0, 16}};
  aligned.blockMultiple = {2, 1, 1};
  aligned.block[0] = {DimSource::From::Block, 0, 2};
  aligned.minBlockThreads = 32;
  aligned.extraArgs = {DimSource{DimSource::From::Grid, 0, 1, 0, false}};
  aligned.gridMultiple = {1, 1, 1};
  aligned.grid[1] = DimSource::constant(2);  // the grid doubled over y
  Variant swap = variant("k$swap");
  swap.grid[0] = {DimSource::From::Block, 0};
  swap.block[0] = {DimSource::From::Grid, 0};
  Variant last = variant("k$last");
  return {"k", {8, 4}, {never, aligned, swap, last}};
}

char hostK;  // the original's host address, as the stub's kernel function

cudaKernel_t setUp() {
  static cudaKernel_t handle = [] {
    // The shim reads its settings once, at its first call: the text-free path.
    unsetenv("PTXOPT_LOG");
    unsetenv("PTXOPT_DISABLE");
    unsetenv("PTXOPT_FIRST_LAUNCH_CLONES");
    unsetenv("CUDA_MODULE_LOADING");  // lazy loading, CUDA's default
    static std::string json = [] {
      Manifest m;
      m.kernels.push_back(manifest());
      return toJson(m);
    }();
    fake.maxThreads["k$swap"] = 256;
    fRegister(nullptr, &hostK, nullptr, "k", 0, nullptr, nullptr, nullptr, nullptr, nullptr);
    __ptxopt_nvcc_register(&table, json.c_str(), nullptr, &hostK, "k");
    cudaKernel_t h = nullptr;
    REQUIRE(__ptxopt_nvcc_get_kernel(&table, &h, &hostK) == cudaSuccess);
    return h;
  }();
  return handle;
}

/// The expected variant name and launch (selectVariant with the fake's
/// limits and each clone's thread limit).
std::pair<std::string, LaunchShape> expected(const LaunchShape &s, void **args) {
  KernelManifest k = manifest();
  Selection sel = selectVariant(k, s, DeviceLimits{}, {1024, 1024, 256, 1024}, args);
  return {sel.variant < 0 ? "k" : k.variants[size_t(sel.variant)].name, sel.launch};
}

/// What ran ("<failed>" when the shim returned an error). No Catch2
/// assertion here: threads call it.
std::pair<std::string, LaunchShape> launch(cudaKernel_t h, const LaunchShape &s, void **args) {
  if (__ptxopt_nvcc_launch(&table, h, dim3(s.grid[0], s.grid[1], s.grid[2]), dim3(s.block[0], s.block[1], s.block[2]),
                           args, s.sharedBytes, nullptr, 0) != cudaSuccess)
    return {"<failed>", s};
  return {lastLaunched, lastShape};
}

}  // namespace

TEST_CASE("nvcc shim: concurrent first launches choose as selectVariant, clones read once and only when usable",
          "[nvcc-shim]") {
  cudaKernel_t h = setUp();
  const std::vector<LaunchShape> shapes = {
      {{8, 1, 1}, {32, 1, 1}, 0},     {{512, 1, 1}, {256, 1, 1}, 0},  {{600, 1, 1}, {128, 1, 1}, 0},
      {{64, 1, 1}, {64, 1, 1}, 16},   {{3000, 1, 1}, {1024, 1, 1}, 0}, {{100, 1, 1}, {80, 1, 1}, 0},
      {{256, 1, 1}, {512, 1, 1}, 0},  {{7, 1, 1}, {2, 1, 1}, 0},      {{1, 1, 1}, {1, 1, 1}, 0}};
  std::atomic<int> ready{0};
  std::atomic<long> mismatches{0};
  std::vector<std::thread> ts;
  for (int t = 0; t < 8; ++t)
    ts.emplace_back([&, t] {
      alignas(16) static uint64_t storage[4];
      uint64_t aligned = reinterpret_cast<uintptr_t>(&storage[0]), misaligned = aligned + 8;
      uint32_t n = 5;
      ++ready;
      while (ready < 8) {
      }
      for (int i = 0; i < 2000; ++i) {
        const LaunchShape &s = shapes[size_t(i + t) % shapes.size()];
        uint64_t a = (i / 3) % 2 ? aligned : misaligned;
        void *args[2] = {&a, &n};
        if (launch(h, s, args) != expected(s, args)) ++mismatches;
      }
    });
  for (auto &t : ts) t.join();
  CHECK(mismatches == 0);
  // No device limit asked of cudart (every GPU CUDA 13 supports has the
  // same); each clone's attributes at most once, never for `never` (no
  // shape can use it), and for `last` (reached where swap fails: the
  // 3000x1024 shape exceeds swap's 256 threads).
  CHECK(fake.deviceAttribute == 0);
  CHECK(fake.getDevice == 0);
  std::lock_guard<std::mutex> l(fake.mu);
  CHECK(fake.attributeReads.count("k$never") == 0);
  CHECK(fake.attributeReads["k$aligned"] == 1);
  CHECK(fake.attributeReads["k$swap"] == 1);
  CHECK(fake.attributeReads["k$last"] == 1);
}

TEST_CASE("nvcc shim: a cached shape costs no cudart call but the launch", "[nvcc-shim]") {
  cudaKernel_t h = setUp();
  alignas(16) uint64_t storage[2] = {};
  uint64_t a = reinterpret_cast<uintptr_t>(&storage[0]);
  uint32_t n = 5;
  void *args[2] = {&a, &n};
  LaunchShape s{{40, 1, 1}, {64, 1, 1}, 0};
  CHECK(launch(h, s, args) == expected(s, args));
  long k0 = fake.getKernel, d0 = fake.getDevice, a0 = fake.deviceAttribute, l0 = fake.launches;
  int reads = 0;
  {
    std::lock_guard<std::mutex> l(fake.mu);
    for (auto &[name, count] : fake.attributeReads) reads += count;
  }
  for (int i = 0; i < 1000; ++i) launch(h, s, args);
  CHECK(fake.launches - l0 == 1000);
  CHECK(fake.getKernel == k0);
  CHECK(fake.getDevice == d0);
  CHECK(fake.deviceAttribute == a0);
  int after = 0;
  std::lock_guard<std::mutex> l(fake.mu);
  for (auto &[name, count] : fake.attributeReads) after += count;
  CHECK(after == reads);
}

TEST_CASE("nvcc shim: a kernel without clones goes straight to cudart", "[nvcc-shim]") {
  static char hostPlain;
  fRegister(nullptr, &hostPlain, nullptr, "plain", 0, nullptr, nullptr, nullptr, nullptr, nullptr);
  cudaKernel_t h = nullptr;
  REQUIRE(__ptxopt_nvcc_get_kernel(&table, &h, &hostPlain) == cudaSuccess);
  long e0 = fake.errorCalls;
  LaunchShape s{{8, 1, 1}, {32, 1, 1}, 0};
  CHECK(launch(h, s, nullptr) == std::make_pair(std::string("plain"), s));
  CHECK(ptxopt_nvcc_last_variant() == nullptr);
  CHECK(fake.errorCalls == e0);
}

TEST_CASE("nvcc shim: a cached shape allocates nothing, argument conditions included", "[nvcc-shim]") {
  // Kernel "r": rowwalk-style clones with argument conditions, `walk`
  // (params 0 and 1 in two allocations: never here, the test has no driver
  // to ask) and `min` (param 2 at least 100), then a plain clone. The
  // reasons they fail with are long texts, built only for PTXOPT_LOG.
  static char hostR;
  static std::string json = [] {
    Variant walk = variant("r$walk");
    walk.disjointParams = {{0, 1}};
    Variant min = variant("r$min");
    min.minParams = {{2, 100}};
    Manifest m;
    m.kernels.push_back({"r", {8, 8, 4}, {walk, min, variant("r$plain")}});
    return toJson(m);
  }();
  setUp();  // the shim's settings: the text-free path
  fRegister(nullptr, &hostR, nullptr, "r", 0, nullptr, nullptr, nullptr, nullptr, nullptr);
  __ptxopt_nvcc_register(&table, json.c_str(), nullptr, &hostR, "r");
  cudaKernel_t h = nullptr;
  REQUIRE(__ptxopt_nvcc_get_kernel(&table, &h, &hostR) == cudaSuccess);
  uint64_t a = 0x7f0000000000, b = 0x7f0000100000;
  int32_t n = 5;
  void *args[3] = {&a, &b, &n};
  const LaunchShape s{{64, 1, 1}, {128, 1, 1}, 0};
  // The first launches resolve the kernel and its clones and store the shape.
  REQUIRE(launch(h, s, args).first == "r$plain");
  n = 200;
  REQUIRE(launch(h, s, args).first == "r$min");
  allocations = 0;
  countAllocations = true;
  int right = 0;
  for (int i = 0; i < 1000; ++i) {
    n = i % 2 ? 5 : 200;
    if (__ptxopt_nvcc_launch(&table, h, dim3(64), dim3(128), args, 0, nullptr, 0) == cudaSuccess &&
        std::strcmp(ptxopt_nvcc_last_variant(), n == 5 ? "r$plain" : "r$min") == 0)
      ++right;
  }
  countAllocations = false;
  CHECK(right == 1000);
  CHECK(allocations == 0);
}

namespace {

/// The fake cudart's table (version 2) with clone images.
ptxopt_nvcc_cudart imageTable(const ptxopt_nvcc_image *images, int count) {
  ptxopt_nvcc_cudart t = table;
  t.version = 2;
  t.registerFatBinary = fRegisterFatBinary;
  t.registerFatBinaryEnd = fRegisterFatBinaryEnd;
  t.images = images;
  t.imageCount = count;
  return t;
}

/// Whether a function of that name was registered with the fake cudart.
bool registered(const char *name) {
  std::lock_guard<std::mutex> l(fake.mu);
  for (auto &[host, n] : fake.names)
    if (n == name) return true;
  return false;
}

/// Launches kernel `h` as a hook block does, grid 4 and block.x `block`;
/// what ran ("<failed>" when the shim returned an error).
std::string launchVariant(const ptxopt_nvcc_cudart &t, cudaKernel_t h, uint32_t block) {
  uint64_t a = 0;
  void *args[1] = {&a};
  return __ptxopt_nvcc_launch(&t, h, dim3(4), dim3(block), args, 0, nullptr, 0) == cudaSuccess
             ? std::string(ptxopt_nvcc_last_variant())
             : std::string("<failed>");
}

}  // namespace

/// Launches kernel `h` with grid.x `grid` and block.x `block`; what ran.
std::string launchGrid(const ptxopt_nvcc_cudart &t, cudaKernel_t h, uint32_t grid, uint32_t block) {
  uint64_t a = 0;
  void *args[1] = {&a};
  return __ptxopt_nvcc_launch(&t, h, dim3(grid), dim3(block), args, 0, nullptr, 0) == cudaSuccess
             ? std::string(ptxopt_nvcc_last_variant())
             : std::string("<failed>");
}

// The settings are the process's: CUDA_MODULE_LOADING unset (lazy loading,
// CUDA's default) and PTXOPT_FIRST_LAUNCH_CLONES unset, so the rent-or-buy
// rule for clone images applies (NvccShim.cpp, imageLoadPays: 60 us; a
// "staged" clone pays at once, a "swap" 5 ps per thread, others 1 ps).

TEST_CASE("nvcc shim: a clone image is registered at start-up, with all its clones, as nvcc's own", "[nvcc-shim]") {
  // Kernel "c" (clone images): `c$never` (block.x a multiple of 3)
  // and `c$img` have images, `c$inline` is in the unit's image.
  static char hostC;
  static const unsigned long long imgNever[2] = {1, 2}, imgImg[2] = {3, 4};
  static const ptxopt_nvcc_image images[] = {{"c$never", imgNever}, {"c$img", imgImg}};
  static std::string json = [] {
    Variant never = variant("c$never");
    never.blockMultiple = {3, 1, 1};
    Variant img = variant("c$img");
    img.blockMultiple = {2, 1, 1};
    img.kind = "staged";  // a row walk: its first launch pays for the image
    Manifest m;
    m.kernels.push_back({"c", {8}, {never, img, variant("c$inline")}});
    return toJson(m);
  }();
  const ptxopt_nvcc_cudart t2 = imageTable(images, 2);
  setUp();
  const long before = fatbins;
  auto reads = [] {
    std::lock_guard<std::mutex> l(fake.mu);
    long n = fake.getKernel + fake.getDevice + fake.deviceAttribute + fake.launches + fake.errorCalls;
    for (auto &[name, count] : fake.attributeReads) n += count;
    return n;
  };
  const long readsBefore = reads();
  fRegister(nullptr, &hostC, nullptr, "c", 0, nullptr, nullptr, nullptr, nullptr, nullptr);
  __ptxopt_nvcc_register(&t2, json.c_str(), nullptr, &hostC, "c");
  // Registration runs the launch path once (warmLaunchPath) for a launch no
  // clone can take: cudart is asked for nothing but the registrations.
  CHECK(reads() == readsBefore);
  CHECK(registered("c$inline"));  // in the unit's image
  CHECK(registered("c$img"));     // in their images, registered right away
  CHECK(registered("c$never"));
  CHECK(fatbins == before + 2);
  {
    std::lock_guard<std::mutex> l(fake.mu);
    CHECK(fatbinData[fatbinData.size() - 2] == imgNever);
    CHECK(fatbinData.back() == imgImg);
  }
  cudaKernel_t h = nullptr;
  REQUIRE(__ptxopt_nvcc_get_kernel(&t2, &h, &hostC) == cudaSuccess);
  auto run = [&](uint32_t block) { return launchVariant(t2, h, block); };
  CHECK(run(64) == "c$img");  // the kernel's first launch runs its clone
  CHECK(run(1) == "c$inline");
  CHECK(run(128) == "c$img");
  CHECK(fatbins == before + 2);  // nothing registered at a launch
}

TEST_CASE("nvcc shim: under lazy loading a clone image is used once the estimated savings pay for its load",
          "[nvcc-shim]") {
  // Kernel "d": `d$img` (block.x a multiple of 2, a group clone: 1 ps per
  // thread) in an image of its own; kernel "s": `s$swap` (5 ps per thread).
  static char hostD, hostS;
  static const unsigned long long imgD[2] = {5, 6}, imgS[2] = {7, 8};
  static const ptxopt_nvcc_image images[] = {{"d$img", imgD}, {"s$swap", imgS}};
  static std::string json = [] {
    Variant img = variant("d$img");
    img.blockMultiple = {2, 1, 1};
    img.kind = "group";
    Variant swap = variant("s$swap");
    swap.kind = "swap";
    Manifest m;
    m.kernels.push_back({"d", {8}, {img}});
    m.kernels.push_back({"s", {8}, {swap}});
    return toJson(m);
  }();
  const ptxopt_nvcc_cudart t2 = imageTable(images, 2);
  setUp();
  fRegister(nullptr, &hostD, nullptr, "d", 0, nullptr, nullptr, nullptr, nullptr, nullptr);
  fRegister(nullptr, &hostS, nullptr, "s", 0, nullptr, nullptr, nullptr, nullptr, nullptr);
  __ptxopt_nvcc_register(&t2, json.c_str(), nullptr, &hostD, "d");
  __ptxopt_nvcc_register(&t2, json.c_str(), nullptr, &hostS, "s");
  cudaKernel_t hd = nullptr, hs = nullptr;
  REQUIRE(__ptxopt_nvcc_get_kernel(&t2, &hd, &hostD) == cudaSuccess);
  REQUIRE(__ptxopt_nvcc_get_kernel(&t2, &hs, &hostS) == cudaSuccess);
  // 2^15 x 2^10 = 33.5M threads: 33.5 us of savings for the group clone
  CHECK(launchGrid(t2, hd, 32768, 1023) == "d");  // no clone could run: counts nothing
  CHECK(launchGrid(t2, hd, 32768, 1024) == "d");  // 33.5 of 60 us: the original, the clone not read
  {
    std::lock_guard<std::mutex> l(fake.mu);
    CHECK(fake.attributeReads["d$img"] == 0);
  }
  CHECK(launchGrid(t2, hd, 32768, 1023) == "d");
  CHECK(launchGrid(t2, hd, 32768, 1024) == "d$img");  // 67 us: the load pays
  CHECK(launchGrid(t2, hd, 4, 64) == "d$img");        // from now on as without images
  CHECK(launchGrid(t2, hd, 4, 1) == "d");
  // 12M threads of a swap clone: 60 us at once
  CHECK(launchGrid(t2, hs, 12000, 1000) == "s$swap");
  CHECK(launchGrid(t2, hs, 4, 64) == "s$swap");
}

TEST_CASE("nvcc shim: one clone image of several kernels is registered once, with all its clones", "[nvcc-shim]") {
  // Kernels "e" (clones e$a, e$b) and "f" (f$a) of one translation unit:
  // their table entries name the same fatbinary.
  static char hostE, hostF;
  static const unsigned long long imgUnit[2] = {7, 8};
  static const ptxopt_nvcc_image images[] = {{"e$a", imgUnit}, {"e$b", imgUnit}, {"f$a", imgUnit}};
  static std::string json = [] {
    Variant ea = variant("e$a"), eb = variant("e$b"), fa = variant("f$a");
    ea.blockMultiple = {2, 1, 1};
    for (Variant *v : {&ea, &eb, &fa}) v->kind = "reuse";
    Manifest m;
    m.kernels.push_back({"e", {8}, {ea, eb}});
    m.kernels.push_back({"f", {8}, {fa}});
    return toJson(m);
  }();
  const ptxopt_nvcc_cudart t2 = imageTable(images, 3);
  setUp();
  const long before = fatbins;
  fRegister(nullptr, &hostE, nullptr, "e", 0, nullptr, nullptr, nullptr, nullptr, nullptr);
  fRegister(nullptr, &hostF, nullptr, "f", 0, nullptr, nullptr, nullptr, nullptr, nullptr);
  __ptxopt_nvcc_register(&t2, json.c_str(), nullptr, &hostE, "e");
  CHECK(fatbins == before);  // f$a is not known yet
  CHECK_FALSE(registered("e$a"));
  __ptxopt_nvcc_register(&t2, json.c_str(), nullptr, &hostF, "f");
  CHECK(fatbins == before + 1);  // now with all three
  CHECK(registered("e$a"));
  CHECK(registered("e$b"));
  CHECK(registered("f$a"));
  cudaKernel_t he = nullptr, hf = nullptr;
  REQUIRE(__ptxopt_nvcc_get_kernel(&t2, &he, &hostE) == cudaSuccess);
  REQUIRE(__ptxopt_nvcc_get_kernel(&t2, &hf, &hostF) == cudaSuccess);
  auto run = [&](cudaKernel_t h, uint32_t block) { return launchVariant(t2, h, block); };
  CHECK(run(he, 64) == "e$a");
  CHECK(run(he, 1) == "e$b");  // e$a's condition fails: e$b, from the same image
  CHECK(run(hf, 64) == "f$a");
  CHECK(fatbins == before + 1);  // once for the three
  std::lock_guard<std::mutex> l(fake.mu);
  CHECK(fatbinData.back() == imgUnit);
}

TEST_CASE("nvcc shim: late clone images, one block linked in after the compile (table version 3)", "[nvcc-shim]") {
  // Kernel "g": g$a (block.x a multiple of 2) and g$b in one image of the
  // block, as ptx-nvcc's fatbinary job writes it (NvccShim.h); kernel "h"
  // of a unit whose block was not linked (null): its clone is looked for in
  // the unit's image, as with no images at all.
  static char hostG, hostH;
  alignas(16) static unsigned char block[96] = {};
  static const unsigned long long *fatbin = [] {
    std::memcpy(block, "PTXONVI1", 8);
    block[8] = 2;                    // two entries
    block[16] = 48, block[24] = 64;  // g$a: name at 48, image at 64
    block[32] = 52, block[40] = 64;  // g$b: name at 52, the same image
    std::memcpy(block + 48, "g$a\0g$b\0", 8);
    return reinterpret_cast<const unsigned long long *>(block + 64);
  }();
  static std::string json = [] {
    Variant a = variant("g$a"), b = variant("g$b");
    a.blockMultiple = {2, 1, 1};
    a.kind = b.kind = "regacc";
    Manifest m;
    m.kernels.push_back({"g", {8}, {a, b}});
    m.kernels.push_back({"h", {8}, {variant("h$a")}});
    return toJson(m);
  }();
  ptxopt_nvcc_cudart t3 = imageTable(nullptr, 0);
  t3.version = 3;
  t3.imageBlob = block;
  ptxopt_nvcc_cudart unlinked = t3;
  unlinked.imageBlob = nullptr;
  setUp();
  const long before = fatbins;
  fRegister(nullptr, &hostG, nullptr, "g", 0, nullptr, nullptr, nullptr, nullptr, nullptr);
  fRegister(nullptr, &hostH, nullptr, "h", 0, nullptr, nullptr, nullptr, nullptr, nullptr);
  __ptxopt_nvcc_register(&t3, json.c_str(), nullptr, &hostG, "g");
  __ptxopt_nvcc_register(&unlinked, json.c_str(), nullptr, &hostH, "h");
  CHECK(registered("g$a"));  // the block's image, registered at start with both clones
  CHECK(registered("g$b"));
  CHECK(registered("h$a"));  // no block: in the unit's image
  CHECK(fatbins == before + 1);
  {
    std::lock_guard<std::mutex> l(fake.mu);
    CHECK(fatbinData.back() == fatbin);
  }
  cudaKernel_t h = nullptr;
  REQUIRE(__ptxopt_nvcc_get_kernel(&t3, &h, &hostG) == cudaSuccess);
  auto run = [&](uint32_t blockX) { return launchVariant(t3, h, blockX); };
  CHECK(run(64) == "g$a");  // the first launch runs the clone
  CHECK(run(1) == "g$b");
  CHECK(fatbins == before + 1);  // one image for both
}

TEST_CASE("nvcc shim: a launch smaller than every clone's minimum runs the original without reading the clones",
          "[nvcc-shim]") {
  // Kernel "m": `m$big` (at least 5000 threads a launch), then `m$mid`
  // (at least 1000): below 1000 no clone's conditions hold, decided before
  // anything of the clones is read; at 1000 and more, as selectVariant.
  static char hostM;
  static std::string json = [] {
    Variant big = variant("m$big"), mid = variant("m$mid");
    big.minLaunchThreads = 5000;
    mid.minLaunchThreads = 1000;
    Manifest m;
    m.kernels.push_back({"m", {8}, {big, mid}});
    return toJson(m);
  }();
  setUp();
  fRegister(nullptr, &hostM, nullptr, "m", 0, nullptr, nullptr, nullptr, nullptr, nullptr);
  __ptxopt_nvcc_register(&table, json.c_str(), nullptr, &hostM, "m");
  cudaKernel_t h = nullptr;
  REQUIRE(__ptxopt_nvcc_get_kernel(&table, &h, &hostM) == cudaSuccess);
  const long k0 = fake.getKernel;
  CHECK(launchGrid(table, h, 999, 1) == "m");
  CHECK(launchGrid(table, h, 1, 999) == "m");
  CHECK(std::string(ptxopt_nvcc_last_variant_kind()) == "original");
  CHECK(fake.getKernel == k0);  // no clone's handle asked for
  CHECK(launchGrid(table, h, 10, 100) == "m$mid");
  CHECK(launchGrid(table, h, 50, 100) == "m$big");
  CHECK(launchGrid(table, h, 1, 999) == "m");
}

TEST_CASE("nvcc shim: only the chosen clone's handle is read; one cudart cannot launch gives way to the next",
          "[nvcc-shim]") {
  // Kernel "f": `f$rows` (param 0 at least 100), `f$half` (at least 50;
  // cudart fails to find it), then `f$plain`. A launch whose row floor
  // rejects both row clones reads no handle of them (kmeans'
  // invert_mapping: rows of 34 features, every first launch paid a
  // cudaGetKernel per clone); a chosen clone cudart cannot give a handle
  // for is dropped once and the next variant runs.
  static char hostF;
  static std::string json = [] {
    Variant rows = variant("f$rows"), half = variant("f$half");
    rows.minParams = {{0, 100}};
    half.minParams = {{0, 50}};
    Manifest m;
    m.kernels.push_back({"f", {4}, {rows, half, variant("f$plain")}});
    return toJson(m);
  }();
  setUp();
  {
    std::lock_guard<std::mutex> l(fake.mu);
    fake.unusable.insert("f$half");
  }
  fRegister(nullptr, &hostF, nullptr, "f", 0, nullptr, nullptr, nullptr, nullptr, nullptr);
  __ptxopt_nvcc_register(&table, json.c_str(), nullptr, &hostF, "f");
  cudaKernel_t h = nullptr;
  REQUIRE(__ptxopt_nvcc_get_kernel(&table, &h, &hostF) == cudaSuccess);
  auto reads = [](const char *name) {
    std::lock_guard<std::mutex> l(fake.mu);
    return fake.handleReads[name];
  };
  int32_t n = 60;
  void *args[1] = {&n};
  auto run = [&](int32_t rows) {
    n = rows;
    return __ptxopt_nvcc_launch(&table, h, dim3(64), dim3(128), args, 0, nullptr, 0) == cudaSuccess
               ? std::string(ptxopt_nvcc_last_variant())
               : std::string("<failed>");
  };
  CHECK(run(200) == "f$rows");
  CHECK(reads("f$rows") == 1);
  CHECK(reads("f$half") == 0);
  CHECK(reads("f$plain") == 0);
  CHECK(run(60) == "f$plain");  // f$half chosen, not usable: the next
  CHECK(reads("f$half") == 1);
  CHECK(reads("f$plain") == 1);
  CHECK(run(60) == "f$plain");  // the same shape again: no second try
  CHECK(run(20) == "f$plain");
  CHECK(run(200) == "f$rows");
  CHECK(reads("f$rows") == 1);
  CHECK(reads("f$half") == 1);
  CHECK(reads("f$plain") == 1);
}

TEST_CASE("nvcc shim: a launch every row clone's floor rejects reads no clone", "[nvcc-shim]") {
  static char hostG;
  static std::string json = [] {
    Variant rows = variant("g2$rows"), lanes = variant("g2$lanes");
    rows.minParams = {{0, 100}};
    lanes.minParams = {{0, 64}};
    Manifest m;
    m.kernels.push_back({"g2", {4}, {rows, lanes}});
    return toJson(m);
  }();
  setUp();
  fRegister(nullptr, &hostG, nullptr, "g2", 0, nullptr, nullptr, nullptr, nullptr, nullptr);
  __ptxopt_nvcc_register(&table, json.c_str(), nullptr, &hostG, "g2");
  cudaKernel_t h = nullptr;
  REQUIRE(__ptxopt_nvcc_get_kernel(&table, &h, &hostG) == cudaSuccess);
  const long k0 = fake.getKernel;
  int32_t n = 34;
  void *args[1] = {&n};
  for (uint32_t block : {64u, 128u, 256u})
    CHECK(__ptxopt_nvcc_launch(&table, h, dim3(1000), dim3(block), args, 0, nullptr, 0) == cudaSuccess);
  CHECK(std::string(ptxopt_nvcc_last_variant()) == "g2");
  CHECK(fake.getKernel == k0);
  n = 64;
  CHECK(__ptxopt_nvcc_launch(&table, h, dim3(1000), dim3(128), args, 0, nullptr, 0) == cudaSuccess);
  CHECK(std::string(ptxopt_nvcc_last_variant()) == "g2$lanes");
  CHECK(fake.getKernel == k0 + 1);
}
