// NVRTC loaded with dlopen (nvrtc.h).
#include "nvrtc.h"

#include <dlfcn.h>
#include <nvrtc.h>

#include <cstdlib>
#include <mutex>
#include <stdexcept>

namespace ptxopt::pyext {

namespace {

#define PTXOPT_NVRTC_ENTRY_POINTS(X) \
  X(nvrtcVersion)                    \
  X(nvrtcGetErrorString)             \
  X(nvrtcCreateProgram)              \
  X(nvrtcDestroyProgram)             \
  X(nvrtcAddNameExpression)          \
  X(nvrtcCompileProgram)             \
  X(nvrtcGetProgramLogSize)          \
  X(nvrtcGetProgramLog)              \
  X(nvrtcGetPTXSize)                 \
  X(nvrtcGetPTX)                     \
  X(nvrtcGetLoweredName)

struct Nvrtc {
#define PTXOPT_NVRTC_MEMBER(fn) decltype(&::fn) fn = nullptr;
  PTXOPT_NVRTC_ENTRY_POINTS(PTXOPT_NVRTC_MEMBER)
#undef PTXOPT_NVRTC_MEMBER
};

/// The library, opened once; throws with every path tried when none opens.
const Nvrtc &nvrtc() {
  static std::mutex mu;
  static Nvrtc lib;
  static bool loaded = false;
  std::lock_guard lock(mu);
  if (loaded) return lib;
  std::vector<std::string> paths;
  if (const char *env = std::getenv("PTXOPT_NVRTC"); env && *env) paths.push_back(env);
  paths.insert(paths.end(), {"libnvrtc.so.13", "libnvrtc.so", PTXOPT_CUDA_LIBDIR "/libnvrtc.so"});
  std::string tried;
  void *h = nullptr;
  for (const auto &p : paths) {
    if ((h = dlopen(p.c_str(), RTLD_NOW | RTLD_LOCAL))) break;
    const char *why = dlerror();
    tried += "\n  " + p + ": " + (why ? why : "dlopen failed");
  }
  if (!h) throw std::runtime_error("NVRTC not found (set PTXOPT_NVRTC to libnvrtc.so's path); tried:" + tried);
#define PTXOPT_NVRTC_BIND(fn)                                            \
  lib.fn = reinterpret_cast<decltype(lib.fn)>(dlsym(h, #fn));            \
  if (!lib.fn) throw std::runtime_error("the NVRTC library lacks " #fn);
  PTXOPT_NVRTC_ENTRY_POINTS(PTXOPT_NVRTC_BIND)
#undef PTXOPT_NVRTC_BIND
  loaded = true;
  return lib;
}

void check(const Nvrtc &n, nvrtcResult r, const char *call) {
  if (r != NVRTC_SUCCESS) throw std::runtime_error(std::string(call) + ": " + n.nvrtcGetErrorString(r));
}

/// "sm_90", "compute_90", "90", "9.0" -> "-arch=compute_90" (PTX output).
std::string archOption(std::string arch) {
  for (const char *prefix : {"sm_", "compute_"})
    if (arch.rfind(prefix, 0) == 0) arch = arch.substr(std::string(prefix).size());
  if (auto dot = arch.find('.'); dot != std::string::npos) arch.erase(dot, 1);
  if (arch.empty() || arch.find_first_not_of("0123456789abf") != std::string::npos)
    throw std::invalid_argument("arch '" + arch + "': expected sm_XY, compute_XY or XY");
  return "-arch=compute_" + arch;
}

struct Program {
  const Nvrtc &n;
  nvrtcProgram p = nullptr;
  ~Program() {
    if (p) n.nvrtcDestroyProgram(&p);
  }
};

}  // namespace

NvrtcResult nvrtcCompile(const std::string &source, const std::string &name, const std::string &arch,
                         const std::vector<std::string> &options, const std::string &programName) {
  const Nvrtc &n = nvrtc();
  std::vector<std::string> opts{archOption(arch), "--include-path=" PTXOPT_CUDA_INCLUDEDIR};
  opts.insert(opts.end(), options.begin(), options.end());
  std::vector<const char *> argv;
  for (const auto &o : opts) argv.push_back(o.c_str());
  Program prog{n};
  check(n, n.nvrtcCreateProgram(&prog.p, source.c_str(), programName.c_str(), 0, nullptr, nullptr),
        "nvrtcCreateProgram");
  if (!name.empty()) check(n, n.nvrtcAddNameExpression(prog.p, name.c_str()), "nvrtcAddNameExpression");
  nvrtcResult compiled = n.nvrtcCompileProgram(prog.p, static_cast<int>(argv.size()), argv.data());
  NvrtcResult out;
  size_t size = 0;
  if (n.nvrtcGetProgramLogSize(prog.p, &size) == NVRTC_SUCCESS && size > 1) {
    out.log.resize(size);
    n.nvrtcGetProgramLog(prog.p, out.log.data());
    out.log.resize(size - 1);
  }
  if (compiled != NVRTC_SUCCESS)
    throw std::runtime_error("nvrtcCompileProgram: " + std::string(n.nvrtcGetErrorString(compiled)) + "\n" + out.log);
  check(n, n.nvrtcGetPTXSize(prog.p, &size), "nvrtcGetPTXSize");
  out.ptx.resize(size);
  check(n, n.nvrtcGetPTX(prog.p, out.ptx.data()), "nvrtcGetPTX");
  if (!out.ptx.empty() && out.ptx.back() == '\0') out.ptx.pop_back();
  if (!name.empty()) {
    const char *lowered = nullptr;
    check(n, n.nvrtcGetLoweredName(prog.p, name.c_str(), &lowered), "nvrtcGetLoweredName");
    out.loweredName = lowered;
  }
  return out;
}

std::pair<int, int> nvrtcVersion() {
  int major = 0, minor = 0;
  const Nvrtc &n = nvrtc();
  check(n, n.nvrtcVersion(&major, &minor), "nvrtcVersion");
  return {major, minor};
}

}  // namespace ptxopt::pyext
