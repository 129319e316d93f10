// Loads libcuda with dlopen and binds the entry points listed in Driver.h.
#include "Driver.h"

#include <dlfcn.h>

#include <map>
#include <mutex>

namespace ptxopt::rt {

namespace {

#define PTXOPT_STR2(x) #x
#define PTXOPT_STR(x) PTXOPT_STR2(x)  // expands cuda.h's macros first: "cuModuleGetGlobal_v2"

/// Binds every entry point; false with the name of the first missing one.
bool bindAll(void *lib, Driver &d, std::string &missing) {
#define PTXOPT_DRIVER_BIND(fn)                                          \
  d.fn = reinterpret_cast<decltype(d.fn)>(dlsym(lib, PTXOPT_STR(fn))); \
  if (!d.fn) {                                                          \
    missing = PTXOPT_STR(fn);                                           \
    return false;                                                       \
  }
  PTXOPT_DRIVER_ENTRY_POINTS(PTXOPT_DRIVER_BIND)
#undef PTXOPT_DRIVER_BIND
  return true;
}

/// dlopen + dlsym + cuInit; the library stays open on success.
bool tryLoad(const std::string &libcuda, Driver &d, std::string &error) {
  void *lib = dlopen(libcuda.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    const char *why = dlerror();
    error = "no CUDA driver: cannot load " + libcuda + " (" + (why ? why : "dlopen failed") + ")";
    return false;
  }
  std::string missing;
  if (!bindAll(lib, d, missing)) {
    error = "the CUDA driver " + libcuda + " lacks " + missing + " (a driver for CUDA 13 or newer is needed)";
    dlclose(lib);
    return false;
  }
  if (CUresult r = d.cuInit(0); r != CUDA_SUCCESS) {
    error = "the CUDA driver " + libcuda + " failed to initialize: " + cudaErrorText(d, r, "cuInit");
    dlclose(lib);
    return false;
  }
  d.cuDriverGetVersion(&d.version);
  return true;
}

/// Names of the errors a driver that cannot name them (the toolkit's stub
/// library) may return from cuInit.
const char *fallbackErrorName(CUresult r) {
  switch (r) {
    case CUDA_ERROR_STUB_LIBRARY: return "CUDA_ERROR_STUB_LIBRARY";
    case CUDA_ERROR_NO_DEVICE: return "CUDA_ERROR_NO_DEVICE";
    case CUDA_ERROR_SYSTEM_DRIVER_MISMATCH: return "CUDA_ERROR_SYSTEM_DRIVER_MISMATCH";
    case CUDA_ERROR_NOT_INITIALIZED: return "CUDA_ERROR_NOT_INITIALIZED";
    default: return nullptr;
  }
}

}  // namespace

const Driver *loadDriver(const std::string &libcuda, std::string &error) {
  // One driver per library path, never unloaded (modules keep pointers to it);
  // in practice there is one, libcuda.so.1 (tests also load a fake one).
  static std::mutex mu;
  static std::map<std::string, Driver> loaded;
  std::lock_guard lock(mu);
  if (auto it = loaded.find(libcuda); it != loaded.end()) return &it->second;
  Driver fresh;
  if (!tryLoad(libcuda, fresh, error)) return nullptr;
  return &loaded.emplace(libcuda, fresh).first->second;
}

std::string cudaErrorText(const Driver &d, CUresult r, const char *call) {
  const char *name = nullptr, *text = nullptr;
  if (!d.cuGetErrorName || d.cuGetErrorName(r, &name) != CUDA_SUCCESS) name = fallbackErrorName(r);
  if (!d.cuGetErrorString || d.cuGetErrorString(r, &text) != CUDA_SUCCESS) text = nullptr;
  std::string s = std::string(call) + ": ";
  s += name ? name : "CUDA error " + std::to_string(static_cast<int>(r));
  if (text) s += std::string(": ") + text;
  return s;
}

}  // namespace ptxopt::rt
