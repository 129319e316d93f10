// Shared by the whole-program benchmarks of bench/programs (README.md there):
// error checks, a CUDA-event timer, a deterministic non-zero random fill, an
// FNV-1a 64 hash over every device-to-host copy of results, float
// comparison, and the three result lines every program prints:
//
//   gpu_ms=<float>      the program's own GPU time (cudaEvents)
//   check=PASS|FAIL     against a CPU reference
//   hash=<16 hex>       FNV-1a 64 over the bytes of every device-to-host copy
//
// The programs know nothing of ptx-opt: they print the same lines whatever
// compiler built them. A failed check or any CUDA error exits 1.
#pragma once
#include <cuda_runtime.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CHECK(call)                                                                                \
  do {                                                                                             \
    cudaError_t e_ = (call);                                                                       \
    if (e_ != cudaSuccess) {                                                                       \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_));  \
      std::exit(1);                                                                                \
    }                                                                                              \
  } while (0)

// After every launch: the launch's own error (bad configuration, ...).
#define CHECK_LAUNCH() CHECK(cudaGetLastError())

// xorshift64*: deterministic, seeded per array.
struct Rng {
  uint64_t s;
  explicit Rng(uint64_t seed) : s(seed * 0x9E3779B97F4A7C15ull + 0x2545F4914F6CDD1Dull) {}
  uint32_t next() {
    s ^= s >> 12, s ^= s << 25, s ^= s >> 27;
    return uint32_t((s * 0x2545F4914F6CDD1Dull) >> 32);
  }
  // In [lo, hi), never zero for lo > 0.
  float uniform(float lo, float hi) { return lo + (hi - lo) * float(next() >> 8) * (1.0f / 16777216.0f); }
  int below(int n) { return int(next() % uint32_t(n)); }
};

// A counter-based hash (murmur3's finalizer): element i of array `seed`,
// independent of the others, so filling 16M elements costs ~15 ms, not ~100.
inline uint32_t hashAt(uint64_t seed, size_t i) {
  uint32_t h = uint32_t(i) * 0x9E3779B9u + uint32_t(seed) * 0x632BE5ABu + uint32_t(i >> 32);
  h ^= h >> 16, h *= 0x85EBCA6Bu, h ^= h >> 13, h *= 0xC2B2AE35u, h ^= h >> 16;
  return h;
}

// Floats in [0.25, 1.25): non-zero, positive (sums do not cancel).
inline void fillFloats(std::vector<float> &v, uint64_t seed, float lo = 0.25f, float hi = 1.25f) {
  const float step = (hi - lo) * (1.0f / 16777216.0f);
  for (size_t i = 0; i < v.size(); ++i) v[i] = lo + float(hashAt(seed, i) >> 8) * step;
}

inline uint64_t &hashState() {
  static uint64_t h = 14695981039346656037ull;
  return h;
}

inline void hashBytes(const void *p, size_t n) {
  const unsigned char *b = static_cast<const unsigned char *>(p);
  uint64_t h = hashState();
  for (size_t i = 0; i < n; ++i) h = (h ^ b[i]) * 1099511628211ull;
  hashState() = h;
}

// Every device-to-host copy of the programs goes through here.
inline void copyBack(void *host, const void *dev, size_t bytes) {
  CHECK(cudaMemcpy(host, dev, bytes, cudaMemcpyDeviceToHost));
  hashBytes(host, bytes);
}

template <class T> T *toDevice(const std::vector<T> &h) {
  T *d = nullptr;
  CHECK(cudaMalloc(&d, h.size() * sizeof(T)));
  CHECK(cudaMemcpy(d, h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice));
  return d;
}

template <class T> std::vector<T> fromDevice(const T *d, size_t n) {
  std::vector<T> h(n);
  copyBack(h.data(), d, n * sizeof(T));
  return h;
}

struct GpuTimer {
  cudaEvent_t a, b;
  GpuTimer() {
    CHECK(cudaEventCreate(&a));
    CHECK(cudaEventCreate(&b));
  }
  void start() { CHECK(cudaEventRecord(a)); }
  float stop() {
    CHECK(cudaEventRecord(b));
    CHECK(cudaEventSynchronize(b));
    float ms = 0;
    CHECK(cudaEventElapsedTime(&ms, a, b));
    return ms;
  }
};

// |got - want| <= rtol * max(|want|, floor): the device contracts a*b+c into
// fma where the host does not, so float results differ in the last bits.
inline bool closeEnough(double got, double want, double rtol, double floor) {
  if (!std::isfinite(got)) return false;
  return std::fabs(got - want) <= rtol * std::fmax(std::fabs(want), floor);
}

inline bool checkFloats(const char *what, const float *got, const float *want, size_t n, double rtol,
                        double floor = 1e-6) {
  size_t bad = 0, first = 0;
  for (size_t i = 0; i < n; ++i)
    if (!closeEnough(got[i], want[i], rtol, floor)) {
      if (!bad) first = i;
      ++bad;
    }
  if (bad)
    std::fprintf(stderr, "%s: %zu of %zu differ; first at %zu: got %.9g want %.9g\n", what, bad, n, first,
                 double(got[first]), double(want[first]));
  return bad == 0;
}

template <class T> bool checkExact(const char *what, const T *got, const T *want, size_t n) {
  size_t bad = 0, first = 0;
  for (size_t i = 0; i < n; ++i)
    if (!(got[i] == want[i])) {
      if (!bad) first = i;
      ++bad;
    }
  if (bad) std::fprintf(stderr, "%s: %zu of %zu differ; first at %zu\n", what, bad, n, first);
  return bad == 0;
}

inline float maxAbs(const float *p, size_t n) {
  float m = 0;
  for (size_t i = 0; i < n; ++i) m = std::fmax(m, std::fabs(p[i]));
  return m;
}

// The three result lines; the exit status of main.
inline int finish(float gpuMs, bool ok) {
  CHECK(cudaGetLastError());
  std::printf("gpu_ms=%.4f\n", double(gpuMs));
  std::printf("check=%s\n", ok ? "PASS" : "FAIL");
  std::printf("hash=%016llx\n", (unsigned long long)hashState());
  return ok ? 0 : 1;
}

inline int argInt(int argc, char **argv, int i, int fallback) {
  return argc > i ? std::atoi(argv[i]) : fallback;
}

inline unsigned blocksFor(long n, unsigned threads) { return unsigned((n + threads - 1) / threads); }
