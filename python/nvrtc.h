// NVRTC, the toolkit's run-time CUDA C++ compiler, for the Python module's
// RawKernel: loaded with dlopen on first use (PTXOPT_NVRTC, else
// libnvrtc.so.13, libnvrtc.so, then the toolkit's library folder of the
// build), so the module imports, and optimize() works, without it. NVRTC
// needs no GPU: it compiles to PTX for the architecture it is given.
#pragma once

#include <string>
#include <vector>

namespace ptxopt::pyext {

struct NvrtcResult {
  std::string ptx;
  std::string log;          // the compiler's messages (warnings too)
  std::string loweredName;  // the kernel's name in the PTX (mangled unless extern "C")
};

/// Compiles `source` to PTX for `arch` ("sm_90", "compute_90" or "90"), with
/// the extra NVRTC `options`; `name` (a kernel name or a name expression such
/// as "k<float>") is registered, and its lowered name returned. Throws
/// std::runtime_error with the compiler's log on failure.
NvrtcResult nvrtcCompile(const std::string &source, const std::string &name, const std::string &arch,
                         const std::vector<std::string> &options, const std::string &programName);

/// NVRTC's (major, minor) version; throws when NVRTC cannot be loaded.
std::pair<int, int> nvrtcVersion();

}  // namespace ptxopt::pyext
