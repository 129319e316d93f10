// A fake CUDA driver for the runtime's unit tests on machines without a GPU.
//
// It exports the Driver API entry points that libptxopt binds (same names
// and prototypes as cuda.h, versioned where cuda.h says so) and behaves just
// enough like the driver: a "module" is the PTX text, its functions are its
// `.entry` names, its globals the `__ptxopt_manifest_<kernel>` byte arrays;
// launches are recorded instead of run, and check the limits a real device
// has (1024 threads per block, grid.y/z <= 65535) and that the calling thread
// has a current context. Events read a clock that each launch advances by
// the kernel's time (fake_cuda_set_time), so autotuning can be tested.
// The fake_cuda_* functions let a test look at and steer it.
#include <cuda.h>
#include <pthread.h>

#include <cctype>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#define FAKE_API extern "C" __attribute__((visibility("default")))

struct CUctx_st {
  int device = 0;
};
struct CUfunc_st {
  std::string name;
};
struct CUmod_st {
  std::map<std::string, std::unique_ptr<CUfunc_st>> functions;
  std::map<std::string, std::vector<unsigned char>> globals;
};
struct CUevent_st {
  double at = 0;
};

namespace {

struct Launch {
  std::string name;
  unsigned dims[7];  // grid x y z, block x y z, shared bytes
  std::vector<uint32_t> args;  // the first 4 bytes of each argument (fake_cuda_set_param_count)
};

std::mutex mu;
CUctx_st primary;
int primaryRefs = 0;
// The calling thread's current context, in pthread-specific data (a new
// thread has none) rather than a thread_local: a thread_local of this
// dlopen'ed library lives in dynamic TLS, which gcc 12's LeakSanitizer
// mis-reads at exit under glibc 2.36-9+deb12u14 (every sanitized fake-driver
// test crashed there: "Tracer caught signal 11", "DTLS 7 at
// 0x00000000128d-0x00080000238f"; LSAN_OPTIONS=use_tls=0 passed them).
pthread_key_t currentKey() {
  static const pthread_key_t key = [] {
    pthread_key_t k;
    pthread_key_create(&k, nullptr);
    return k;
  }();
  return key;
}
CUcontext current() { return static_cast<CUcontext>(pthread_getspecific(currentKey())); }
void setCurrent(CUcontext c) { pthread_setspecific(currentKey(), c); }
std::vector<Launch> launches;
std::map<std::string, float> times;       // ms per launch, by kernel name (default 1)
std::map<std::string, int> maxThreads;    // CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK (default 1024)
std::map<std::string, int> paramCounts;   // arguments to record, by kernel name (default none)
int rejectLoads = 0;
int liveModules = 0;
double clockMs = 0;

std::string identifier(const std::string &text, size_t at) {
  size_t end = at;
  while (end < text.size() && (std::isalnum(static_cast<unsigned char>(text[end])) || text[end] == '_' ||
                               text[end] == '$' || text[end] == '.'))
    ++end;
  return text.substr(at, end - at);
}

void parseEntries(const std::string &ptx, CUmod_st &m) {
  for (size_t at = 0; (at = ptx.find(".entry ", at)) != std::string::npos; at += 7) {
    std::string name = identifier(ptx, at + 7);
    m.functions[name] = std::make_unique<CUfunc_st>(CUfunc_st{name});
  }
}

/// `.global ... __ptxopt_manifest_k[N] = {1, 2, ...};`
void parseGlobals(const std::string &ptx, CUmod_st &m) {
  const std::string prefix = "__ptxopt_manifest_";
  for (size_t at = 0; (at = ptx.find(prefix, at)) != std::string::npos; at += prefix.size()) {
    size_t lineStart = ptx.rfind('\n', at);
    lineStart = lineStart == std::string::npos ? 0 : lineStart;
    if (ptx.substr(lineStart, at - lineStart).find(".global") == std::string::npos) continue;
    std::string name = identifier(ptx, at);
    size_t open = ptx.find('{', at), close = ptx.find('}', at);
    if (open == std::string::npos || close == std::string::npos) continue;
    std::vector<unsigned char> bytes;
    const char *p = ptx.c_str() + open + 1;
    while (p < ptx.c_str() + close) {
      char *end = nullptr;
      long v = std::strtol(p, &end, 0);
      if (end == p) ++p;
      else bytes.push_back(static_cast<unsigned char>(v)), p = end;
    }
    m.globals[name] = bytes;
  }
}

void writeJitLog(unsigned n, CUjit_option *keys, void **values, const char *text) {
  char *buffer = nullptr;
  size_t size = 0;
  for (unsigned i = 0; i < n; ++i) {
    if (keys[i] == CU_JIT_ERROR_LOG_BUFFER) buffer = static_cast<char *>(values[i]);
    if (keys[i] == CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES) size = reinterpret_cast<uintptr_t>(values[i]);
  }
  if (buffer && size) std::snprintf(buffer, size, "%s", text);
}

}  // namespace

// ------------------------------------------------------------ the Driver API

CUresult CUDAAPI cuInit(unsigned int) { return CUDA_SUCCESS; }

CUresult CUDAAPI cuDriverGetVersion(int *v) {
  *v = 13000;
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuGetErrorName(CUresult e, const char **s) {
  switch (e) {
    case CUDA_SUCCESS: *s = "CUDA_SUCCESS"; return CUDA_SUCCESS;
    case CUDA_ERROR_INVALID_VALUE: *s = "CUDA_ERROR_INVALID_VALUE"; return CUDA_SUCCESS;
    case CUDA_ERROR_INVALID_PTX: *s = "CUDA_ERROR_INVALID_PTX"; return CUDA_SUCCESS;
    case CUDA_ERROR_NOT_FOUND: *s = "CUDA_ERROR_NOT_FOUND"; return CUDA_SUCCESS;
    case CUDA_ERROR_INVALID_CONTEXT: *s = "CUDA_ERROR_INVALID_CONTEXT"; return CUDA_SUCCESS;
    default: *s = nullptr; return CUDA_ERROR_INVALID_VALUE;
  }
}

CUresult CUDAAPI cuGetErrorString(CUresult e, const char **s) {
  *s = e == CUDA_ERROR_INVALID_PTX ? "a PTX JIT compilation failed" : "fake driver error";
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuDeviceGet(CUdevice *d, int ordinal) {
  if (ordinal != 0) return CUDA_ERROR_INVALID_VALUE;
  *d = 0;
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuDeviceGetAttribute(int *v, CUdevice_attribute a, CUdevice) {
  switch (a) {
    case CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X:
    case CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y:
    case CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK: *v = 1024; return CUDA_SUCCESS;
    case CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z: *v = 64; return CUDA_SUCCESS;
    case CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X: *v = 2147483647; return CUDA_SUCCESS;
    case CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y:
    case CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z: *v = 65535; return CUDA_SUCCESS;
    default: return CUDA_ERROR_INVALID_VALUE;
  }
}

CUresult CUDAAPI cuDevicePrimaryCtxRetain(CUcontext *c, CUdevice) {
  std::lock_guard lock(mu);
  ++primaryRefs;
  *c = &primary;
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuDevicePrimaryCtxRelease(CUdevice) {
  std::lock_guard lock(mu);
  --primaryRefs;
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuCtxGetCurrent(CUcontext *c) {
  *c = current();
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuCtxSetCurrent(CUcontext c) {
  setCurrent(c);
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuCtxGetDevice(CUdevice *d) {
  if (!current()) return CUDA_ERROR_INVALID_CONTEXT;
  *d = 0;
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuModuleLoadDataEx(CUmodule *out, const void *image, unsigned n, CUjit_option *keys, void **values) {
  std::lock_guard lock(mu);
  if (!current()) return CUDA_ERROR_INVALID_CONTEXT;
  if (rejectLoads > 0) {
    --rejectLoads;
    writeJitLog(n, keys, values, "fake ptxas: rejected on purpose");
    return CUDA_ERROR_INVALID_PTX;
  }
  std::string ptx(static_cast<const char *>(image));
  if (ptx.find(".version") == std::string::npos) return CUDA_ERROR_INVALID_PTX;
  auto *m = new CUmod_st;
  parseEntries(ptx, *m);
  parseGlobals(ptx, *m);
  ++liveModules;
  *out = m;
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuModuleUnload(CUmodule m) {
  std::lock_guard lock(mu);
  --liveModules;
  delete m;
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuModuleGetFunction(CUfunction *f, CUmodule m, const char *name) {
  auto it = m->functions.find(name);
  if (it == m->functions.end()) return CUDA_ERROR_NOT_FOUND;
  *f = it->second.get();
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuModuleGetGlobal(CUdeviceptr *ptr, size_t *bytes, CUmodule m, const char *name) {
  auto it = m->globals.find(name);
  if (it == m->globals.end()) return CUDA_ERROR_NOT_FOUND;
  *ptr = reinterpret_cast<CUdeviceptr>(it->second.data());
  *bytes = it->second.size();
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuMemcpyDtoH(void *dst, CUdeviceptr src, size_t bytes) {
  std::memcpy(dst, reinterpret_cast<const void *>(src), bytes);
  return CUDA_SUCCESS;
}

// gpu-diff --expect-only gives buffer i the made-up address (i+1) << 32:
// each 4 GiB above 4 GiB is one allocation; nothing below is known.
CUresult CUDAAPI cuMemGetAddressRange(CUdeviceptr *base, size_t *size, CUdeviceptr ptr) {
  if (ptr < (CUdeviceptr(1) << 32)) return CUDA_ERROR_NOT_FOUND;
  if (base) *base = ptr & ~((CUdeviceptr(1) << 32) - 1);
  if (size) *size = size_t(1) << 32;
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuFuncGetAttribute(int *v, CUfunction_attribute a, CUfunction f) {
  if (a != CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK) return CUDA_ERROR_INVALID_VALUE;
  std::lock_guard lock(mu);
  auto it = maxThreads.find(f->name);
  *v = it == maxThreads.end() ? 1024 : it->second;
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuLaunchKernel(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
                                unsigned bz, unsigned shared, CUstream, void **params, void **) {
  if (!current()) return CUDA_ERROR_INVALID_CONTEXT;
  std::lock_guard lock(mu);
  auto mt = maxThreads.find(f->name);
  uint64_t limit = mt == maxThreads.end() ? 1024 : mt->second;
  if (uint64_t(bx) * by * bz > limit || bx > 1024 || by > 1024 || bz > 64 || gy > 65535 || gz > 65535 || !gx ||
      !gy || !gz || !bx || !by || !bz)
    return CUDA_ERROR_INVALID_VALUE;
  launches.push_back({f->name, {gx, gy, gz, bx, by, bz, shared}, {}});
  if (auto pc = paramCounts.find(f->name); pc != paramCounts.end()) {
    if (!params) return CUDA_ERROR_INVALID_VALUE;
    for (int i = 0; i < pc->second; ++i) {
      uint32_t v = 0;
      std::memcpy(&v, params[i], sizeof v);
      launches.back().args.push_back(v);
    }
  }
  auto t = times.find(f->name);
  clockMs += t == times.end() ? 1.0 : t->second;
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuEventCreate(CUevent *e, unsigned) {
  *e = new CUevent_st;
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuEventRecord(CUevent e, CUstream) {
  std::lock_guard lock(mu);
  e->at = clockMs;
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuEventSynchronize(CUevent) { return CUDA_SUCCESS; }

CUresult CUDAAPI cuEventElapsedTime(float *ms, CUevent a, CUevent b) {
  *ms = static_cast<float>(b->at - a->at);
  return CUDA_SUCCESS;
}

CUresult CUDAAPI cuEventDestroy(CUevent e) {
  delete e;
  return CUDA_SUCCESS;
}

// ------------------------------------------------------------ test controls

FAKE_API void fake_cuda_reset(void) {
  std::lock_guard lock(mu);
  launches.clear();
  times.clear();
  maxThreads.clear();
  paramCounts.clear();
  rejectLoads = 0;
}

FAKE_API int fake_cuda_launch_count(void) {
  std::lock_guard lock(mu);
  return static_cast<int>(launches.size());
}

/// Name of launch i's function; its grid, block and shared bytes in dims[7].
FAKE_API const char *fake_cuda_launch(int i, unsigned *dims) {
  std::lock_guard lock(mu);
  if (i < 0 || i >= static_cast<int>(launches.size())) return "";
  if (dims) std::memcpy(dims, launches[i].dims, sizeof launches[i].dims);
  return launches[i].name.c_str();
}

/// Launches of `name` record the first 4 bytes of each of its first `n`
/// arguments (kernelParams[0..n-1]); fake_cuda_launch_arg reads them.
FAKE_API void fake_cuda_set_param_count(const char *name, int n) {
  std::lock_guard lock(mu);
  paramCounts[name] = n;
}

/// Argument j of launch i as recorded (0 when not recorded).
FAKE_API uint32_t fake_cuda_launch_arg(int i, int j) {
  std::lock_guard lock(mu);
  if (i < 0 || i >= static_cast<int>(launches.size()) || j < 0 || j >= static_cast<int>(launches[i].args.size()))
    return 0;
  return launches[i].args[j];
}

FAKE_API void fake_cuda_set_time(const char *name, float ms) {
  std::lock_guard lock(mu);
  times[name] = ms;
}

FAKE_API void fake_cuda_set_max_threads(const char *name, int n) {
  std::lock_guard lock(mu);
  maxThreads[name] = n;
}

FAKE_API void fake_cuda_reject_next_loads(int n) {
  std::lock_guard lock(mu);
  rejectLoads = n;
}

FAKE_API int fake_cuda_live_modules(void) {
  std::lock_guard lock(mu);
  return liveModules;
}

FAKE_API int fake_cuda_primary_refs(void) {
  std::lock_guard lock(mu);
  return primaryRefs;
}

/// Makes the calling thread have no current context (as a new thread has).
FAKE_API void fake_cuda_clear_current(void) { setCurrent(nullptr); }
