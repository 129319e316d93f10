// What the C API's opaque handles hold, and the helpers the runtime's files
// share (errors, logging). Only runtime/ includes this file.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "Driver.h"
#include "ptxopt/Manifest.h"
#include "ptxopt/runtime/Config.h"
#include "ptxopt/runtime/Select.h"
#include "ptxopt/runtime/ptxopt_runtime.h"

struct ptxopt_module_st {
  const ptxopt::rt::Driver *driver = nullptr;
  ptxopt::rt::Config config;  // the environment at load time
  std::string name;           // for messages
  CUmodule module = nullptr;
  CUcontext context = nullptr;
  bool retainedPrimary = false;  // the load made device config.device's primary context current
  CUdevice device = 0;
  ptxopt::rt::DeviceLimits limits;
  // The allocation holding a device address (cuMemGetAddressRange), for the
  // disjointParams conditions of rowwalk clones; made once, not per launch.
  ptxopt::rt::AllocationLookup allocationLookup = [this](uint64_t ptr, uint64_t &base, uint64_t &size) {
    CUdeviceptr b = 0;
    size_t n = 0;
    if (driver->cuMemGetAddressRange(&b, &n, static_cast<CUdeviceptr>(ptr)) != CUDA_SUCCESS) return false;
    base = static_cast<uint64_t>(b);
    size = static_cast<uint64_t>(n);
    return true;
  };
  // The manifest, when the loader had it whole (optimizer result or the PTX
  // comment). Otherwise, with `perKernelGlobals`, each kernel's entry is read
  // from its __ptxopt_manifest_<kernel> global when the kernel is first asked for.
  std::optional<ptxopt::Manifest> manifest;
  bool perKernelGlobals = false;
  std::mutex mu;  // guards kernels
  std::map<std::string, std::unique_ptr<ptxopt_kernel_st>> kernels;

  ptxopt_module_st() = default;
  ptxopt_module_st(const ptxopt_module_st &) = delete;
  ptxopt_module_st &operator=(const ptxopt_module_st &) = delete;
  ~ptxopt_module_st();  // unloads the module, releases a retained primary context
};

struct ptxopt_kernel_st {
  ptxopt_module_st *module = nullptr;
  uint64_t id = 0;  // unique in the process (the thread-local "last variant" is keyed by it)
  std::string name;
  CUfunction original = nullptr;
  ptxopt::KernelManifest manifest;         // variants whose clone was found, in order
  std::vector<CUfunction> functions;       // one per variant
  std::vector<uint32_t> maxThreads;        // CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK per variant
  ptxopt::rt::ShapeCache cache;         // decisions with their text (PTXOPT_LOG, PTXOPT_AUTOTUNE)
  ptxopt::rt::ShapeMaskCache masks;     // the same without text: the launch path otherwise
};

namespace ptxopt::rt {

/// Records the calling thread's error and returns `s`.
ptxopt_status fail(ptxopt_status s, std::string message, int cudaResult = 0);
/// fail(PTXOPT_ERROR_CUDA, "<call>: <error name>: <text>").
ptxopt_status failCuda(const Driver &d, CUresult r, const char *call, const std::string &context = "");
/// "ptxopt: <line>" on stderr, one write per line.
void logLine(const std::string &line);
/// "ptxopt: warning: <line>" on stderr.
void warn(const std::string &line);

}  // namespace ptxopt::rt
