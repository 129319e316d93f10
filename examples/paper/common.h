// examples/paper/common.h: what every example of examples/paper shares.
//
// Each example is one CUDA program holding a naive kernel (the form the
// paper optimizes), hand-optimized kernels and a CPU reference. It runs each
// variant once on fresh buffers, compares the result with the CPU reference,
// then times it (CUDA events around every launch, queued back to back,
// warm-up launches, median)
// and prints one machine-readable line per variant and size:
//
//   RESULT kernel=sobel size=1920x1080 variant=naive ran=launch ms=0.0123 min=0.0120 bytes=4147200 gbs=337.2 ok=1
//
// Arguments common to all examples:
//   --jit FILE.ptx    run only the naive kernel, loaded from FILE.ptx (the PTX
//                     of this same .cu, `nvcc -ptx`) through libptxopt: it is
//                     optimized in-process and ptxopt_launch picks the clone
//                     (variant=jit, ran=<kernel that ran> (<kind>))
//   --rt LIB          libptxopt_runtime.so for --jit (default: env
//                     PTXOPT_RUNTIME_LIB, else libptxopt_runtime.so on the
//                     library path); opened with dlopen, so the examples build
//                     and run without it
//   --variants a,b    only these variants (naive, hand_paper, hand_best, ...)
//   --sizes a,b       only these sizes (the labels in the RESULT lines, or
//                     "paper" / "large" for the first / last size)
//   --reps N          timed launches (default 20), --warmup N (default 3)
//   --small           small sizes only (the CPU emulation in emu/ uses it)
//
// Exit status: 0 when every variant that ran matched the CPU reference,
// 1 on a mismatch or a CUDA error, 77 when there is no CUDA device.
#pragma once

#ifdef EX_EMU
#include "emu/emu.h"  // the kernels on the CPU (emu/run-emu.sh): no GPU needed
#else
#include <cuda_runtime.h>
#endif
#include <dlfcn.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "ptxopt/runtime/ptxopt_runtime.h"

namespace ex {

inline void fail(const char *what, cudaError_t e) {
  std::fprintf(stderr, "CUDA error: %s: %s\n", what, cudaGetErrorString(e));
  std::exit(1);
}
#define EX_CHECK(call)                       \
  do {                                       \
    cudaError_t e_ = (call);                 \
    if (e_ != cudaSuccess) ex::fail(#call, e_); \
  } while (0)

// ---- random, non-zero inputs: a hash of the index (fast and reproducible) ----
inline uint32_t hash32(uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return static_cast<uint32_t>(x ^ (x >> 31));
}
/// Bytes in 1..255.
inline void fillBytes(std::vector<uint8_t> &v, uint32_t seed) {
  for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<uint8_t>(1 + hash32(i * 0x10001ull + seed) % 255);
}
/// Ints in 1..1000000.
inline void fillInts(std::vector<int> &v, uint32_t seed) {
  for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<int>(1 + hash32(i * 0x10001ull + seed) % 1000000);
}
/// Floats in [0.5, 1.5).
inline void fillFloats(std::vector<float> &v, uint32_t seed) {
  for (size_t i = 0; i < v.size(); ++i) v[i] = 0.5f + (hash32(i * 0x10001ull + seed) >> 8) * (1.0f / 16777216.0f);
}

// ---- device buffers ------------------------------------------------------------
template <class T>
struct DevBuf {
  T *p = nullptr;
  size_t n = 0;
  explicit DevBuf(size_t count) : n(count) { EX_CHECK(cudaMalloc(&p, count * sizeof(T) + 256)); }
  ~DevBuf() { cudaFree(p); }
  DevBuf(const DevBuf &) = delete;
  DevBuf &operator=(const DevBuf &) = delete;
  size_t bytes() const { return n * sizeof(T); }
  void upload(const std::vector<T> &h) { EX_CHECK(cudaMemcpy(p, h.data(), bytes(), cudaMemcpyHostToDevice)); }
  void download(std::vector<T> &h) const {
    h.resize(n);
    EX_CHECK(cudaMemcpy(h.data(), p, bytes(), cudaMemcpyDeviceToHost));
  }
  void zero() { EX_CHECK(cudaMemset(p, 0, bytes())); }
};

// ---- libptxopt through dlopen ------------------------------------------------------
struct Jit {
  using LoadFile = ptxopt_status (*)(ptxopt_module *, const char *, const ptxopt_options *);
  using GetKernel = ptxopt_status (*)(ptxopt_kernel *, ptxopt_module, const char *);
  using Launch = ptxopt_status (*)(ptxopt_kernel, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                                   unsigned, CUstream, void **);
  using Str = const char *(*)(ptxopt_kernel);
  using LastError = const char *(*)(void);
  void *lib = nullptr;
  LoadFile loadFile = nullptr;
  GetKernel getKernel = nullptr;
  Launch launchFn = nullptr;
  Str lastVariant = nullptr, lastKind = nullptr;
  LastError lastError = nullptr;
  ptxopt_module mod = nullptr;
  ptxopt_kernel kernel = nullptr;

  void open(const char *rtPath, const char *ptxPath, const char *kernelName) {
    lib = dlopen(rtPath, RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
      std::fprintf(stderr, "--jit: cannot open the runtime %s: %s\n", rtPath, dlerror());
      std::exit(1);
    }
    auto sym = [&](const char *name) {
      void *s = dlsym(lib, name);
      if (!s) {
        std::fprintf(stderr, "--jit: %s lacks %s\n", rtPath, name);
        std::exit(1);
      }
      return s;
    };
    loadFile = reinterpret_cast<LoadFile>(sym("ptxopt_module_load_file"));
    getKernel = reinterpret_cast<GetKernel>(sym("ptxopt_module_get_kernel"));
    launchFn = reinterpret_cast<Launch>(sym("ptxopt_launch"));
    lastVariant = reinterpret_cast<Str>(sym("ptxopt_kernel_last_variant"));
    lastKind = reinterpret_cast<Str>(sym("ptxopt_kernel_last_variant_kind"));
    lastError = reinterpret_cast<LastError>(sym("ptxopt_last_error"));
    EX_CHECK(cudaFree(nullptr));  // the runtime's primary context, current on this thread
    if (loadFile(&mod, ptxPath, nullptr) != PTXOPT_SUCCESS || getKernel(&kernel, mod, kernelName) != PTXOPT_SUCCESS) {
      std::fprintf(stderr, "--jit: %s\n", lastError());
      std::exit(1);
    }
  }
  void launch(dim3 g, dim3 b, void **args) {
    if (launchFn(kernel, g.x, g.y, g.z, b.x, b.y, b.z, 0, nullptr, args) != PTXOPT_SUCCESS) {
      std::fprintf(stderr, "--jit: ptxopt_launch: %s\n", lastError());
      std::exit(1);
    }
  }
  std::string ran() const { return std::string(lastVariant(kernel)) + "(" + lastKind(kernel) + ")"; }
};

// ---- options and the run of one variant ------------------------------------------------
inline bool inList(const std::string &list, const std::string &x) {
  if (list.empty()) return true;
  size_t pos = 0;
  while (pos <= list.size()) {
    size_t end = list.find(',', pos);
    if (end == std::string::npos) end = list.size();
    if (list.compare(pos, end - pos, x) == 0) return true;
    pos = end + 1;
  }
  return false;
}

class Bench {
 public:
  /// `kernel` names the example in RESULT lines; `naiveEntry` is the naive
  /// kernel's .entry name in the PTX (extern "C", so unmangled).
  Bench(int argc, char **argv, const char *kernel, const char *naiveEntry) : kernel_(kernel), naiveEntry_(naiveEntry) {
    for (int i = 1; i < argc; ++i) {
      std::string a = argv[i];
      auto next = [&]() -> std::string {
        if (i + 1 >= argc) {
          std::fprintf(stderr, "%s needs a value\n", a.c_str());
          std::exit(2);
        }
        return argv[++i];
      };
      if (a == "--jit") jitPtx_ = next();
      else if (a == "--rt") rt_ = next();
      else if (a == "--variants") variants_ = next();
      else if (a == "--sizes") sizes_ = next();
      else if (a == "--reps") reps_ = std::max(1, std::atoi(next().c_str()));
      else if (a == "--warmup") warmup_ = std::max(0, std::atoi(next().c_str()));
      else if (a == "--small") small_ = true;
      else {
        std::fprintf(stderr, "usage: %s [--jit FILE.ptx] [--rt LIB] [--variants a,b] [--sizes a,b] [--reps N] [--warmup N] [--small]\n",
                     argv[0]);
        std::exit(2);
      }
    }
    int devices = 0;
    if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
      std::puts("skipped: no CUDA device");
      std::exit(77);
    }
    EX_CHECK(cudaSetDevice(0));
    if (!jitPtx_.empty()) {
      if (rt_.empty()) rt_ = std::getenv("PTXOPT_RUNTIME_LIB") ? std::getenv("PTXOPT_RUNTIME_LIB") : "libptxopt_runtime.so";
      jit_.open(rt_.c_str(), jitPtx_.c_str(), naiveEntry_);
    }
  }

  bool jit() const { return !jitPtx_.empty(); }
  bool small() const { return small_; }
  int reps() const { return reps_; }

  /// Whether a size is wanted: `index` of `count` sizes, labelled `label`.
  bool wantSize(const std::string &label, int index, int count) const {
    if (sizes_.empty()) return true;
    return inList(sizes_, label) || (index == 0 && inList(sizes_, "paper")) ||
           (index == count - 1 && inList(sizes_, "large"));
  }

  /// The naive kernel: `launch` is its <<<>>> launch (which ptx-nvcc routes
  /// through the runtime); with --jit the same launch (grid, block, args)
  /// goes through libptxopt instead.
  void naive(const std::string &size, double bytes, const std::function<void()> &launch, dim3 grid, dim3 block,
             void **args, const std::function<void()> &reset, const std::function<bool()> &verify) {
    if (jit()) {
      run(size, "jit", bytes, [&] { jit_.launch(grid, block, args); }, reset, verify, true);
    } else {
      run(size, "naive", bytes, launch, reset, verify, false);
    }
  }

  /// A hand-written variant (skipped with --jit).
  void hand(const std::string &size, const char *variant, double bytes, const std::function<void()> &launch,
            const std::function<void()> &reset, const std::function<bool()> &verify) {
    if (jit()) return;
    run(size, variant, bytes, launch, reset, verify, false);
  }

  int exitCode() const { return failures_ ? 1 : 0; }

 private:
  void run(const std::string &size, const char *variant, double bytes, const std::function<void()> &launch,
           const std::function<void()> &reset, const std::function<bool()> &verify, bool viaJit) {
    if (!inList(variants_, variant) && !(viaJit && inList(variants_, "naive"))) return;
    // Correctness: one launch on freshly reset outputs, compared with the CPU.
    reset();
    EX_CHECK(cudaDeviceSynchronize());
    launch();
    EX_CHECK(cudaGetLastError());
    EX_CHECK(cudaDeviceSynchronize());
    std::string ran = viaJit ? jit_.ran() : "launch";
    bool ok = verify();
    if (!ok) {
      ++failures_;
      std::fprintf(stderr, "FAIL: %s %s %s does not match the CPU reference\n", kernel_, size.c_str(), variant);
    }
    // Timing: warm-up, then each launch between two events of its own, all
    // queued back to back (no host synchronisation in between, so the host's
    // launch latency is not timed while the queue is full); the median.
    for (int i = 0; i < warmup_; ++i) launch();
    EX_CHECK(cudaDeviceSynchronize());
    std::vector<cudaEvent_t> ev(2 * size_t(reps_));
    for (auto &e : ev) EX_CHECK(cudaEventCreate(&e));
    for (int i = 0; i < reps_; ++i) {
      EX_CHECK(cudaEventRecord(ev[2 * i], nullptr));
      launch();
      EX_CHECK(cudaEventRecord(ev[2 * i + 1], nullptr));
    }
    EX_CHECK(cudaEventSynchronize(ev.back()));
    EX_CHECK(cudaGetLastError());
    std::vector<float> t;
    for (int i = 0; i < reps_; ++i) {
      float ms = 0;
      EX_CHECK(cudaEventElapsedTime(&ms, ev[2 * i], ev[2 * i + 1]));
      t.push_back(ms);
    }
    for (auto &e : ev) cudaEventDestroy(e);
    std::sort(t.begin(), t.end());
    double med = t.size() % 2 ? t[t.size() / 2] : 0.5 * (t[t.size() / 2 - 1] + t[t.size() / 2]);
    std::printf("RESULT kernel=%s size=%s variant=%s ran=%s ms=%.5f min=%.5f bytes=%.0f gbs=%.1f ok=%d\n", kernel_,
                size.c_str(), variant, ran.c_str(), med, t.front(), bytes, bytes / (med * 1e6), ok ? 1 : 0);
    std::fflush(stdout);
  }

  const char *kernel_;
  const char *naiveEntry_;
  std::string jitPtx_, rt_, variants_, sizes_;
  int reps_ = 20, warmup_ = 3;
  int failures_ = 0;
  bool small_ = false;
  Jit jit_;
};

/// Compares two byte images; prints the first few mismatches.
template <class T>
bool sameAs(const std::vector<T> &got, const std::vector<T> &want, const char *what) {
  size_t bad = 0;
  for (size_t i = 0; i < want.size(); ++i) {
    if (got[i] != want[i]) {
      if (bad < 5) std::fprintf(stderr, "  %s[%zu]: got %lld, want %lld\n", what, i, (long long)got[i], (long long)want[i]);
      ++bad;
    }
  }
  if (bad) std::fprintf(stderr, "  %s: %zu of %zu elements differ\n", what, bad, want.size());
  return bad == 0;
}

/// Compares floats with an absolute plus relative tolerance.
inline bool closeTo(const std::vector<float> &got, const std::vector<float> &want, double absTol, double relTol,
                    const char *what) {
  size_t bad = 0;
  for (size_t i = 0; i < want.size(); ++i) {
    double d = std::abs(double(got[i]) - double(want[i]));
    if (!(d <= absTol + relTol * std::abs(double(want[i])))) {
      if (bad < 5) std::fprintf(stderr, "  %s[%zu]: got %.6g, want %.6g\n", what, i, got[i], want[i]);
      ++bad;
    }
  }
  if (bad) std::fprintf(stderr, "  %s: %zu of %zu elements differ\n", what, bad, want.size());
  return bad == 0;
}

inline std::string dims(size_t w, size_t h) { return std::to_string(w) + "x" + std::to_string(h); }

}  // namespace ex
