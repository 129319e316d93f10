// The benchmark drivers' shared CUDA set-up (driver.h says what and why).
#include "driver.h"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace bench {

void check(cudaError_t e, const std::string &what) {
  if (e != cudaSuccess) throw std::runtime_error(what + ": " + cudaGetErrorString(e));
}

void *deviceAlloc(size_t bytes) {
  void *d = nullptr;
  check(cudaMalloc(&d, bytes), "malloc");
  return d;
}

void *toDevice(const void *host, size_t bytes) {
  void *d = deviceAlloc(bytes);
  check(cudaMemcpy(d, host, bytes, cudaMemcpyHostToDevice), "copy");
  return d;
}

void check(CUresult r, const std::string &what) {
  if (r != CUDA_SUCCESS) {
    const char *s = nullptr;
    cuGetErrorString(r, &s);
    throw std::runtime_error(what + ": " + (s ? s : "?"));
  }
}

std::string readFile(const std::string &path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) throw std::runtime_error("cannot read " + path);
  std::ostringstream s;
  s << f.rdbuf();
  return s.str();
}

float median(std::vector<float> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

bool haveDevice(const char *who) {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) == cudaSuccess && devices > 0) return true;
  std::fprintf(stderr, "%s: no CUDA device\n", who);
  return false;
}

void initContext() { check(cudaFree(nullptr), "context"); }

CUmodule loadModule(const std::string &path) {
  CUmodule m;
  check(cuModuleLoadData(&m, readFile(path).c_str()), path);
  return m;
}

void Launch::run() const {
  check(cuLaunchKernel(f, grid[0], grid[1], grid[2], block[0], block[1], block[2], 0, nullptr,
                       const_cast<void **>(params.data()), nullptr),
        "cuLaunchKernel");
}

EventTimer::EventTimer() {
  check(cudaEventCreate(&e0_), "event");
  check(cudaEventCreate(&e1_), "event");
}

EventTimer::~EventTimer() {
  cudaEventDestroy(e0_);
  cudaEventDestroy(e1_);
}

float EventTimer::ms(const std::function<void()> &launch) {
  check(cudaEventRecord(e0_), "record");
  launch();
  check(cudaEventRecord(e1_), "record");
  check(cudaEventSynchronize(e1_), "sync");
  float t = 0;
  check(cudaEventElapsedTime(&t, e0_, e1_), "elapsed");
  return t;
}

Timing timeIt(const std::function<void()> &launch, int runs, int warmups) {
  EventTimer timer;
  std::vector<float> t;
  for (int r = 0; r < warmups + std::max(1, runs); ++r) {
    const float ms = timer.ms(launch);
    if (r >= warmups) t.push_back(ms);
  }
  std::sort(t.begin(), t.end());
  return {t[0], t[t.size() / 2]};
}

}  // namespace bench
