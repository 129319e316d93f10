// The launch shim: selection (cached per launch shape), logging, autotuning,
// and the one cuLaunchKernel each user launch makes.
#include <unordered_map>

#include "Internal.h"

using namespace ptxopt;
using namespace ptxopt::rt;

namespace {

/// The variant (-1: original) of each kernel's last launch on this thread,
/// keyed by the kernel's process-unique id.
thread_local std::unordered_map<uint64_t, int> lastVariant;

CUresult rawLaunch(const Driver &d, CUfunction f, const LaunchShape &s, CUstream stream, void **params) {
  return d.cuLaunchKernel(f, s.grid[0], s.grid[1], s.grid[2], s.block[0], s.block[1], s.block[2], s.sharedBytes,
                          stream, params, nullptr);
}

/// A thread without a current context gets the module's (as the CUDA
/// runtime does); a thread with another context keeps it.
ptxopt_status useContext(const ptxopt_module_st &m) {
  CUcontext current = nullptr;
  if (CUresult r = m.driver->cuCtxGetCurrent(&current); r != CUDA_SUCCESS)
    return failCuda(*m.driver, r, "cuCtxGetCurrent");
  if (!current)
    if (CUresult r = m.driver->cuCtxSetCurrent(m.context); r != CUDA_SUCCESS)
      return failCuda(*m.driver, r, "cuCtxSetCurrent");
  return PTXOPT_SUCCESS;
}

ptxopt_status launchVariant(ptxopt_kernel_st &k, int variant, const LaunchShape &s, CUstream stream,
                            void **params) {
  const Driver &d = *k.module->driver;
  CUfunction f = variant < 0 ? k.original : k.functions[variant];
  if (CUresult r = rawLaunch(d, f, s, stream, params); r != CUDA_SUCCESS)
    return failCuda(d, r, "cuLaunchKernel",
                    "kernel " + (variant < 0 ? k.name : k.manifest.variants[variant].name) + " " + shapeText(s));
  lastVariant[k.id] = variant;
  return PTXOPT_SUCCESS;
}

struct Timing {
  bool ok = false;  // the events worked
  float ms = 0;
};

/// Times one launch with events on its stream. A launch error is returned
/// as a status; an event error only makes the timing invalid.
ptxopt_status timedLaunch(ptxopt_kernel_st &k, int variant, const LaunchShape &s, CUstream stream, void **params,
                          Timing &t) {
  const Driver &d = *k.module->driver;
  CUevent start = nullptr, stop = nullptr;
  bool events = d.cuEventCreate(&start, CU_EVENT_DEFAULT) == CUDA_SUCCESS &&
                d.cuEventCreate(&stop, CU_EVENT_DEFAULT) == CUDA_SUCCESS &&
                d.cuEventRecord(start, stream) == CUDA_SUCCESS;
  ptxopt_status s0 = launchVariant(k, variant, s, stream, params);
  if (s0 == PTXOPT_SUCCESS && events && d.cuEventRecord(stop, stream) == CUDA_SUCCESS) {
    if (CUresult r = d.cuEventSynchronize(stop); r != CUDA_SUCCESS) s0 = failCuda(d, r, "cuEventSynchronize", k.name);
    else t.ok = d.cuEventElapsedTime(&t.ms, start, stop) == CUDA_SUCCESS;
  }
  if (start) d.cuEventDestroy(start);
  if (stop) d.cuEventDestroy(stop);
  return s0;
}

/// A launch of a shape whose selection chose a clone, under autotuning.
/// `params` are the original's arguments, `cloneParams` the clone's (with
/// its extra arguments, if any).
ptxopt_status tunedLaunch(ptxopt_kernel_st &k, ShapeEntry &e, const Selection &sel, const LaunchShape &s,
                          CUstream stream, void **params, void **cloneParams) {
  Autotuner::Step step = e.tuner.next();
  int variant = step.runClone ? sel.variant : -1;
  const LaunchShape &launch = step.runClone ? sel.launch : s;
  void **args = step.runClone ? cloneParams : params;
  if (!step.timed) return launchVariant(k, variant, launch, stream, args);
  Timing t;
  if (ptxopt_status st = timedLaunch(k, variant, launch, stream, args, t); st != PTXOPT_SUCCESS) return st;
  const std::string &clone = k.manifest.variants[sel.variant].name;
  if (!t.ok) {
    e.tuner.abandon();
    warn("autotune " + k.name + " " + shapeText(s) + ": CUDA events failed; keeping " + clone);
  } else if (e.tuner.record(step.runClone, t.ms)) {
    bool keepClone = e.tuner.decision() == Autotuner::Decision::Clone;
    logLine("autotune " + k.name + " " + shapeText(s) + ": keeping " + (keepClone ? clone : "the original") + ": " +
            e.tuner.summary());
  }
  return PTXOPT_SUCCESS;
}

}  // namespace

extern "C" {

ptxopt_status ptxopt_launch(ptxopt_kernel k, unsigned gridX, unsigned gridY, unsigned gridZ, unsigned blockX,
                            unsigned blockY, unsigned blockZ, unsigned sharedBytes, CUstream stream,
                            void **params) {
  if (!k) return fail(PTXOPT_ERROR_INVALID_VALUE, "ptxopt_launch: null kernel");
  LaunchShape s{{gridX, gridY, gridZ}, {blockX, blockY, blockZ}, sharedBytes};
  for (int d = 0; d < 3; ++d)
    if (!s.grid[d] || !s.block[d])
      return fail(PTXOPT_ERROR_INVALID_VALUE, "ptxopt_launch: " + k->name + " " + shapeText(s) +
                                                  ": grid and block dimensions must be at least 1");
  if (ptxopt_status st = useContext(*k->module); st != PTXOPT_SUCCESS) return st;
  const Config &cfg = k->module->config;
  if (cfg.disable || k->manifest.variants.empty()) return launchVariant(*k, -1, s, stream, params);
  // The decisions keep their text for PTXOPT_LOG, autotuning, and kernels of more variants than a mask takes.
  const bool withText = cfg.log != 0 || cfg.autotune || k->manifest.variants.size() > kMaskVariants;
  const ChoiceText text{cfg.log, cfg.autotuneSamples, logLine};
  const MaxThreadsOf maxThreads{[](const void *kernel, size_t i, uint32_t) {
                                  return static_cast<const ptxopt_kernel_st *>(kernel)->maxThreads[i];
                                },
                                k};
  Selection sel;
  std::shared_ptr<ShapeEntry> entry;
  chooseLaunch(k->manifest, s, k->module->limits, maxThreads, params, &k->module->allocationLookup, true, k->masks,
               k->cache, withText ? &text : nullptr, sel, &entry);
  if (sel.variant < 0) return launchVariant(*k, -1, sel.launch, stream, params);
  VariantArgs buf;
  void **cloneParams = variantArgs(k->manifest, k->manifest.variants[size_t(sel.variant)], s, params, buf,
                                   &k->module->allocationLookup);
  if (cfg.autotune) return tunedLaunch(*k, *entry, sel, s, stream, params, cloneParams);
  return launchVariant(*k, sel.variant, sel.launch, stream, cloneParams);
}

const char *ptxopt_kernel_last_variant(ptxopt_kernel k) {
  if (!k) return "";
  auto it = lastVariant.find(k->id);
  int v = it == lastVariant.end() ? -1 : it->second;
  return v < 0 ? k->name.c_str() : k->manifest.variants[v].name.c_str();
}

const char *ptxopt_kernel_last_variant_kind(ptxopt_kernel k) {
  if (!k) return "";
  auto it = lastVariant.find(k->id);
  int v = it == lastVariant.end() ? -1 : it->second;
  return v < 0 ? "original" : k->manifest.variants[v].kind.c_str();
}

int ptxopt_kernel_variant_count(ptxopt_kernel k) { return k ? static_cast<int>(k->manifest.variants.size()) : 0; }

}  // extern "C"
