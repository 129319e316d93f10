// Shared by the ptx-nvcc test programs (tests/nvcc/programs/README.md):
// error checks, a hash of each output and a "result" line per launch. The
// programs know nothing of ptx-opt; they print the same lines whatever
// compiler built them, and count the elements that differ from a CPU
// reference ("wrong=").
#pragma once
#include <algorithm>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#define CHECK(call)                                                                                \
  do {                                                                                             \
    cudaError_t e_ = (call);                                                                       \
    if (e_ != cudaSuccess) {                                                                       \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_));  \
      std::exit(1);                                                                                \
    }                                                                                              \
  } while (0)

inline uint64_t fnv(const void *p, size_t n) {
  const unsigned char *b = static_cast<const unsigned char *>(p);
  uint64_t h = 1469598103934665603ull;
  for (size_t i = 0; i < n; ++i) h = (h ^ b[i]) * 1099511628211ull;
  return h;
}

// Deterministic, non-zero pseudo-random fill.
template <class T> void fill(std::vector<T> &v, uint32_t seed) {
  uint32_t s = seed * 2654435761u + 1;
  for (auto &x : v) {
    s ^= s << 13, s ^= s >> 17, s ^= s << 5;
    x = T(s % 251 + 1);
  }
}

template <class T> size_t countWrong(const std::vector<T> &got, const std::vector<T> &want) {
  size_t w = 0;
  for (size_t i = 0; i < got.size(); ++i) w += !(got[i] == want[i]);
  return w;
}

// "axpy<int> n=100" from a printf format: the label of a result line.
__attribute__((format(printf, 1, 2))) inline std::string label(const char *fmt, ...) {
  char buf[128];
  va_list ap;
  va_start(ap, fmt);
  std::vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  return buf;
}

template <class T> void report(const std::string &what, const std::vector<T> &got, const std::vector<T> &want) {
  std::printf("result %s hash=%016llx wrong=%zu\n", what.c_str(), (unsigned long long)fnv(got.data(), got.size() * sizeof(T)),
              countWrong(got, want));
}

template <class T> T *toDevice(const std::vector<T> &h, size_t extra = 0) {
  T *d;
  CHECK(cudaMalloc(&d, (h.size() + extra) * sizeof(T)));
  CHECK(cudaMemset(d, 0, (h.size() + extra) * sizeof(T)));
  CHECK(cudaMemcpy(d, h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice));
  // The memset and a pageable copy may still be in flight when these
  // return, and kernels on non-blocking streams do not wait for the legacy
  // stream: without this, axpy<int> on a cudaStreamNonBlocking stream got 3
  // wrong elements once (built by plain nvcc, on an H200).
  CHECK(cudaDeviceSynchronize());
  return d;
}

template <class T> std::vector<T> fromDevice(const T *d, size_t n) {
  std::vector<T> h(n);
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaMemcpy(h.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost));
  return h;
}
