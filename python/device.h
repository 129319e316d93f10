// Device memory, events and device queries for the Python module, through
// the CUDA runtime (cudart, linked statically): the module is an application
// of libptxopt, which loads and launches the kernels in the same primary
// context (docs/RUNTIME.md, "Contexts"). Every failure throws
// std::runtime_error with "<call>: <cudaError name>: <text>".
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>

namespace ptxopt::pyext {

uintptr_t memAlloc(size_t bytes);
void memFree(uintptr_t ptr);
void memcpyHtoD(uintptr_t dst, const void *src, size_t bytes);
void memcpyDtoH(void *dst, uintptr_t src, size_t bytes);
void memset(uintptr_t dst, int value, size_t bytes);
void synchronize();
int deviceCount();  // 0 without a driver or device, never throws
/// The current device's compute capability (major, minor).
std::pair<int, int> computeCapability();

/// A CUDA event (cudaEventDefault), for timing launches.
class Event {
public:
  Event();
  ~Event();
  Event(const Event &) = delete;
  Event &operator=(const Event &) = delete;
  void record(uintptr_t stream);
  void synchronize();
  /// Milliseconds from `start` to this event (both recorded and complete).
  float elapsedSince(const Event &start) const;

private:
  void *ev_ = nullptr;  // cudaEvent_t
};

}  // namespace ptxopt::pyext
