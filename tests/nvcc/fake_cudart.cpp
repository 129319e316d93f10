// A stand-in for the CUDA runtime (no GPU, no driver) for ptx-nvcc's tests:
// programs built by ptx-nvcc with `-cudart none` and linked with this file
// register their kernels here, and each launch prints one line
//   fake-cudart: launch <name> grid=(x,y,z) block=(x,y,z) shared=N[ ptsz]
// so the tests see which kernel (original or clone) ran with which shape.
//
// FAKE_CUDART_MISSING=substr   __cudaGetKernel fails for names containing it
// FAKE_CUDART_FAIL_LAUNCH=substr   launches of such names fail (nothing runs)
// FAKE_CUDART_MAX_THREADS=N    cudaFuncGetAttributes' maxThreadsPerBlock
// FAKE_CUDART_VERBOSE=1        also print registrations, cudaFuncGetAttributes
//                              calls (a function load under lazy loading) and
//                              cudaMalloc calls (host memory)
//
// The launch APIs (cudaLaunchKernel, cudaLaunchKernelExC, their _ptsz forms,
// cudaLaunchCooperativeKernel) and graph kernel nodes print
//   fake-cudart: <api> <name> grid=(x,y,z) block=(x,y,z) shared=N[ attrs=id:value,...]
// with the kernel named by its host address or its cudaKernel_t. A
// cooperative launch (cudaLaunchCooperativeKernel, the cooperative
// attribute) of more than 100000 blocks is refused as too large, printing
//   fake-cudart: too large for a cooperative launch <name> grid=(x,y,z)
#include <cuda_runtime_api.h>
// -default-stream per-thread makes these names macros for the _ptsz forms
// (cudaLaunchKernel and cudaLaunchKernelExC also static inline functions
// calling them, defined by the header).
#undef cudaLaunchCooperativeKernel

#include <cstdio>
#include <map>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {
struct Fn {
  std::string name;
  const void *host;
};
std::vector<Fn *> &fns() {
  static std::vector<Fn *> v;
  return v;
}
cudaError_t lastError = cudaSuccess;
/// Graph kernel node attributes set by cudaGraphKernelNodeSetAttribute.
std::map<cudaGraphNode_t, std::map<int, cudaKernelNodeAttrValue>> &nodeAttrs() {
  static std::map<cudaGraphNode_t, std::map<int, cudaKernelNodeAttrValue>> m;
  return m;
}
struct Config {
  dim3 grid, block;
  size_t shared;
  void *stream;
};
std::vector<Config> configs;
bool matches(const char *env, const std::string &name) {
  const char *v = std::getenv(env);
  return v && *v && name.find(v) != std::string::npos;
}
Fn *byHost(const void *h) {
  for (Fn *f : fns())
    if (f->host == h) return f;
  return nullptr;
}
// A graph node holds the parameters last set on it (GetParams returns them,
// as cudart does: the function and launch the node holds).
struct FakeNode {
  cudaKernelNodeParams p;
};
// A stream capture (cudaStreamBeginCapture .. cudaStreamEndCapture): each
// launch meanwhile also becomes a node, the capture's last
// (cudaStreamGetCaptureInfo gives it).
bool capturing = false;
FakeNode *lastCaptured = nullptr;
void captured(const void *func, dim3 g, dim3 b) {
  if (!capturing) return;
  cudaKernelNodeParams p;
  std::memset(&p, 0, sizeof p);
  p.func = const_cast<void *>(func);
  p.gridDim = g;
  p.blockDim = b;
  lastCaptured = new FakeNode{p};
}
cudaError_t fakeLaunch(cudaKernel_t k, dim3 g, dim3 b, size_t shared, bool ptsz) {
  Fn *f = reinterpret_cast<Fn *>(k);
  if (!f) return lastError = cudaErrorInvalidResourceHandle;
  if (matches("FAKE_CUDART_FAIL_LAUNCH", f->name)) {
    std::printf("fake-cudart: refused %s\n", f->name.c_str());
    return lastError = cudaErrorLaunchOutOfResources;
  }
  std::printf("fake-cudart: launch %s grid=(%u,%u,%u) block=(%u,%u,%u) shared=%zu%s\n", f->name.c_str(), g.x, g.y,
              g.z, b.x, b.y, b.z, shared, ptsz ? " ptsz" : "");
  captured(k, g, b);
  return cudaSuccess;
}
Fn *byFunc(const void *func) {  // a host address or a cudaKernel_t (an Fn*)
  if (Fn *f = byHost(func)) return f;
  for (Fn *f : fns())
    if (f == func) return f;
  return nullptr;
}
/// The fake device's co-residency: a cooperative launch of more blocks is
/// refused (cudaErrorCooperativeLaunchTooLarge), as cudart refuses one whose
/// blocks do not all fit on the GPU at once.
constexpr unsigned long long kCooperativeMaxBlocks = 100000;

cudaError_t apiLaunch(const char *api, const void *func, dim3 g, dim3 b, size_t shared, const std::string &more,
                      bool cooperative = false) {
  Fn *f = byFunc(func);
  if (!f) return lastError = cudaErrorInvalidDeviceFunction;
  if (cooperative && (unsigned long long)g.x * g.y * g.z > kCooperativeMaxBlocks) {
    std::printf("fake-cudart: too large for a cooperative launch %s grid=(%u,%u,%u)\n", f->name.c_str(), g.x, g.y, g.z);
    return lastError = cudaErrorCooperativeLaunchTooLarge;
  }
  if (matches("FAKE_CUDART_FAIL_LAUNCH", f->name)) {
    std::printf("fake-cudart: refused %s\n", f->name.c_str());
    return lastError = cudaErrorLaunchOutOfResources;
  }
  std::printf("fake-cudart: %s %s grid=(%u,%u,%u) block=(%u,%u,%u) shared=%zu%s\n", api, f->name.c_str(), g.x, g.y, g.z,
              b.x, b.y, b.z, shared, more.c_str());
  if (std::strncmp(api, "cudaLaunch", 10) == 0) captured(func, g, b);
  return cudaSuccess;
}
bool cooperativeAttr(const cudaLaunchConfig_t *c) {
  for (unsigned i = 0; i < c->numAttrs; ++i)
    if (c->attrs[i].id == cudaLaunchAttributeCooperative && c->attrs[i].val.cooperative) return true;
  return false;
}
std::string attrsText(const cudaLaunchConfig_t *c) {
  std::string t;
  for (unsigned i = 0; i < c->numAttrs; ++i) {
    const cudaLaunchAttribute &a = c->attrs[i];
    char buf[64];
    if (a.id == cudaLaunchAttributeClusterDimension)
      std::snprintf(buf, sizeof buf, "%d:%u.%u.%u", int(a.id), a.val.clusterDim.x, a.val.clusterDim.y,
                    a.val.clusterDim.z);
    else
      std::snprintf(buf, sizeof buf, "%d:%d", int(a.id), a.val.priority);
    t += (t.empty() ? " attrs=" : ",") + std::string(buf);
  }
  return t;
}
}  // namespace

extern "C" {
#ifndef __CUDART_API_PER_THREAD_DEFAULT_STREAM
cudaError_t cudaLaunchKernel(const void *f, dim3 g, dim3 b, void **, size_t shared, cudaStream_t) {
  return apiLaunch("cudaLaunchKernel", f, g, b, shared, "");
}
cudaError_t cudaLaunchKernelExC(const cudaLaunchConfig_t *c, const void *f, void **) {
  return apiLaunch("cudaLaunchKernelExC", f, c->gridDim, c->blockDim, c->dynamicSmemBytes, attrsText(c),
                   cooperativeAttr(c));
}
#endif
cudaError_t cudaLaunchKernel_ptsz(const void *f, dim3 g, dim3 b, void **, size_t shared, cudaStream_t) {
  return apiLaunch("cudaLaunchKernel_ptsz", f, g, b, shared, "");
}
cudaError_t cudaLaunchKernelExC_ptsz(const cudaLaunchConfig_t *c, const void *f, void **) {
  return apiLaunch("cudaLaunchKernelExC_ptsz", f, c->gridDim, c->blockDim, c->dynamicSmemBytes, attrsText(c),
                   cooperativeAttr(c));
}
cudaError_t cudaLaunchCooperativeKernel(const void *f, dim3 g, dim3 b, void **, size_t shared, cudaStream_t) {
  return apiLaunch("cudaLaunchCooperativeKernel", f, g, b, shared, "", true);
}
cudaError_t cudaLaunchCooperativeKernel_ptsz(const void *f, dim3 g, dim3 b, void **, size_t shared, cudaStream_t) {
  return apiLaunch("cudaLaunchCooperativeKernel_ptsz", f, g, b, shared, "", true);
}
cudaError_t cudaGetKernel(cudaKernel_t *k, const void *f) {
  Fn *fn = byHost(f);
  if (!fn) return lastError = cudaErrorInvalidDeviceFunction;
  *k = reinterpret_cast<cudaKernel_t>(fn);
  return cudaSuccess;
}
cudaError_t cudaGraphAddKernelNode(cudaGraphNode_t *n, cudaGraph_t, const cudaGraphNode_t *, size_t,
                                   const cudaKernelNodeParams *p) {
  cudaError_t e =
      apiLaunch("cudaGraphAddKernelNode", p->func, p->gridDim, p->blockDim, p->sharedMemBytes, p->extra ? " extra" : "");
  *n = e == cudaSuccess ? reinterpret_cast<cudaGraphNode_t>(new FakeNode{*p}) : nullptr;
  return e;
}
cudaError_t cudaGraphKernelNodeSetParams(cudaGraphNode_t n, const cudaKernelNodeParams *p) {
  cudaError_t e = apiLaunch("cudaGraphKernelNodeSetParams", p->func, p->gridDim, p->blockDim, p->sharedMemBytes, "");
  if (e == cudaSuccess && n) reinterpret_cast<FakeNode *>(n)->p = *p;
  return e;
}
// The generic node calls: a kernel node as above, any other type printed.
cudaError_t genericNode(const char *api, cudaGraphNode_t *n, const cudaGraphNodeParams *p) {
  if (p->type != cudaGraphNodeTypeKernel) {
    std::printf("fake-cudart: %s type=%d\n", api, int(p->type));
    return cudaSuccess;
  }
  const cudaKernelNodeParamsV2 &k = p->kernel;
  cudaError_t e = apiLaunch(api, k.func, k.gridDim, k.blockDim, k.sharedMemBytes, "");
  if (e == cudaSuccess && n) {
    cudaKernelNodeParams v1{};
    v1.func = k.func;
    v1.gridDim = k.gridDim;
    v1.blockDim = k.blockDim;
    v1.sharedMemBytes = k.sharedMemBytes;
    v1.kernelParams = k.kernelParams;
    if (*n) reinterpret_cast<FakeNode *>(*n)->p = v1;
    else *n = reinterpret_cast<cudaGraphNode_t>(new FakeNode{v1});
  }
  return e;
}
cudaError_t cudaGraphAddNode(cudaGraphNode_t *n, cudaGraph_t, const cudaGraphNode_t *, const cudaGraphEdgeData *,
                             size_t, cudaGraphNodeParams *p) {
  *n = nullptr;
  return genericNode("cudaGraphAddNode", n, p);
}
cudaError_t cudaGraphNodeSetParams(cudaGraphNode_t n, cudaGraphNodeParams *p) {
  return genericNode("cudaGraphNodeSetParams", &n, p);
}
cudaError_t cudaGraphExecNodeSetParams(cudaGraphExec_t, cudaGraphNode_t, cudaGraphNodeParams *p) {
  return genericNode("cudaGraphExecNodeSetParams", nullptr, p);
}
cudaError_t cudaGraphKernelNodeGetParams(cudaGraphNode_t n, cudaKernelNodeParams *p) {
  if (!n || !p) return lastError = cudaErrorInvalidValue;
  *p = reinterpret_cast<FakeNode *>(n)->p;
  return cudaSuccess;
}
cudaError_t cudaStreamBeginCapture(cudaStream_t, cudaStreamCaptureMode) {
  std::printf("fake-cudart: cudaStreamBeginCapture\n");
  capturing = true;
  lastCaptured = nullptr;
  return cudaSuccess;
}
cudaError_t cudaStreamEndCapture(cudaStream_t, cudaGraph_t *g) {
  std::printf("fake-cudart: cudaStreamEndCapture\n");
  capturing = false;
  if (g) *g = nullptr;
  return cudaSuccess;
}
cudaError_t cudaStreamIsCapturing(cudaStream_t, cudaStreamCaptureStatus *status) {
  if (status) *status = capturing ? cudaStreamCaptureStatusActive : cudaStreamCaptureStatusNone;
  return cudaSuccess;
}
cudaError_t cudaStreamGetCaptureInfo(cudaStream_t, cudaStreamCaptureStatus *status, unsigned long long *id,
                                     cudaGraph_t *graph, const cudaGraphNode_t **deps, const cudaGraphEdgeData **edges,
                                     size_t *n) {
  static cudaGraphNode_t last;
  last = reinterpret_cast<cudaGraphNode_t>(lastCaptured);
  if (status) *status = capturing ? cudaStreamCaptureStatusActive : cudaStreamCaptureStatusNone;
  if (id) *id = 1;
  if (graph) *graph = nullptr;
  if (deps) *deps = lastCaptured ? &last : nullptr;
  if (edges) *edges = nullptr;
  if (n) *n = lastCaptured ? 1 : 0;
  return cudaSuccess;
}
cudaError_t cudaGraphKernelNodeSetAttribute(cudaGraphNode_t n, cudaKernelNodeAttrID attr,
                                            const cudaKernelNodeAttrValue *v) {
  std::printf("fake-cudart: cudaGraphKernelNodeSetAttribute id=%d\n", int(attr));
  if (v) nodeAttrs()[n][int(attr)] = *v;
  return cudaSuccess;
}
// Reads back what SetAttribute stored (zero where nothing was set); prints nothing.
cudaError_t cudaGraphKernelNodeGetAttribute(cudaGraphNode_t n, cudaKernelNodeAttrID attr,
                                            cudaKernelNodeAttrValue *v) {
  if (!v) return cudaErrorInvalidValue;
  std::memset(v, 0, sizeof *v);
  auto it = nodeAttrs().find(n);
  if (it != nodeAttrs().end() && it->second.count(int(attr))) *v = it->second[int(attr)];
  return cudaSuccess;
}
cudaError_t cudaGraphDestroyNode(cudaGraphNode_t) {
  std::printf("fake-cudart: cudaGraphDestroyNode node\n");
  return cudaSuccess;
}
cudaError_t cudaGraphDestroy(cudaGraph_t) {
  std::printf("fake-cudart: cudaGraphDestroy graph\n");
  return cudaSuccess;
}
cudaError_t cudaGraphExecKernelNodeSetParams(cudaGraphExec_t, cudaGraphNode_t, const cudaKernelNodeParams *p) {
  return apiLaunch("cudaGraphExecKernelNodeSetParams", p->func, p->gridDim, p->blockDim, p->sharedMemBytes, "");
}
void **__cudaRegisterFatBinary(void *) { return new void *[1]; }
char __cudaInitModule(void **) { return 0; }
void __cudaRegisterFatBinaryEnd(void **) {}
void __cudaUnregisterFatBinary(void **) {}
void __cudaRegisterFunction(void **, const char *hostFun, char *, const char *deviceName, int, uint3 *, uint3 *,
                            dim3 *, dim3 *, int *) {
  fns().push_back(new Fn{deviceName, hostFun});
  if (std::getenv("FAKE_CUDART_VERBOSE")) std::printf("fake-cudart: register %s\n", deviceName);
}
cudaError_t __cudaGetKernel(cudaKernel_t *k, const void *hostFun) {
  Fn *f = byHost(hostFun);
  if (!f || matches("FAKE_CUDART_MISSING", f->name)) return lastError = cudaErrorInvalidDeviceFunction;
  *k = reinterpret_cast<cudaKernel_t>(f);
  return cudaSuccess;
}
cudaError_t __cudaLaunchKernel(cudaKernel_t k, dim3 g, dim3 b, void **, size_t shared, cudaStream_t) {
  return fakeLaunch(k, g, b, shared, false);
}
cudaError_t __cudaLaunchKernel_ptsz(cudaKernel_t k, dim3 g, dim3 b, void **, size_t shared, cudaStream_t) {
  return fakeLaunch(k, g, b, shared, true);
}
unsigned __cudaPushCallConfiguration(dim3 g, dim3 b, size_t shared, void *stream) {
  configs.push_back({g, b, shared, stream});
  return 0;
}
cudaError_t __cudaPopCallConfiguration(dim3 *g, dim3 *b, size_t *shared, void *stream) {
  if (configs.empty()) return cudaErrorInvalidConfiguration;
  Config c = configs.back();
  configs.pop_back();
  *g = c.grid;
  *b = c.block;
  *shared = c.shared;
  *static_cast<void **>(stream) = c.stream;
  return cudaSuccess;
}
cudaError_t cudaGetDevice(int *d) {
  *d = 0;
  return cudaSuccess;
}
cudaError_t cudaDeviceGetAttribute(int *v, cudaDeviceAttr a, int) {
  switch (a) {
    case cudaDevAttrMaxBlockDimX: case cudaDevAttrMaxBlockDimY: *v = 1024; break;
    case cudaDevAttrMaxBlockDimZ: *v = 64; break;
    case cudaDevAttrMaxGridDimX: *v = 2147483647; break;
    case cudaDevAttrMaxGridDimY: case cudaDevAttrMaxGridDimZ: *v = 65535; break;
    case cudaDevAttrMaxThreadsPerBlock: *v = 1024; break;
    default: return lastError = cudaErrorInvalidValue;
  }
  return cudaSuccess;
}
cudaError_t cudaFuncGetAttributes(cudaFuncAttributes *a, const void *hostFun) {
  Fn *f = byHost(hostFun);
  if (!f) return lastError = cudaErrorInvalidDeviceFunction;
  // under lazy loading the real one loads the function: the tests count these
  if (std::getenv("FAKE_CUDART_VERBOSE")) std::printf("fake-cudart: attributes %s\n", f->name.c_str());
  std::memset(a, 0, sizeof *a);
  const char *m = std::getenv("FAKE_CUDART_MAX_THREADS");
  a->maxThreadsPerBlock = m ? std::atoi(m) : 1024;
  return cudaSuccess;
}
cudaError_t cudaMalloc(void **p, size_t n) {
  *p = std::malloc(n ? n : 1);
  if (std::getenv("FAKE_CUDART_VERBOSE")) std::printf("fake-cudart: malloc %zu\n", n);
  return cudaSuccess;
}
cudaError_t cudaFree(void *p) {
  std::free(p);
  return cudaSuccess;
}
cudaError_t cudaPeekAtLastError(void) { return lastError; }
cudaError_t cudaGetLastError(void) {
  cudaError_t e = lastError;
  lastError = cudaSuccess;
  return e;
}
const char *cudaGetErrorName(cudaError_t e) {
  static char buf[32];
  std::snprintf(buf, sizeof buf, "cudaError%d", int(e));
  return buf;
}
}
