// The CUDA set-up the benchmark drivers share (bench/launch-floor,
// bench/sobel-small, bench/rowwalk, bench/transpose): error checks that
// throw, a PTX file loaded as a driver-API module, CUDA-event timing. Each
// driver is built by its script with `nvcc ... bench/common/driver.cpp
// -lcuda` (scripts/bench/).
#pragma once

#include <cuda.h>
#include <cuda_runtime.h>

#include <functional>
#include <string>
#include <vector>

namespace bench {

/// Throws std::runtime_error("<what>: <CUDA's message>") unless `e` is success.
void check(cudaError_t e, const std::string &what);
void check(CUresult r, const std::string &what);

/// A device buffer of `bytes` bytes (cudaMalloc; throws on failure).
void *deviceAlloc(size_t bytes);
/// A device buffer holding a copy of `bytes` bytes at `host`.
void *toDevice(const void *host, size_t bytes);

/// The whole file at `path` (throws when it cannot be read).
std::string readFile(const std::string &path);

/// The middle element of `v` (the upper one of an even count).
float median(std::vector<float> v);

/// Whether a CUDA device is there; without one prints "<who>: no CUDA
/// device" to stderr (the drivers then exit 77).
bool haveDevice(const char *who);

/// Makes the primary context current, for the runtime and the driver API.
void initContext();

/// The module in PTX file `path`, loaded in the current context (the driver
/// JIT-compiles it for the GPU at hand).
CUmodule loadModule(const std::string &path);

/// One launch of one function: grid, block and the parameter values.
struct Launch {
  CUfunction f = nullptr;
  unsigned grid[3] = {1, 1, 1}, block[3] = {1, 1, 1};
  std::vector<void *> params;
  void run() const;
};

/// A pair of CUDA events that times single calls (for drivers that
/// alternate two kernels call by call).
class EventTimer {
 public:
  EventTimer();
  ~EventTimer();
  EventTimer(const EventTimer &) = delete;
  EventTimer &operator=(const EventTimer &) = delete;
  /// Milliseconds of one call of `launch`, between the two events.
  float ms(const std::function<void()> &launch);

 private:
  cudaEvent_t e0_ = nullptr, e1_ = nullptr;
};

/// Milliseconds of one launch over several calls.
struct Timing {
  float min = 0, median = 0;
};

/// `warmups` untimed calls of `launch`, then `runs` timed ones (at least one).
Timing timeIt(const std::function<void()> &launch, int runs, int warmups = 3);

}  // namespace bench
