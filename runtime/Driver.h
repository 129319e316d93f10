// The CUDA Driver API, loaded at run time with dlopen("libcuda.so.1") and
// dlsym: nothing links libcuda, so the library and its tests build and run on
// machines without a driver. cuda.h gives the types and, through its macros,
// the versioned entry-point names (cuModuleGetGlobal -> cuModuleGetGlobal_v2),
// so each pointer below has the exact prototype of the symbol it is bound to.
// Only runtime/ includes this file.
#pragma once

#include <cuda.h>

#include <string>

namespace ptxopt::rt {

// X(name) for every entry point the runtime uses.
#define PTXOPT_DRIVER_ENTRY_POINTS(X) \
  X(cuInit)                           \
  X(cuDriverGetVersion)               \
  X(cuGetErrorName)                   \
  X(cuGetErrorString)                 \
  X(cuDeviceGet)                      \
  X(cuDeviceGetAttribute)             \
  X(cuDevicePrimaryCtxRetain)         \
  X(cuDevicePrimaryCtxRelease)        \
  X(cuCtxGetCurrent)                  \
  X(cuCtxSetCurrent)                  \
  X(cuCtxGetDevice)                   \
  X(cuModuleLoadDataEx)               \
  X(cuModuleUnload)                   \
  X(cuModuleGetFunction)              \
  X(cuModuleGetGlobal)                \
  X(cuMemcpyDtoH)                     \
  X(cuMemGetAddressRange)             \
  X(cuFuncGetAttribute)               \
  X(cuLaunchKernel)                   \
  X(cuEventCreate)                    \
  X(cuEventRecord)                    \
  X(cuEventSynchronize)               \
  X(cuEventElapsedTime)               \
  X(cuEventDestroy)

struct Driver {
#define PTXOPT_DRIVER_MEMBER(fn) decltype(&::fn) fn = nullptr;
  PTXOPT_DRIVER_ENTRY_POINTS(PTXOPT_DRIVER_MEMBER)
#undef PTXOPT_DRIVER_MEMBER
  int version = 0;  // cuDriverGetVersion
};

/// The loaded and initialized driver, or null with `error` set (a sentence
/// that names the driver library). `libcuda` is the library to open (once;
/// it stays loaded); a failed attempt is not remembered, so a later call
/// tries again.
const Driver *loadDriver(const std::string &libcuda, std::string &error);

/// "<call>: <CUDA_ERROR_NAME>: <description>".
std::string cudaErrorText(const Driver &d, CUresult r, const char *call);

}  // namespace ptxopt::rt
