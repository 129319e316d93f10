// Shared by the benchmark family (bench/family/README.md): what every program
// of it does around its kernels, the way a user's program would do it.
//
//   - inputs: random, non-zero values made on the GPU by fillRandom (a hash of
//     the element index and a seed; grid-stride loop, so no pass clones it);
//   - outputs: a 64-bit hash of the output buffers' bytes, computed on the GPU
//     by hashWords (grid-stride, integer only: deterministic) and combined on
//     the host in thread order; the two builds of a program must print the
//     same hashes;
//   - timing: each case runs its launches once (the first run: host time of
//     launches + synchronize, then the hash), then --reps times with a host
//     timer (std::chrono) around the launches and one cudaDeviceSynchronize,
//     then --reps times with two cudaEvents around the launches (kernel time,
//     launch gaps included); before each run, outside the timer, a reset:
//     outputs cleared to zero, inputs that the launches update made again;
//   - one line per case on stdout:
//       result prog=P case=C shape=S size=Z bytes=B launches=L hash=H first_ms=F
//              host_min_ms= host_med_ms= kern_min_ms= kern_med_ms= reps=R
//     preceded by "case P C S Z begin" (flushed: scripts/bench/family.sh
//     attributes the PTXOPT_LOG lines between two markers to the case).
//
// Options of every program: --reps N (default 20; 0: the first run and the
// hash only), --filter TEXT (cases whose "case shape size" contains TEXT),
// --max-mb N (skip cases whose footprint is larger: a quick run),
// --warmup-ms N (keep the GPU busy for N ms before the first case, default
// 0: the clocks of a GPU that was idle ramp up under load).
#pragma once
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <type_traits>
#include <vector>

#define CHECK(call)                                                                                \
  do {                                                                                             \
    cudaError_t e_ = (call);                                                                       \
    if (e_ != cudaSuccess) {                                                                       \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_));  \
      std::exit(1);                                                                                \
    }                                                                                              \
  } while (0)

// ---- inputs ------------------------------------------------------------------------

__host__ __device__ inline uint32_t mix32(uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdull;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ull;
  x ^= x >> 33;
  return static_cast<uint32_t>(x);
}

// A non-zero value from 32 random bits: floats in [0.5, 1.5), integers in [1, 251].
template <class T> __host__ __device__ inline T valueOf(uint32_t h) {
  if constexpr (std::is_floating_point_v<T>) return T(0.5) + T(h >> 8) * T(1.0 / 16777216.0);
  else return T(h % 251u + 1u);
}

template <class T> __global__ void fillRandom(T *p, size_t n, uint32_t seed) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x)
    p[i] = valueOf<T>(mix32(i * 0x9e3779b97f4a7c15ull + seed));
}

// ---- output hash -------------------------------------------------------------------

constexpr unsigned kHashBlocks = 264, kHashThreads = 256;

__global__ void hashWords(const unsigned long long *p, size_t words, unsigned long long *partial) {
  unsigned long long h = 1469598103934665603ull;
  size_t t = blockIdx.x * size_t(blockDim.x) + threadIdx.x;
  for (size_t i = t; i < words; i += size_t(gridDim.x) * blockDim.x) {
    h = (h ^ p[i]) * 1099511628211ull;
    h ^= h >> 29;
  }
  partial[t] = h;
}

// Buffers of the family are allocated with alloc(): zeroed and padded to 8
// bytes, so that the hash reads whole words (the padding must stay zero).
inline size_t padded(size_t bytes) { return (bytes + 7) / 8 * 8; }

template <class T> T *alloc(size_t n) {
  void *p;
  CHECK(cudaMalloc(&p, padded(n * sizeof(T))));
  CHECK(cudaMemset(p, 0, padded(n * sizeof(T))));
  return static_cast<T *>(p);
}

template <class T> void fill(T *p, size_t n, uint32_t seed) {
  fillRandom<T><<<1024, 256>>>(p, n, seed);
  CHECK(cudaGetLastError());
}

struct Hasher {
  unsigned long long *partial = nullptr;
  std::vector<unsigned long long> host;
  Hasher() : host(kHashBlocks * kHashThreads) {
    CHECK(cudaMalloc(&partial, host.size() * sizeof(unsigned long long)));
  }
  // Hash of n elements of T at p (their padded bytes), combined with h.
  template <class T> unsigned long long operator()(const T *p, size_t n, unsigned long long h) {
    hashWords<<<kHashBlocks, kHashThreads>>>(reinterpret_cast<const unsigned long long *>(p),
                                             padded(n * sizeof(T)) / 8, partial);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(host.data(), partial, host.size() * sizeof(unsigned long long), cudaMemcpyDeviceToHost));
    for (unsigned long long x : host) h = (h ^ x) * 1099511628211ull, h ^= h >> 31;
    return h;
  }
};

// ---- options and timing ------------------------------------------------------------------

struct Options {
  int reps = 20;
  std::string filter;
  double maxMB = 1e30;
  double warmupMs = 0;
  const char *prog = "";
};

inline Options parseOptions(int argc, char **argv, const char *prog) {
  Options o;
  o.prog = prog;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto value = [&]() -> const char * {
      if (i + 1 >= argc) { std::fprintf(stderr, "%s: %s needs a value\n", prog, a.c_str()); std::exit(2); }
      return argv[++i];
    };
    if (a == "--reps") o.reps = std::atoi(value());
    else if (a == "--filter") o.filter = value();
    else if (a == "--max-mb") o.maxMB = std::atof(value());
    else if (a == "--warmup-ms") o.warmupMs = std::atof(value());
    else {
      std::fprintf(stderr, "usage: %s [--reps N] [--filter TEXT] [--max-mb N] [--warmup-ms N]\n", prog);
      std::exit(2);
    }
  }
  if (o.warmupMs > 0) {  // fillRandom over 64 MB until the time is up, synchronized every launch
    const size_t n = size_t(16) << 20;
    float *p;
    CHECK(cudaMalloc(&p, n * sizeof(float)));
    auto t0 = std::chrono::steady_clock::now();
    for (uint32_t seed = 1; std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count() <
                            o.warmupMs;
         ++seed) {
      fillRandom<float><<<1024, 256>>>(p, n, seed);
      CHECK(cudaDeviceSynchronize());
    }
    CHECK(cudaFree(p));
  }
  // stdout and the runtime's stderr lines go to one file in order
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  return o;
}

inline std::string fmt(const char *f, ...) __attribute__((format(printf, 1, 2)));
inline std::string fmt(const char *f, ...) {
  char buf[256];
  va_list ap;
  va_start(ap, f);
  std::vsnprintf(buf, sizeof buf, f, ap);
  va_end(ap);
  return buf;
}

// "1.0 MB" style label of a footprint
inline std::string mb(size_t bytes) { return fmt("%.0fMB", bytes / 1048576.0 < 1 ? 1.0 : bytes / 1048576.0); }

struct Case {
  std::string name;   // kernel(s) and type, e.g. stencil5<float>
  std::string shape;  // the launch shape(s), e.g. block=32x8 grid=64x256
  std::string size;   // the problem, e.g. 2048x2048
  size_t bytes = 0;   // the footprint: every buffer the launches touch
  int launches = 1;   // launches per run
};

inline double msSince(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

inline double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

// Runs one case: reset() makes the inputs (also before every timed run),
// run() issues the launches (no synchronization inside), hash() returns the
// hash of the outputs.
inline void bench(const Options &o, const Case &c, const std::function<void()> &reset,
                  const std::function<void()> &run, const std::function<unsigned long long()> &hash) {
  std::string key = c.name + " " + c.shape + " " + c.size;
  if (!o.filter.empty() && key.find(o.filter) == std::string::npos) return;
  if (c.bytes / 1048576.0 > o.maxMB) return;
  std::printf("case %s %s %s %s begin\n", o.prog, c.name.c_str(), c.shape.c_str(), c.size.c_str());
  reset();
  CHECK(cudaDeviceSynchronize());
  auto t0 = std::chrono::steady_clock::now();
  run();
  CHECK(cudaDeviceSynchronize());
  double first = msSince(t0);
  CHECK(cudaGetLastError());
  unsigned long long h = hash();
  std::vector<double> host, kern;
  for (int r = 0; r < o.reps; ++r) {
    reset();
    CHECK(cudaDeviceSynchronize());
    t0 = std::chrono::steady_clock::now();
    run();
    CHECK(cudaDeviceSynchronize());
    host.push_back(msSince(t0));
  }
  cudaEvent_t e0, e1;
  CHECK(cudaEventCreate(&e0));
  CHECK(cudaEventCreate(&e1));
  for (int r = 0; r < o.reps; ++r) {
    reset();
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaEventRecord(e0));
    run();
    CHECK(cudaEventRecord(e1));
    CHECK(cudaEventSynchronize(e1));
    float ms;
    CHECK(cudaEventElapsedTime(&ms, e0, e1));
    kern.push_back(ms);
  }
  CHECK(cudaGetLastError());
  CHECK(cudaEventDestroy(e0));
  CHECK(cudaEventDestroy(e1));
  double hmin = host.empty() ? first : *std::min_element(host.begin(), host.end());
  double hmed = host.empty() ? first : median(host);
  double kmin = kern.empty() ? 0 : *std::min_element(kern.begin(), kern.end());
  double kmed = kern.empty() ? 0 : median(kern);
  std::printf("result prog=%s case=%s shape=%s size=%s bytes=%zu launches=%d hash=%016llx first_ms=%.4f "
              "host_min_ms=%.4f host_med_ms=%.4f kern_min_ms=%.4f kern_med_ms=%.4f reps=%d\n",
              o.prog, c.name.c_str(), c.shape.c_str(), c.size.c_str(), c.bytes, c.launches, h, first, hmin, hmed,
              kmin, kmed, o.reps);
}

// ceil(a / b)
inline unsigned cdiv(size_t a, unsigned b) { return unsigned((a + b - 1) / b); }
