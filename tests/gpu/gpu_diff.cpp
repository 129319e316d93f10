// gpu-diff: the GPU differential test of libptxopt (docs/RUNTIME.md).
//
// For each case of Cases.cpp it loads the case's PTX twice through the
// runtime, once with the optimizer and clones disabled (the originals) and
// once optimized, fills every input buffer with random non-zero data (a fixed
// seed, printed), poisons every output buffer (and a slack past each buffer's
// end) with 0xA5, runs both, compares every output byte, and times both with
// CUDA events (warm-up, then the median of --runs launches, alternating).
// One line per case: the variant the optimized launch ran, equal/DIFFERENT,
// both times and the speed-up. Exit status: 0 all passed, 1 a failure, 77 no
// CUDA device (ctest shows the test as skipped).
//
// Memory, copies and events use the CUDA runtime API (cudart); only the
// kernels go through libptxopt, as in an application.
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "Cases.h"
#include "ptxopt/runtime/ptxopt_runtime.h"

using namespace gpudiff;

namespace {

constexpr int kSkip = 77;
constexpr unsigned char kPoison = 0xA5;
constexpr size_t kSlackBytes = 1024;  // poisoned bytes after each buffer: catches writes past the end

struct Options {
  std::string casesDir = PTXOPT_GPU_CASES_DIR;
  std::string filter;
  std::string exclude;  // --exclude: leave out cases whose name contains it
  std::string tablePath;
  std::string dumpDir;  // --dump-synth: write the synthetic modules there and stop (no GPU needed)
  bool expectOnly = false;  // --expect-only: check the variant choices through a fake driver (no GPU)
  uint64_t seed = 20100301;
  int runs = 20, warmup = 3;
  bool quick = false;
  bool largeOnly = false;  // --large-only: the cases --quick leaves out, alone
  bool shareModules = true;  // one loaded module pair per file and pass list; --separate-modules: one per case
  std::string passOptions;  // --options: "name=value;..." added to every case's pass list (an A/B of one option)
};

/// The case as run: its pass list with --options added (an empty list is
/// -O2, which ";options" keeps: parsePipelineSpec).
Case withOptions(const Case &c, const Options &o) {
  Case r = c;
  if (!o.passOptions.empty()) r.passes += ";" + o.passOptions;
  return r;
}

void check(cudaError_t e, const char *what) {
  if (e != cudaSuccess) throw std::runtime_error(std::string(what) + ": " + cudaGetErrorName(e) + ": " + cudaGetErrorString(e));
}

void check(ptxopt_status s, const char *what) {
  if (s != PTXOPT_SUCCESS) throw std::runtime_error(std::string(what) + ": " + ptxopt_last_error());
}

std::string readFile(const std::string &path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) throw std::runtime_error("cannot read " + path);
  std::ostringstream s;
  s << f.rdbuf();
  return s.str();
}

// ------------------------------------------------------------ synthetic clones

std::string jsonList(const std::array<std::string, 3> &a) {
  return "[\"" + a[0] + "\",\"" + a[1] + "\",\"" + a[2] + "\"]";
}

std::string variantJson(const std::string &kernel, const SynthVariant &v) {
  std::string aligned = v.alignedParam < 0 ? "[]"
                                           : "[{\"index\":" + std::to_string(v.alignedParam) +
                                                 ",\"bytes\":" + std::to_string(v.alignBytes) + "}]";
  return "{\"name\":\"" + kernel + v.suffix + "\",\"pass\":\"test\",\"kind\":\"" + v.kind +
         "\",\"grid\":" + jsonList(v.grid) + ",\"block\":" + jsonList(v.block) +
         ",\"gridMultiple\":[1,1,1],\"blockMultiple\":[" + std::to_string(v.blockMultipleX) +
         ",1,1],\"blockMin\":[1,1,1],\"alignedParams\":" + aligned +
         ",\"allowDynamicShared\":" + (v.allowDynamicShared ? "true" : "false") + "}";
}

std::string manifestJson(const Case &c) {
  std::string sizes, variants;
  for (const Arg &a : c.args) {
    if (!sizes.empty()) sizes += ",";
    sizes += a.kind <= Arg::Kind::Out ? "8" : "4";  // pointers, 32-bit scalars
  }
  for (const SynthVariant &v : c.synth) {
    if (!variants.empty()) variants += ",";
    variants += variantJson(c.kernel, v);
  }
  return "{\"version\":1,\"kernels\":[{\"kernel\":\"" + c.kernel + "\",\"paramSizes\":[" + sizes +
         "],\"variants\":[" + variants + "]}]}";
}

/// The .entry of `kernel` in nvcc's PTX, from its line to the closing brace
/// at column 0.
std::string entryText(const std::string &ptx, const std::string &kernel) {
  size_t at = ptx.find(".entry " + kernel + "(");
  if (at == std::string::npos) throw std::runtime_error("no .entry " + kernel + " in the PTX");
  size_t begin = ptx.rfind('\n', at) + 1;
  size_t end = ptx.find("\n}", at);
  if (end == std::string::npos) throw std::runtime_error("unterminated .entry " + kernel);
  return ptx.substr(begin, end + 2 - begin) + "\n";
}

/// The PTX plus one renamed copy of the kernel per synthetic variant and
/// the manifest comment line.
std::string synthModule(const std::string &ptx, const Case &c) {
  std::string out = ptx + "\n";
  std::string entry = entryText(ptx, c.kernel);
  for (const SynthVariant &v : c.synth) {
    std::string copy = entry;
    for (size_t p = 0; (p = copy.find(c.kernel, p)) != std::string::npos; p += c.kernel.size() + v.suffix.size())
      copy.replace(p, c.kernel.size(), c.kernel + v.suffix);
    out += "\n";
    out += copy;
  }
  return out + "\n// @ptxopt-manifest " + manifestJson(c) + "\n";
}

// ------------------------------------------------------------ buffers

/// Random non-zero values of the element type (floats and doubles in
/// [0.5, 100), halves in [0.5, 2): finite, so that clone and original are
/// compared bit for bit with no NaN whose payload an add of two NaNs picks
/// by operand order; a row of 4096 halves sums to under 65504).
std::vector<unsigned char> randomData(Elem e, size_t count, std::mt19937_64 &rng) {
  std::vector<unsigned char> bytes(count * elemSize(e));
  std::uniform_real_distribution<float> real(0.5f, 100.0f);
  std::uniform_real_distribution<double> real64(0.5, 100.0);
  for (size_t i = 0; i < count; ++i) {
    if (e == Elem::F32) {
      float f = real(rng);
      std::memcpy(&bytes[i * 4], &f, 4);
      continue;
    }
    if (e == Elem::F64) {
      double d = real64(rng);
      std::memcpy(&bytes[i * 8], &d, 8);
      continue;
    }
    if (e == Elem::F16) {  // exponent field 14 or 15 (2^-1, 2^0), any mantissa
      const uint64_t v = rng();
      const uint16_t h = static_cast<uint16_t>(((14 + (v & 1)) << 10) | ((v >> 1) & 0x3ff));
      std::memcpy(&bytes[i * 2], &h, 2);
      continue;
    }
    uint64_t v = rng();
    for (size_t b = 0; b < elemSize(e); ++b) bytes[i * elemSize(e) + b] = static_cast<unsigned char>((v >> (8 * b)) | 1);
  }
  return bytes;
}

/// The bytes of pack argument `i` of `c`: its fields' values (pointers and
/// 64-bit integers 8 bytes, 32-bit integers and floats 4), each at its
/// natural alignment, the whole padded to 8.
std::vector<unsigned char> packBytes(const Case &c, size_t i, const std::vector<uint64_t> &pointers,
                                     const std::vector<int64_t> &ints, const std::vector<float> &floats) {
  std::vector<unsigned char> b;
  for (int f : c.args[i].fields) {
    const Arg &a = c.args[size_t(f)];
    const size_t w = a.kind == Arg::Kind::I32 || a.kind == Arg::Kind::F32 ? 4 : 8;
    b.resize((b.size() + w - 1) / w * w + w);
    unsigned char *at = b.data() + b.size() - w;
    if (a.kind == Arg::Kind::In || a.kind == Arg::Kind::Out) std::memcpy(at, &pointers[size_t(f)], 8);
    else if (a.kind == Arg::Kind::F32) std::memcpy(at, &floats[size_t(f)], 4);
    else std::memcpy(at, &ints[size_t(f)], w);  // little-endian: a 32-bit one is the low half
  }
  b.resize((b.size() + 7) / 8 * 8);
  return b;
}

/// The launch parameters of `c` given its pointer arguments' values (its
/// buffers, real or the fake driver's): scalars from the case, struct
/// arguments packed from their fields, and `launch` the kernel's parameter
/// array (the arguments passed inside a pack left out). The vectors stay
/// where they are: `launch` points into them.
struct ParamBlock {
  std::vector<uint64_t> pointers;
  std::vector<int64_t> ints;  // 32-bit parameters read their low half (little-endian)
  std::vector<float> floats;
  std::vector<std::vector<unsigned char>> packs;
  std::vector<void *> launch;

  ParamBlock(const Case &c, std::vector<uint64_t> ptrs)
      : pointers(std::move(ptrs)), ints(c.args.size()), floats(c.args.size()), packs(c.args.size()) {
    std::vector<void *> all(c.args.size(), nullptr);
    for (size_t i = 0; i < c.args.size(); ++i) {
      const Arg &a = c.args[i];
      if (a.kind == Arg::Kind::In || a.kind == Arg::Kind::Out) all[i] = &pointers[i];
      else if (a.kind == Arg::Kind::I32 || a.kind == Arg::Kind::I64) ints[i] = a.i, all[i] = &ints[i];
      else if (a.kind == Arg::Kind::F32) floats[i] = a.f, all[i] = &floats[i];
    }
    for (size_t i = 0; i < c.args.size(); ++i)
      if (c.args[i].kind == Arg::Kind::Pack) {
        packs[i] = packBytes(c, i, pointers, ints, floats);
        all[i] = packs[i].data();
      }
    for (size_t i = 0; i < c.args.size(); ++i)
      if (!c.args[i].inPack) launch.push_back(all[i]);
  }
  ParamBlock(const ParamBlock &) = delete;
  ParamBlock &operator=(const ParamBlock &) = delete;
};

/// Device buffers and argument values of one case.
struct Args {
  std::vector<void *> base;                   // per argument: the allocation (null for scalars)
  std::vector<size_t> allocBytes;             // allocation size (with offset and slack)
  std::vector<std::vector<unsigned char>> init;  // inputs' host data (at the offset)
  std::vector<uint64_t> pointerValues;        // what the kernel gets (base + offset)
  std::unique_ptr<ParamBlock> params;         // the launch's parameters (ParamBlock::launch)

  Args(const Case &c, std::mt19937_64 &rng) {
    size_t n = c.args.size();
    base.assign(n, nullptr), allocBytes.assign(n, 0), init.resize(n);
    pointerValues.assign(n, 0);
    for (size_t i = 0; i < n; ++i)  // buffers first, then the pointers into them
      if (c.args[i].alias < 0) setUp(c.args[i], i, rng);
    for (size_t i = 0; i < n; ++i)
      if (c.args[i].alias >= 0) setUp(c.args[i], i, rng);
    params = std::make_unique<ParamBlock>(c, pointerValues);
  }
  ~Args() {
    for (void *p : base)
      if (p) cudaFree(p);
  }
  Args(const Args &) = delete;
  Args &operator=(const Args &) = delete;

  void setUp(const Arg &a, size_t i, std::mt19937_64 &rng) {
    if (a.kind != Arg::Kind::In && a.kind != Arg::Kind::Out) return;
    if (a.alias >= 0) {  // overlapping pointers: inside argument `alias`'s buffer (set up before)
      pointerValues[i] = pointerValues[size_t(a.alias)] + a.offset;
      return;
    }
    allocBytes[i] = a.offset + a.count * elemSize(a.elem) + kSlackBytes;
    check(cudaMalloc(&base[i], allocBytes[i]), "cudaMalloc");
    pointerValues[i] = reinterpret_cast<uint64_t>(base[i]) + a.offset;
    if (a.kind == Arg::Kind::In) init[i] = randomData(a.elem, a.count, rng);
    if (a.kind == Arg::Kind::In && (a.csrMax || a.csrMod)) {  // CSR row pointers, column indices
      uint32_t at = 0;
      const size_t w = elemSize(a.elem);  // 4, or 8 (`size_t` row pointers)
      for (size_t e = 0; e < a.count; ++e) {
        const uint64_t v = a.csrMod ? uint32_t(rng() % a.csrMod) : at;  // little-endian: the low w bytes
        if (a.csrMax && e + 1 < a.count)
          at += (a.zeroOneIn && rng() % a.zeroOneIn == 0) ? 0 : a.csrMin + uint32_t(rng() % (a.csrMax - a.csrMin + 1));
        std::memcpy(&init[i][e * w], &v, w);
      }
      return;
    }
    if (a.kind == Arg::Kind::In && a.nextIndex) {
      for (size_t e = 0; e < a.count; ++e) {
        const uint32_t v = uint32_t(std::min(e + 1, a.count - 1));
        std::memcpy(&init[i][e * 4], &v, 4);
      }
      return;
    }
    if (a.kind == Arg::Kind::In && a.lastZero && a.count)  // a sentinel at the buffer's end
      std::memset(&init[i][(a.count - 1) * elemSize(a.elem)], 0, elemSize(a.elem));
    if (a.kind == Arg::Kind::In && a.zeroOneIn)
      for (size_t e = 0; e < a.count; ++e)
        if (rng() % a.zeroOneIn == 0) std::memset(&init[i][e * elemSize(a.elem)], 0, elemSize(a.elem));
  }

  /// Inputs to their initial values, outputs (and all slack) to the poison.
  void reset(const Case &c) {
    for (size_t i = 0; i < c.args.size(); ++i) {
      if (!base[i]) continue;
      check(cudaMemset(base[i], kPoison, allocBytes[i]), "cudaMemset");
      if (c.args[i].kind == Arg::Kind::In)
        check(cudaMemcpy(reinterpret_cast<void *>(pointerValues[i]), init[i].data(), init[i].size(),
                         cudaMemcpyHostToDevice),
              "cudaMemcpy");
    }
  }

  /// Every output allocation (and input compared as one), slack included, concatenated.
  std::vector<unsigned char> outputs(const Case &c) const {
    std::vector<unsigned char> all;
    for (size_t i = 0; i < c.args.size(); ++i) {
      if (c.args[i].kind != Arg::Kind::Out && !(c.args[i].kind == Arg::Kind::In && c.args[i].compared)) continue;
      size_t at = all.size();
      all.resize(at + allocBytes[i]);
      check(cudaMemcpy(all.data() + at, base[i], allocBytes[i], cudaMemcpyDeviceToHost), "cudaMemcpy");
    }
    return all;
  }
};

// ------------------------------------------------------------ running

void launch(ptxopt_kernel k, const Case &c, Args &a, cudaStream_t s) {
  check(ptxopt_launch(k, c.grid[0], c.grid[1], c.grid[2], c.block[0], c.block[1], c.block[2], c.shared,
                      reinterpret_cast<CUstream>(s), a.params->launch.data()),
        "ptxopt_launch");
}

float timedLaunch(ptxopt_kernel k, const Case &c, Args &a, cudaStream_t s, cudaEvent_t e0, cudaEvent_t e1) {
  check(cudaEventRecord(e0, s), "cudaEventRecord");
  launch(k, c, a, s);
  check(cudaEventRecord(e1, s), "cudaEventRecord");
  check(cudaEventSynchronize(e1), "cudaEventSynchronize");
  float ms = 0;
  check(cudaEventElapsedTime(&ms, e0, e1), "cudaEventElapsedTime");
  return ms;
}

float median(std::vector<float> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

/// Median times of the original and the optimized kernel, launches alternating.
std::pair<float, float> timeBoth(ptxopt_kernel orig, ptxopt_kernel opt, const Case &c, Args &a, cudaStream_t s,
                                 const Options &o) {
  cudaEvent_t e0, e1;
  check(cudaEventCreate(&e0), "cudaEventCreate");
  check(cudaEventCreate(&e1), "cudaEventCreate");
  std::vector<float> to, tp;
  for (int r = 0; r < o.warmup + o.runs; ++r) {
    float x = timedLaunch(orig, c, a, s, e0, e1), y = timedLaunch(opt, c, a, s, e0, e1);
    if (r >= o.warmup) to.push_back(x), tp.push_back(y);
  }
  cudaEventDestroy(e0);
  cudaEventDestroy(e1);
  return {median(to), median(tp)};
}

/// Outputs of one checked launch from freshly reset buffers.
std::vector<unsigned char> checkedRun(ptxopt_kernel k, const Case &c, Args &a, cudaStream_t s) {
  a.reset(c);
  launch(k, c, a, s);
  check(cudaStreamSynchronize(s), "kernel");
  return a.outputs(c);
}

struct Row {
  std::string name, kernel, variant, kind, result;
  float origMs = 0, optMs = 0;
  bool ok = false;
  std::string note;
};

/// "" when the variant meets the case's expectation, else why not.
std::string expectation(const Case &c, const std::string &variant, const std::string &kind) {
  const std::string &e = c.expect;
  if (e.empty()) return "";
  if (e == "original" && kind != "original") return "expected the original, ran " + variant;
  if (e == "clone" && kind == "original") return "expected a clone, ran the original";
  if (e[0] == '!' && kind == e.substr(1)) return "expected no " + e.substr(1) + " variant, ran " + variant;
  if (e[0] == '=' && variant != e.substr(1)) return "expected " + e.substr(1) + ", ran " + variant;
  return "";
}

std::string describeDiff(const std::vector<unsigned char> &x, const std::vector<unsigned char> &y) {
  size_t count = 0, first = SIZE_MAX;
  for (size_t i = 0; i < x.size(); ++i)
    if (x[i] != y[i]) ++count, first = std::min(first, i);
  return std::to_string(count) + " bytes differ, first at output byte " + std::to_string(first);
}

/// Loads the optimized module: the optimizer's, or the PTX with synthetic clones.
ptxopt_module loadOptimized(const Case &c, const std::string &ptx, const std::string &path) {
  ptxopt_module m = nullptr;
  if (c.autotune) setenv("PTXOPT_AUTOTUNE", "1", 1);
  ptxopt_options opts{c.passes.empty() ? nullptr : c.passes.c_str(), 0, path.c_str()};
  ptxopt_status st;
  std::string synth;
  if (c.synth.empty()) {
    st = ptxopt_module_load_ptx(&m, ptx.data(), ptx.size(), &opts);
  } else {
    synth = synthModule(ptx, c);
    st = ptxopt_module_load_image(&m, synth.c_str(), &opts);
  }
  if (c.autotune) unsetenv("PTXOPT_AUTOTUNE");
  check(st, "loading the optimized module");
  return m;
}

struct Modules {
  ptxopt_module orig = nullptr, opt = nullptr;
  Modules() = default;
  Modules(const Modules &) = delete;
  Modules &operator=(const Modules &) = delete;
  ~Modules() {
    ptxopt_module_unload(orig);
    ptxopt_module_unload(opt);
  }
};

/// By default the cases of one file and pass list (no synthetic clones, no
/// autotuning) share one loaded original and one optimized module, as
/// --expect-only's do; with --separate-modules each GPU case optimizes and
/// JITs its whole file (about 2 s a case for the transpose file's 200+
/// clones). A module launched again with other shapes and arguments is
/// what a program does; the selection must not depend on earlier launches
/// (on an H200, 2026-12-02, the 34 cases of --filter "1000x3000 b16x16" ran
/// the same variants with equal outputs either way, in 14 s shared and 119 s
/// separate).
std::map<std::string, std::unique_ptr<Modules>> sharedModules;

Row runCase(const Case &c, const Options &o, cudaStream_t s) {
  Row row;
  row.name = c.name;
  row.kernel = c.kernel;
  std::string path = o.casesDir + "/" + c.file + ".ptx";
  const bool shared = o.shareModules && c.synth.empty() && !c.autotune;
  const std::string key = path + '\0' + c.passes;
  Modules own;
  Modules *held = &own;
  if (shared) {
    auto &slot = sharedModules[key];
    if (!slot) slot = std::make_unique<Modules>();
    held = slot.get();
  }
  Modules &m = *held;
  if (!m.orig) {  // not loaded yet (always, unless shared)
    std::string ptx = readFile(path);
    ptxopt_options disabled{nullptr, 1, path.c_str()};
    check(ptxopt_module_load_ptx(&m.orig, ptx.data(), ptx.size(), &disabled), "loading the original module");
    m.opt = loadOptimized(c, ptx, path);
  }
  ptxopt_kernel ko, kp;
  check(ptxopt_module_get_kernel(&ko, m.orig, c.kernel.c_str()), "ptxopt_module_get_kernel");
  check(ptxopt_module_get_kernel(&kp, m.opt, c.kernel.c_str()), "ptxopt_module_get_kernel");
  std::mt19937_64 rng(o.seed ^ std::hash<std::string>{}(c.name));
  Args a(c, rng);
  a.reset(c);
  std::tie(row.origMs, row.optMs) = timeBoth(ko, kp, c, a, s, o);  // autotuning (if on) decides here
  std::vector<unsigned char> want = checkedRun(ko, c, a, s), got = checkedRun(kp, c, a, s);
  row.variant = ptxopt_kernel_last_variant(kp);
  row.kind = ptxopt_kernel_last_variant_kind(kp);
  row.result = want == got ? "equal" : "DIFFERENT";
  if (want != got) row.note = describeDiff(want, got);
  if (c.approx) {  // reassociated: both within the bound of the float64 reference
    std::string wo = c.approx(a.init, want), go = c.approx(a.init, got);
    row.result = wo.empty() && go.empty() ? (want == got ? "equal" : "in bound") : "OUT OF BOUND";
    row.note = !wo.empty() ? "original: " + wo : !go.empty() ? "optimized: " + go : "";
    if (wo.empty() && go.empty()) want = got;  // judged by the bound
  }
  std::string exp = expectation(c, row.variant, row.kind);
  if (!exp.empty()) row.note += (row.note.empty() ? "" : "; ") + exp;
  row.ok = want == got && exp.empty();
  return row;
}

// ------------------------------------------------------------ threads

/// Launches from several threads at once: each thread has its buffers,
/// stream and shape (even threads: a shape where the synthetic swap clone
/// is chosen; odd: one where it is not) and checks, after every launch, that
/// its own last variant is the expected one, then the result on the CPU.
Row runThreads(const Options &o) {
  Case c = allCases().front();  // matadd_int, for its PTX and kernel
  c.synth = {SynthVariant{"__test_swap", "swap", {"block.x", "grid.y", "grid.z"}, {"grid.x", "block.y", "block.z"}}};
  std::string path = o.casesDir + "/matadd.ptx";
  Modules m;
  m.opt = loadOptimized(c, readFile(path), path);
  ptxopt_kernel k;
  check(ptxopt_module_get_kernel(&k, m.opt, "matadd_int"), "ptxopt_module_get_kernel");
  std::vector<std::string> errors(4);
  auto work = [&](int t) {
    try {
      check(cudaSetDevice(0), "cudaSetDevice");
      Case tc = c;
      tc.grid = {t % 2 ? 4096u : 512u, 1, 1};
      tc.block = {256, 1, 1};
      size_t n = size_t(tc.grid[0]) * 256;
      tc.args = {in(Elem::I32, n), in(Elem::I32, n), out(Elem::I32, n)};
      std::mt19937_64 rng(o.seed + t);
      Args a(tc, rng);
      cudaStream_t s;
      check(cudaStreamCreate(&s), "cudaStreamCreate");
      a.reset(tc);
      for (int i = 0; i < 50 && errors[t].empty(); ++i) {
        launch(k, tc, a, s);
        std::string kind = ptxopt_kernel_last_variant_kind(k);
        if (kind != (t % 2 ? "original" : "swap")) errors[t] = "thread " + std::to_string(t) + " ran " + kind;
      }
      check(cudaStreamSynchronize(s), "kernel");
      std::vector<unsigned char> outBytes = a.outputs(tc);
      for (size_t i = 0; i < n && errors[t].empty(); ++i) {
        int x, y, z;
        std::memcpy(&x, &a.init[0][i * 4], 4), std::memcpy(&y, &a.init[1][i * 4], 4), std::memcpy(&z, &outBytes[i * 4], 4);
        if (z != x + y) errors[t] = "thread " + std::to_string(t) + ": wrong sum at element " + std::to_string(i);
      }
      cudaStreamDestroy(s);
    } catch (const std::exception &e) {
      errors[t] = e.what();
    }
  };
  std::vector<std::thread> ts;
  for (int t = 0; t < 4; ++t) ts.emplace_back(work, t);
  for (auto &t : ts) t.join();
  Row row{"rt: 4 threads launching at once", "matadd_int", "swap/original", "per thread", "equal", 0, 0, false, ""};
  for (const auto &e : errors)
    if (!e.empty()) row.note += (row.note.empty() ? "" : "; ") + e, row.result = "DIFFERENT";
  row.ok = row.note.empty();
  return row;
}

// ------------------------------------------------------------ output

std::string rowText(const Row &r) {
  char buf[512];
  std::string variant = r.variant + " (" + r.kind + ")";
  double speedup = r.optMs > 0 ? r.origMs / r.optMs : 0;
  std::snprintf(buf, sizeof buf, "%-44s %-52s %-9s %10.4f %10.4f %8.2fx", r.name.c_str(), variant.c_str(),
                r.result.c_str(), r.origMs, r.optMs, speedup);
  std::string line = buf;
  if (!r.note.empty()) line += "  " + r.note;
  return line;
}

void writeTable(const std::vector<Row> &rows, const Options &o) {
  if (o.tablePath.empty()) return;
  std::ofstream f(o.tablePath);
  f << "| case | variant | kind | result | original ms | optimized ms | speed-up | note |\n"
    << "|---|---|---|---|---:|---:|---:|---|\n";
  for (const Row &r : rows) {
    char nums[96];
    std::snprintf(nums, sizeof nums, "%.4f | %.4f | %.2fx", r.origMs, r.optMs, r.optMs > 0 ? r.origMs / r.optMs : 0);
    f << "| " << r.name << " | " << r.variant << " | " << r.kind << " | " << r.result << " | " << nums << " | "
      << r.note << " |\n";
  }
}

void usage() {
  std::puts(
      "usage: gpu-diff [--cases DIR] [--filter TEXT] [--exclude TEXT] [--seed N] [--runs N] [--quick | --large-only] [--separate-modules]\n"
      "                [--options 'NAME=VALUE;...'] [--table FILE.md]\n"
      "  --cases   folder with the cases' PTX (default: the build's)\n"
      "  --filter  only cases whose name contains TEXT\n"
      "  --exclude leave out cases whose name contains TEXT\n"
      "  --quick   leave out the large launches; 5 timed runs\n"
      "  --large-only  only the large launches (what --quick leaves out); 5 timed runs\n"
      "  --options  pass options added to every case's pass list (e.g. 'rowwalk-tile=128'): the\n"
      "             suite with one option changed; the expectations stay the cases' own\n"
      "  --separate-modules  optimize and load each case's modules anew (default: once per file\n"
      "                    and pass list, shared by its cases)\n"
      "  --dump-synth DIR  write the modules with synthetic clones to DIR and exit (no GPU needed)\n"
      "  --expect-only     no GPU: launch each case once through the fake driver named by\n"
      "                    PTXOPT_LIBCUDA and check which variant the runtime chose");
}

bool parseArgs(int argc, char **argv, Options &o) {
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) throw std::runtime_error(a + " needs a value");
      return argv[++i];
    };
    if (a == "--cases") o.casesDir = value();
    else if (a == "--filter") o.filter = value();
    else if (a == "--exclude") o.exclude = value();
    else if (a == "--seed") o.seed = std::stoull(value());
    else if (a == "--runs") o.runs = std::max(1, std::stoi(value()));
    else if (a == "--table") o.tablePath = value();
    else if (a == "--quick") o.quick = true, o.runs = 5;
    else if (a == "--large-only") o.largeOnly = true, o.runs = 5;
    else if (a == "--separate-modules") o.shareModules = false;
    else if (a == "--options") o.passOptions = value();
    else if (a == "--dump-synth") o.dumpDir = value();
    else if (a == "--expect-only") o.expectOnly = true;
    else return usage(), false;
  }
  if (o.quick && o.largeOnly) throw std::runtime_error("--quick and --large-only leave out each other's cases: give one");
  return true;
}

/// Writes each case's module with synthetic clones (to check them with
/// ptxas and ptx-opt --verify without a GPU). The folder is created if it
/// does not exist; a file that cannot be written is an error (exit 1), and
/// a name is printed only once its file is written.
int dumpSynth(const Options &o) {
  std::error_code ec;
  std::filesystem::create_directories(o.dumpDir, ec);
  if (ec) {
    std::fprintf(stderr, "gpu-diff: cannot create %s: %s\n", o.dumpDir.c_str(), ec.message().c_str());
    return 1;
  }
  int n = 0;
  try {
    for (const Case &c : allCases()) {
      if (c.synth.empty()) continue;
      std::string out = o.dumpDir + "/synth" + std::to_string(n++) + ".ptx";
      std::string text = synthModule(readFile(o.casesDir + "/" + c.file + ".ptx"), c);
      std::ofstream f(out, std::ios::binary);
      f << text;
      f.close();
      if (!f) throw std::runtime_error("cannot write " + out);
      std::printf("%s: %s\n", out.c_str(), c.name.c_str());
    }
  } catch (const std::exception &e) {
    std::fprintf(stderr, "gpu-diff: %s\n", e.what());
    return 1;
  }
  return 0;
}

/// --expect-only: no GPU and no cudart. With PTXOPT_LIBCUDA naming the fake
/// driver (tests/gpu/fake), each case's optimized module is loaded through
/// the runtime and launched once with made-up device addresses (256-byte
/// aligned plus the case's offset) and its scalar arguments; the variant the
/// runtime chose must meet the case's expectation. This checks the launch
/// selection of every case where CI runs (ctest gpu-diff-expect); the GPU
/// run checks the results.
/// Cases of one file and pass list share one optimized module (the sweep
/// files hold ~50 kernels each: optimizing the file per case was 40% of the
/// run); a module launched again with other shapes and arguments is what a
/// program does, and the selection must not depend on earlier launches.
int expectOnly(const Options &o) {
  int passed = 0, failed = 0;
  std::map<std::string, ptxopt_module> modules;  // file + '\0' + passes -> optimized module
  for (const Case &base : allCases()) {
    const Case c = withOptions(base, o);
    if ((o.quick && c.big) || (o.largeOnly && !c.big) || c.name.find(o.filter) == std::string::npos ||
        c.expect.empty() || c.autotune ||
        (!o.exclude.empty() && c.name.find(o.exclude) != std::string::npos))
      continue;
    std::string problem;
    std::string variant = "-", kind = "-";
    try {
      const std::string path = o.casesDir + "/" + c.file + ".ptx";
      const bool shared = c.synth.empty();
      const std::string key = path + '\0' + c.passes;
      ptxopt_module m = shared && modules.count(key) ? modules[key] : loadOptimized(c, readFile(path), path);
      if (shared) modules[key] = m;
      ptxopt_kernel k = nullptr;
      check(ptxopt_module_get_kernel(&k, m, c.kernel.c_str()), "ptxopt_module_get_kernel");
      // One fake allocation of 4 GiB per buffer (the fake driver's cuMemGetAddressRange).
      std::vector<uint64_t> pointers(c.args.size());
      for (size_t i = 0; i < c.args.size(); ++i) pointers[i] = (uint64_t(i + 1) << 32) + c.args[i].offset;
      for (size_t i = 0; i < c.args.size(); ++i)  // aliases: inside their buffer
        if (c.args[i].alias >= 0) pointers[i] = pointers[size_t(c.args[i].alias)] + c.args[i].offset;
      ParamBlock params(c, pointers);
      check(ptxopt_launch(k, c.grid[0], c.grid[1], c.grid[2], c.block[0], c.block[1], c.block[2], c.shared, nullptr,
                          params.launch.data()),
            "ptxopt_launch");
      variant = ptxopt_kernel_last_variant(k);
      kind = ptxopt_kernel_last_variant_kind(k);
      problem = expectation(c, variant, kind);
      if (!shared) ptxopt_module_unload(m);
    } catch (const std::exception &e) {
      problem = e.what();
    }
    std::printf("%-44s %-52s %s\n", c.name.substr(0, 44).c_str(), (variant + " (" + kind + ")").c_str(),
                problem.empty() ? "as expected" : ("UNEXPECTED: " + problem).c_str());
    (problem.empty() ? passed : failed)++;
  }
  for (auto &[key, m] : modules) ptxopt_module_unload(m);
  std::printf("\ngpu-diff --expect-only: %d as expected, %d not\n", passed, failed);
  return failed ? 1 : 0;
}

/// The device, or a reason to skip.
std::string deviceName() {
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess || n == 0) return "";
  cudaDeviceProp p;
  if (cudaSetDevice(0) != cudaSuccess || cudaGetDeviceProperties(&p, 0) != cudaSuccess || cudaFree(nullptr) != cudaSuccess)
    return "";
  return std::string(p.name) + " (sm_" + std::to_string(p.major) + std::to_string(p.minor) + ")";
}

}  // namespace

int main(int argc, char **argv) {
  Options o;
  try {
    if (!parseArgs(argc, argv, o)) return 2;
  } catch (const std::exception &e) {
    std::fprintf(stderr, "gpu-diff: %s\n", e.what());
    return 2;
  }
  if (!o.dumpDir.empty()) return dumpSynth(o);
  if (o.expectOnly) return expectOnly(o);
  std::string device = deviceName();
  if (device.empty()) {
    std::puts("skipped: no CUDA device");
    return kSkip;
  }
  std::printf("gpu-diff on %s, seed %llu, median of %d runs after %d warm-up\n", device.c_str(),
              static_cast<unsigned long long>(o.seed), o.runs, o.warmup);
  std::printf("%-44s %-52s %-9s %10s %10s %9s\n", "case", "variant run by the optimized module", "result",
              "orig ms", "opt ms", "speed-up");
  cudaStream_t s;
  check(cudaStreamCreate(&s), "cudaStreamCreate");
  std::vector<Row> rows;
  for (const Case &base : allCases()) {
    const Case c = withOptions(base, o);
    if ((o.quick && c.big) || (o.largeOnly && !c.big) || c.name.find(o.filter) == std::string::npos ||
        (!o.exclude.empty() && c.name.find(o.exclude) != std::string::npos))
      continue;
    Row r;
    try {
      r = runCase(c, o, s);
    } catch (const std::exception &e) {
      r = Row{c.name, c.kernel, "-", "-", "ERROR", 0, 0, false, e.what()};  // all fields: -Wextra
    }
    std::printf("%s\n", rowText(r).c_str());
    std::fflush(stdout);
    rows.push_back(r);
  }
  if (std::string("rt: 4 threads launching at once").find(o.filter) != std::string::npos) {
    try {
      rows.push_back(runThreads(o));
    } catch (const std::exception &e) {
      rows.push_back(Row{"rt: 4 threads launching at once", "matadd_int", "-", "-", "ERROR", 0, 0, false, e.what()});
    }
    std::printf("%s\n", rowText(rows.back()).c_str());
  }
  sharedModules.clear();  // unloaded while the context is alive
  int failed = static_cast<int>(std::count_if(rows.begin(), rows.end(), [](const Row &r) { return !r.ok; }));
  writeTable(rows, o);
  std::printf("\ngpu-diff: %d passed, %d failed\n", static_cast<int>(rows.size()) - failed, failed);
  return failed ? 1 : 0;
}
