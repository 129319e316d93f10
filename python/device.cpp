// Device memory, events and device queries through cudart (device.h).
#include "device.h"

#include <cuda_runtime_api.h>

#include <stdexcept>
#include <string>

namespace ptxopt::pyext {

namespace {

void check(cudaError_t e, const char *call) {
  if (e == cudaSuccess) return;
  cudaGetLastError();  // clears a non-sticky error
  throw std::runtime_error(std::string(call) + ": " + cudaGetErrorName(e) + ": " + cudaGetErrorString(e));
}

}  // namespace

uintptr_t memAlloc(size_t bytes) {
  void *p = nullptr;
  check(cudaMalloc(&p, bytes ? bytes : 1), "cudaMalloc");
  return reinterpret_cast<uintptr_t>(p);
}

void memFree(uintptr_t ptr) { check(cudaFree(reinterpret_cast<void *>(ptr)), "cudaFree"); }

void memcpyHtoD(uintptr_t dst, const void *src, size_t bytes) {
  check(cudaMemcpy(reinterpret_cast<void *>(dst), src, bytes, cudaMemcpyHostToDevice), "cudaMemcpy (host to device)");
}

void memcpyDtoH(void *dst, uintptr_t src, size_t bytes) {
  check(cudaMemcpy(dst, reinterpret_cast<const void *>(src), bytes, cudaMemcpyDeviceToHost),
        "cudaMemcpy (device to host)");
}

void memset(uintptr_t dst, int value, size_t bytes) {
  check(cudaMemset(reinterpret_cast<void *>(dst), value, bytes), "cudaMemset");
}

void synchronize() { check(cudaDeviceSynchronize(), "cudaDeviceSynchronize"); }

int deviceCount() {
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess) {
    cudaGetLastError();
    return 0;
  }
  return n;
}

std::pair<int, int> computeCapability() {
  int dev = 0, major = 0, minor = 0;
  check(cudaGetDevice(&dev), "cudaGetDevice");
  check(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev), "cudaDeviceGetAttribute");
  check(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, dev), "cudaDeviceGetAttribute");
  return {major, minor};
}

Event::Event() {
  cudaEvent_t e = nullptr;
  check(cudaEventCreate(&e), "cudaEventCreate");
  ev_ = e;
}

Event::~Event() {
  if (ev_) cudaEventDestroy(static_cast<cudaEvent_t>(ev_));
}

void Event::record(uintptr_t stream) {
  check(cudaEventRecord(static_cast<cudaEvent_t>(ev_), reinterpret_cast<cudaStream_t>(stream)), "cudaEventRecord");
}

void Event::synchronize() { check(cudaEventSynchronize(static_cast<cudaEvent_t>(ev_)), "cudaEventSynchronize"); }

float Event::elapsedSince(const Event &start) const {
  float ms = 0;
  check(cudaEventElapsedTime(&ms, static_cast<cudaEvent_t>(start.ev_), static_cast<cudaEvent_t>(ev_)),
        "cudaEventElapsedTime");
  return ms;
}

}  // namespace ptxopt::pyext
