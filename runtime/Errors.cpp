// The C API's error reporting (thread-local last error, status names) and the
// runtime's stderr messages.
#include <cstdio>
#include <string>

#include "Internal.h"

namespace {
thread_local std::string lastError;
thread_local int lastCudaResult = 0;
}  // namespace

namespace ptxopt::rt {

ptxopt_status fail(ptxopt_status s, std::string message, int cudaResult) {
  lastError = std::move(message);
  lastCudaResult = cudaResult;
  return s;
}

ptxopt_status failCuda(const Driver &d, CUresult r, const char *call, const std::string &context) {
  std::string text = cudaErrorText(d, r, call);
  if (!context.empty()) text += " (" + context + ")";
  return fail(PTXOPT_ERROR_CUDA, std::move(text), static_cast<int>(r));
}

void logLine(const std::string &line) {
  std::string out = "ptxopt: " + line + "\n";
  std::fwrite(out.data(), 1, out.size(), stderr);  // one write: lines of several threads do not mix
}

void warn(const std::string &line) { logLine("warning: " + line); }

}  // namespace ptxopt::rt

extern "C" {

const char *ptxopt_last_error(void) { return lastError.c_str(); }

int ptxopt_last_cuda_result(void) { return lastCudaResult; }

const char *ptxopt_status_name(ptxopt_status s) {
  switch (s) {
    case PTXOPT_SUCCESS: return "PTXOPT_SUCCESS";
    case PTXOPT_ERROR_INVALID_VALUE: return "PTXOPT_ERROR_INVALID_VALUE";
    case PTXOPT_ERROR_NO_DRIVER: return "PTXOPT_ERROR_NO_DRIVER";
    case PTXOPT_ERROR_CUDA: return "PTXOPT_ERROR_CUDA";
    case PTXOPT_ERROR_NOT_FOUND: return "PTXOPT_ERROR_NOT_FOUND";
    case PTXOPT_ERROR_IO: return "PTXOPT_ERROR_IO";
  }
  return "PTXOPT_ERROR_UNKNOWN";
}

}  // extern "C"
