// Module loading (PTX through the in-process optimizer, or an image as is),
// the manifest's sources (optimizer result, PTX comment, per-kernel globals),
// and kernel lookup with the binding of each kernel's clones.
#include <atomic>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include "Internal.h"
#include "ptxopt/transforms/PassManager.h"

using namespace ptxopt;
using namespace ptxopt::rt;

ptxopt_module_st::~ptxopt_module_st() {
  if (!driver) return;
  if (module) driver->cuModuleUnload(module);
  if (retainedPrimary) driver->cuDevicePrimaryCtxRelease(device);
}

namespace {

std::atomic<uint64_t> nextKernelId{1};
constexpr size_t kMaxManifestBytes = 1 << 20;

/// The calling thread's context, or device config.device's primary context
/// made current (what the CUDA runtime does on first use).
ptxopt_status bindContext(ptxopt_module_st &m) {
  const Driver &d = *m.driver;
  if (CUresult r = d.cuCtxGetCurrent(&m.context); r != CUDA_SUCCESS) return failCuda(d, r, "cuCtxGetCurrent");
  if (!m.context) {
    if (CUresult r = d.cuDeviceGet(&m.device, m.config.device); r != CUDA_SUCCESS)
      return failCuda(d, r, "cuDeviceGet", "device " + std::to_string(m.config.device));
    if (CUresult r = d.cuDevicePrimaryCtxRetain(&m.context, m.device); r != CUDA_SUCCESS)
      return failCuda(d, r, "cuDevicePrimaryCtxRetain");
    m.retainedPrimary = true;
    if (CUresult r = d.cuCtxSetCurrent(m.context); r != CUDA_SUCCESS) return failCuda(d, r, "cuCtxSetCurrent");
  }
  if (CUresult r = d.cuCtxGetDevice(&m.device); r != CUDA_SUCCESS) return failCuda(d, r, "cuCtxGetDevice");
  return PTXOPT_SUCCESS;
}

ptxopt_status readLimits(ptxopt_module_st &m) {
  const Driver &d = *m.driver;
  const CUdevice_attribute block[3] = {CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X, CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y,
                                       CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z};
  const CUdevice_attribute grid[3] = {CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_X, CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y,
                                      CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Z};
  auto get = [&](CUdevice_attribute a, uint32_t &out) {
    int v = 0;
    CUresult r = d.cuDeviceGetAttribute(&v, a, m.device);
    if (r == CUDA_SUCCESS) out = static_cast<uint32_t>(v);
    return r;
  };
  for (int i = 0; i < 3; ++i) {
    if (CUresult r = get(block[i], m.limits.maxBlock[i]); r != CUDA_SUCCESS) return failCuda(d, r, "cuDeviceGetAttribute");
    if (CUresult r = get(grid[i], m.limits.maxGrid[i]); r != CUDA_SUCCESS) return failCuda(d, r, "cuDeviceGetAttribute");
  }
  if (CUresult r = get(CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK, m.limits.maxThreadsPerBlock); r != CUDA_SUCCESS)
    return failCuda(d, r, "cuDeviceGetAttribute");
  return PTXOPT_SUCCESS;
}

/// Settings, driver, context and device limits: what every load starts with.
ptxopt_status beginLoad(ptxopt_module_st &m, const ptxopt_options *opts, const std::string &defaultName) {
  m.config = configFromEnv();
  if (opts && opts->disable) m.config.disable = true;
  m.name = opts && opts->name ? opts->name : defaultName;
  std::string error;
  m.driver = loadDriver(m.config.libcuda, error);
  if (!m.driver) return fail(PTXOPT_ERROR_NO_DRIVER, error);
  if (ptxopt_status s = bindContext(m); s != PTXOPT_SUCCESS) return s;
  return readLimits(m);
}

/// cuModuleLoadDataEx with the JIT's error log in the message.
ptxopt_status loadImage(ptxopt_module_st &m, const void *image) {
  char log[8192] = {0};
  CUjit_option keys[2] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void *values[2] = {log, reinterpret_cast<void *>(static_cast<uintptr_t>(sizeof log))};
  CUresult r = m.driver->cuModuleLoadDataEx(&m.module, image, 2, keys, values);
  if (r == CUDA_SUCCESS) return PTXOPT_SUCCESS;
  m.module = nullptr;
  std::string context = "module " + m.name;
  if (log[0]) context += "; JIT log: " + std::string(log, strnlen(log, sizeof log));
  return failCuda(*m.driver, r, "cuModuleLoadDataEx", context);
}

/// A manifest checked by the same rules as one read from JSON (the
/// optimizer's own is passed through JSON too). False with a warning.
bool acceptManifest(ptxopt_module_st &m, const std::string &json, const char *source) {
  Manifest parsed;
  std::string error;
  if (!fromJson(json, parsed, error)) {
    warn(m.name + ": bad manifest (" + source + "): " + error + "; launches run the original kernels");
    return false;
  }
  m.manifest = std::move(parsed);
  return true;
}

/// The pipeline and pass options of `opts` ("PIPELINE[;option[=value]...]",
/// e.g. "-O2;group-k=4;group-gathers"); false with `error` for an unknown
/// option or an ill-typed value.
bool pipelineOf(const ptxopt_options *opts, PipelineOptions &po, std::string &error) {
  return !opts || !opts->passes || parsePipelineSpec(opts->passes, po, error);
}

/// Runs the optimizer; false (with a warning) when it fails.
bool optimize(ptxopt_module_st &m, const std::string &ptx, const PipelineOptions &po, std::string &out) {
  OptimizeResult result;
  try {
    if (!optimizePtx(ptx, m.name, po, out, result) || !result.ok) {
      std::string why = result.error.empty() ? "unknown error" : result.error;
      why = why.substr(0, why.find('\n'));  // a parse error's first line: file:line:col: error: ...
      warn(m.name + ": the optimizer failed (" + why + "); loading the original PTX");
      return false;
    }
  } catch (const std::exception &e) {
    warn(m.name + ": the optimizer failed (" + e.what() + "); loading the original PTX");
    return false;
  }
  if (!acceptManifest(m, toJson(result.manifest), "from the optimizer")) m.manifest = Manifest{};
  if (m.config.log >= 1)
    logLine(m.name + ": optimized with " + po.passes + ", " + std::to_string(result.manifest.kernels.size()) +
            " kernel(s) with clones");
  return true;
}

bool isBinaryImage(const void *image) {
  unsigned char head[4];
  std::memcpy(head, image, 4);
  uint32_t magic;
  std::memcpy(&magic, head, 4);
  bool elf = head[0] == 0x7f && head[1] == 'E' && head[2] == 'L' && head[3] == 'F';
  return elf || magic == 0xBA55ED50u /* fatbin */ || magic == 0x466243B1u /* fatbin wrapper */;
}

/// The manifest of an image: PTX text's comment line, else the per-kernel
/// globals (read per kernel later). PTX text with neither gets one warning.
void findImageManifest(ptxopt_module_st &m, const void *image) {
  if (isBinaryImage(image)) {
    m.perKernelGlobals = true;
    return;
  }
  std::string text(static_cast<const char *>(image));
  if (std::optional<std::string> comment = findManifestComment(text)) {
    acceptManifest(m, *comment, "the // @ptxopt-manifest line");
  } else if (text.find("__ptxopt_manifest_") != std::string::npos) {
    m.perKernelGlobals = true;
  } else {
    warn(m.name + ": PTX without a ptxopt manifest: launches run the original kernels "
                  "(ptxopt_module_load_ptx optimizes PTX; load_image loads it as is)");
  }
}

ptxopt_status finishLoad(ptxopt_module *out, std::unique_ptr<ptxopt_module_st> m) {
  *out = m.release();
  return PTXOPT_SUCCESS;
}

/// Reads kernel `name`'s entry from its __ptxopt_manifest_<name> global.
bool readKernelGlobal(ptxopt_module_st &m, const std::string &name, KernelManifest &out) {
  const Driver &d = *m.driver;
  CUdeviceptr ptr = 0;
  size_t bytes = 0;
  CUresult r = d.cuModuleGetGlobal(&ptr, &bytes, m.module, manifestGlobalName(name).c_str());
  if (r == CUDA_ERROR_NOT_FOUND) {
    if (m.config.log >= 1) logLine(m.name + ": no manifest for kernel " + name + ": original only");
    return false;
  }
  if (r != CUDA_SUCCESS || bytes > kMaxManifestBytes) {
    warn(m.name + ": cannot read the manifest of kernel " + name + " (" +
         (r != CUDA_SUCCESS ? cudaErrorText(d, r, "cuModuleGetGlobal") : std::to_string(bytes) + " bytes") +
         "); launches run the original");
    return false;
  }
  std::string text(bytes, '\0');
  if (bytes && (r = d.cuMemcpyDtoH(text.data(), ptr, bytes)) != CUDA_SUCCESS) {
    warn(m.name + ": cannot read the manifest of kernel " + name + " (" + cudaErrorText(d, r, "cuMemcpyDtoH") +
         "); launches run the original");
    return false;
  }
  text.resize(strnlen(text.data(), text.size()));  // stops at the terminating 0 byte
  std::string error;
  if (!fromJson(text, out, error) || out.kernel != name) {
    if (error.empty()) error = "it names kernel '" + out.kernel + "'";
    warn(m.name + ": bad manifest for kernel " + name + ": " + error + "; launches run the original");
    return false;
  }
  return true;
}

/// The kernel's manifest entry from wherever the module has it.
bool kernelManifest(ptxopt_module_st &m, const std::string &name, KernelManifest &out) {
  if (m.config.disable) return false;
  if (m.manifest) {
    const KernelManifest *k = m.manifest->find(name);
    if (k) out = *k;
    return k != nullptr;
  }
  return m.perKernelGlobals && readKernelGlobal(m, name, out);
}

/// Binds the clones of `k`'s manifest; a clone missing from the module is
/// dropped with a warning.
void bindVariants(ptxopt_kernel_st &k) {
  ptxopt_module_st &m = *k.module;
  const Driver &d = *m.driver;
  KernelManifest entry;
  if (!kernelManifest(m, k.name, entry)) return;
  k.manifest.kernel = entry.kernel;
  k.manifest.paramSizes = entry.paramSizes;
  for (const Variant &v : entry.variants) {
    CUfunction f = nullptr;
    if (CUresult r = d.cuModuleGetFunction(&f, m.module, v.name.c_str()); r != CUDA_SUCCESS) {
      warn(m.name + ": clone " + v.name + " of kernel " + k.name + " is not in the module (" +
           cudaErrorText(d, r, "cuModuleGetFunction") + "); it is never launched");
      continue;
    }
    int maxThreads = 0;
    if (d.cuFuncGetAttribute(&maxThreads, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, f) != CUDA_SUCCESS)
      maxThreads = static_cast<int>(m.limits.maxThreadsPerBlock);
    k.manifest.variants.push_back(v);
    k.functions.push_back(f);
    k.maxThreads.push_back(static_cast<uint32_t>(maxThreads));
  }
  if (m.config.log >= 1) {
    std::string names;
    for (const Variant &v : k.manifest.variants) names += " " + v.name + " (" + v.kind + ")";
    logLine(m.name + ": kernel " + k.name + ": " + std::to_string(k.manifest.variants.size()) + " clone(s)" + names);
  }
}

}  // namespace

extern "C" {

ptxopt_status ptxopt_module_load_ptx(ptxopt_module *mod, const char *ptx, size_t len, const ptxopt_options *opts) {
  if (!mod || !ptx) return fail(PTXOPT_ERROR_INVALID_VALUE, "ptxopt_module_load_ptx: null argument");
  *mod = nullptr;
  PipelineOptions po;
  std::string error;
  if (!pipelineOf(opts, po, error)) return fail(PTXOPT_ERROR_INVALID_VALUE, "ptxopt_module_load_ptx: " + error);
  auto m = std::make_unique<ptxopt_module_st>();
  if (ptxopt_status s = beginLoad(*m, opts, "<memory>"); s != PTXOPT_SUCCESS) return s;
  std::string original(ptx, strnlen(ptx, len));
  std::string optimized;
  if (m->config.disable || !optimize(*m, original, po, optimized)) {
    if (ptxopt_status s = loadImage(*m, original.c_str()); s != PTXOPT_SUCCESS) return s;
    return finishLoad(mod, std::move(m));
  }
  if (loadImage(*m, optimized.c_str()) == PTXOPT_SUCCESS) return finishLoad(mod, std::move(m));
  warn(m->name + ": the driver rejected the optimized PTX (" + ptxopt_last_error() + "); loading the original");
  m->manifest.reset();
  if (ptxopt_status s = loadImage(*m, original.c_str()); s != PTXOPT_SUCCESS) return s;
  return finishLoad(mod, std::move(m));
}

ptxopt_status ptxopt_module_load_file(ptxopt_module *mod, const char *path, const ptxopt_options *opts) {
  if (!mod || !path) return fail(PTXOPT_ERROR_INVALID_VALUE, "ptxopt_module_load_file: null argument");
  *mod = nullptr;
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  if (!in || !(text << in.rdbuf()))
    return fail(PTXOPT_ERROR_IO, std::string("cannot read ") + path + ": " + std::strerror(errno));
  ptxopt_options o = opts ? *opts : ptxopt_options{};
  if (!o.name) o.name = path;
  std::string ptx = text.str();
  return ptxopt_module_load_ptx(mod, ptx.data(), ptx.size(), &o);
}

ptxopt_status ptxopt_module_load_image(ptxopt_module *mod, const void *image, const ptxopt_options *opts) {
  if (!mod || !image) return fail(PTXOPT_ERROR_INVALID_VALUE, "ptxopt_module_load_image: null argument");
  *mod = nullptr;
  auto m = std::make_unique<ptxopt_module_st>();
  if (ptxopt_status s = beginLoad(*m, opts, "<image>"); s != PTXOPT_SUCCESS) return s;
  if (ptxopt_status s = loadImage(*m, image); s != PTXOPT_SUCCESS) return s;
  if (!m->config.disable) findImageManifest(*m, image);
  return finishLoad(mod, std::move(m));
}

ptxopt_status ptxopt_module_unload(ptxopt_module mod) {
  delete mod;
  return PTXOPT_SUCCESS;
}

ptxopt_status ptxopt_module_get_kernel(ptxopt_kernel *k, ptxopt_module mod, const char *name) {
  if (!k || !mod || !name) return fail(PTXOPT_ERROR_INVALID_VALUE, "ptxopt_module_get_kernel: null argument");
  *k = nullptr;
  std::lock_guard lock(mod->mu);
  if (auto it = mod->kernels.find(name); it != mod->kernels.end()) {
    *k = it->second.get();
    return PTXOPT_SUCCESS;
  }
  auto kernel = std::make_unique<ptxopt_kernel_st>();
  kernel->module = mod;
  kernel->id = nextKernelId.fetch_add(1);
  kernel->name = name;
  CUresult r = mod->driver->cuModuleGetFunction(&kernel->original, mod->module, name);
  if (r == CUDA_ERROR_NOT_FOUND)
    return fail(PTXOPT_ERROR_NOT_FOUND, "no kernel '" + std::string(name) + "' in module " + mod->name, r);
  if (r != CUDA_SUCCESS) return failCuda(*mod->driver, r, "cuModuleGetFunction", name);
  bindVariants(*kernel);
  *k = kernel.get();
  mod->kernels.emplace(name, std::move(kernel));
  return PTXOPT_SUCCESS;
}

}  // extern "C"
