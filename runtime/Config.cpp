// The runtime's settings from the environment (include/ptxopt/runtime/Config.h).
#include "ptxopt/runtime/Config.h"

#include <cctype>
#include <cstdlib>
#include <string>

namespace ptxopt::rt {

namespace {

/// A non-negative integer, or `fallback` for an unset or malformed value.
long envNumber(const char *value, long fallback) {
  if (!value || !*value) return fallback;
  char *end = nullptr;
  long n = std::strtol(value, &end, 10);
  return (*end == '\0' && n >= 0) ? n : fallback;
}

}  // namespace

bool envFlag(const char *value) {
  if (!value) return false;
  std::string v;
  for (const char *p = value; *p; ++p) v += static_cast<char>(std::tolower(static_cast<unsigned char>(*p)));
  return v == "1" || v == "true" || v == "yes" || v == "on";
}

Config configFrom(const std::function<const char *(const char *)> &get) {
  Config c;
  c.disable = envFlag(get("PTXOPT_DISABLE"));
  // A number is the level (at most 2); PTXOPT_LOG=yes/true/on means 1.
  const char *log = get("PTXOPT_LOG");
  c.log = static_cast<int>(envNumber(log, envFlag(log) ? 1 : 0));
  if (c.log > 2) c.log = 2;
  c.autotune = envFlag(get("PTXOPT_AUTOTUNE"));
  long samples = envNumber(get("PTXOPT_AUTOTUNE_SAMPLES"), 5);
  c.autotuneSamples = static_cast<uint32_t>(samples >= 1 && samples <= 1000 ? samples : 5);
  c.device = static_cast<int>(envNumber(get("PTXOPT_DEVICE"), 0));
  if (const char *lib = get("PTXOPT_LIBCUDA"); lib && *lib) c.libcuda = lib;
  c.firstLaunchClones = envFlag(get("PTXOPT_FIRST_LAUNCH_CLONES"));
  if (const char *preload = get("PTXOPT_PRELOAD_IMAGES"); preload && *preload) c.preloadImages = envFlag(preload);
  const char *loading = get("CUDA_MODULE_LOADING");
  c.lazyLoading = !(loading && std::string(loading) == "EAGER");
  return c;
}

Config configFromEnv() {
  return configFrom([](const char *name) -> const char * { return std::getenv(name); });
}

}  // namespace ptxopt::rt
