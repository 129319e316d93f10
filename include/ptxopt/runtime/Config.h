// The runtime's settings from the environment (docs/RUNTIME.md):
// PTXOPT_DISABLE, PTXOPT_LOG, PTXOPT_AUTOTUNE, PTXOPT_AUTOTUNE_SAMPLES,
// PTXOPT_DEVICE, PTXOPT_LIBCUDA, PTXOPT_FIRST_LAUNCH_CLONES,
// PTXOPT_PRELOAD_IMAGES, and the driver's
// CUDA_MODULE_LOADING. Read once per module load; no driver
// needed, so the unit tests use it directly.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

namespace ptxopt::rt {

struct Config {
  bool disable = false;           // PTXOPT_DISABLE=1: originals only (no optimization, no clone launched)
  int log = 0;                    // PTXOPT_LOG: 0 quiet, 1 one line per launch shape, 2 every launch
  bool autotune = false;          // PTXOPT_AUTOTUNE=1: time original against clone, keep the faster
  uint32_t autotuneSamples = 5;   // PTXOPT_AUTOTUNE_SAMPLES: timed launches of each (2*N in all)
  int device = 0;                 // PTXOPT_DEVICE: device whose primary context is used when none is current
  std::string libcuda = "libcuda.so.1";  // PTXOPT_LIBCUDA: the driver library to dlopen
  // PTXOPT_FIRST_LAUNCH_CLONES=1: a ptx-nvcc kernel whose clones are in an
  // image of their own loads it on the first launch that can use a clone,
  // whatever the load-cost rule (NvccShim.cpp, "imageLoadPays") says
  bool firstLaunchClones = false;
  // PTXOPT_PRELOAD_IMAGES (default on; 0 turns it off): under lazy loading
  // a ptx-nvcc program's clone images are loaded right after its context is
  // made (its first allocation), not inside its run (NvccShim.cpp,
  // "preloadImages")
  bool preloadImages = true;
  // CUDA_MODULE_LOADING (the driver's): anything but EAGER is lazy loading,
  // CUDA's default: an image is loaded when a launch first uses one of its
  // functions. Eagerly loaded images cost nothing at a launch.
  bool lazyLoading = true;
};

/// Reads the settings through `get` (a getenv-like lookup; null = unset).
Config configFrom(const std::function<const char *(const char *)> &get);
/// Reads the settings from the process environment.
Config configFromEnv();
/// "1", "true", "yes", "on" (any case) are true; anything else is false.
bool envFlag(const char *value);

}  // namespace ptxopt::rt
