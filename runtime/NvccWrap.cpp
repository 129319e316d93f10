// The launch APIs of ptx-nvcc builds (docs/NVCC.md, "Launch paths").
//
// What: cudaLaunchKernel, cudaLaunchKernelExC (what the cudaLaunchKernel<T>
// and cudaLaunchKernelEx templates of cuda_runtime.h call),
// cudaLaunchCooperativeKernel, their _ptsz forms (-default-stream
// per-thread), and the kernel nodes of graphs added
// or updated by hand (cudaGraphAddKernelNode, cudaGraphKernelNodeSetParams,
// cudaGraphExecKernelNodeSetParams, and the generic cudaGraphAddNode,
// cudaGraphNodeSetParams, cudaGraphExecNodeSetParams of a kernel node) run a kernel's clone where its
// conditions hold, as a <<<>>> launch of the same shape would;
// cudaGetKernel records its handle (cudaLaunchKernelEx takes one);
// cudaGraphKernelNodeGetParams gives back, for a node whose parameters a
// wrapper gave a clone, the function, grid and block the caller set (the
// arguments are the node's: the original's first, any extra after them), so
// that a program reading a node's parameters, changing an argument and
// setting them again gets its kernel's choice made again for the new ones
// (with the clone's, the node would run the clone unchecked); so does a
// node a stream capture made of a clone launch (the capture calls are
// wrapped to count the captures in flight; while one is, each clone launch,
// here or by <<<>>> in NvccShim.cpp, notes the node it made: noteCapture;
// while none is, a clone launch on a stream other than the legacy default
// one asks cudaStreamIsCapturing, for captures begun where --wrap does not
// reach: a shared library's own capture code).
//
// How: ptx-nvcc's links pass GNU ld `--wrap=<function>` for each of them, so
// the program's calls come here as __wrap_<function>; the real cudart
// function is __real_<function>. A call naming a kernel with clones (by its
// host address or its cudaKernel_t: NvccShim's registry, read without a lock)
// is given the clone's private host address (registered with cudart), the
// transformed grid and block, and the clone's arguments; everything else
// goes to cudart unchanged. A refused clone call (nothing happened) is made
// again with the original, as in the <<<>>> path.
//
// Cooperative launches (cudaLaunchCooperativeKernel and its _ptsz form,
// the cooperative attribute of cudaLaunchKernelExC) run the clone as a
// cooperative launch of its own grid and block: every pass that changes a
// kernel's launch (coalesce, transpose, group, rowwalk) refuses kernels whose
// threads communicate (barriers, atomics, fences, volatile, ordered or `.cv`
// loads and stores: analysis/Communication.cpp; group admits only atomics
// whose result no thread reads, which no thread can wait on), so such a
// kernel cannot rely on its blocks being resident together; the passes that
// keep the launch (pack, reuse) keep every barrier, fence and ordered access
// where it was (pack's merges stop at them). Where the clone's blocks do
// not all fit at once, cudart refuses the launch
// (cudaErrorCooperativeLaunchTooLarge) and the original runs, without a
// warning (the original's own launch was sized to fit); the clone is tried
// again at the next launch of the shape (a failed cudart call). Not in a
// stream capture (the graph would check co-residency only when it launches,
// with no original to fall back on) nor in graph nodes: the original there
// (a node set cooperative, or with a cluster or device-updatable, keeps the
// caller's launch when its parameters are set again: nodeRefusesClone). A
// failing cudaStreamIsCapturing leaves its error as the program's last (a
// stream its launch would refuse anyway).
//
// When it refuses: a device-updatable graph node (device code may rewrite
// its grid), an attribute this file does not know; graph nodes passing their
// arguments in `extra`; a cluster dimension that does not divide the clone's
// transformed grid (that clone is skipped, a later one may run); a graph
// node set cooperative by cudaGraphKernelNodeSetAttribute (the node gets the
// caller's launch back). Every other attribute (priority, programmatic
// stream serialization and events, access policy, memory sync domains,
// scheduling preferences, completion events, the shared memory carveout) is
// passed through unchanged.
//
// The __real_ references are weak: the shim object is linked into programs
// whose link has no --wrap (CMake's links through the host compiler), where
// nothing calls the wrappers.
#include <cuda_runtime_api.h>

#include <algorithm>
#include <atomic>
#include <mutex>
#include <unordered_map>

#include "NvccWrap.h"

using namespace ptxopt;
using namespace ptxopt::rt;
using namespace ptxopt::rt::nvccwrap;

#define PTXOPT_REAL(ret, name, params) extern "C" ret __real_##name params __attribute__((weak));
PTXOPT_REAL(cudaError_t, cudaLaunchKernel, (const void *, dim3, dim3, void **, size_t, cudaStream_t))
PTXOPT_REAL(cudaError_t, cudaLaunchKernel_ptsz, (const void *, dim3, dim3, void **, size_t, cudaStream_t))
PTXOPT_REAL(cudaError_t, cudaLaunchCooperativeKernel, (const void *, dim3, dim3, void **, size_t, cudaStream_t))
PTXOPT_REAL(cudaError_t, cudaLaunchCooperativeKernel_ptsz,
            (const void *, dim3, dim3, void **, size_t, cudaStream_t))
PTXOPT_REAL(cudaError_t, cudaLaunchKernelExC, (const cudaLaunchConfig_t *, const void *, void **))
PTXOPT_REAL(cudaError_t, cudaLaunchKernelExC_ptsz, (const cudaLaunchConfig_t *, const void *, void **))
PTXOPT_REAL(cudaError_t, cudaGetKernel, (cudaKernel_t *, const void *))
PTXOPT_REAL(cudaError_t, cudaGraphAddKernelNode,
            (cudaGraphNode_t *, cudaGraph_t, const cudaGraphNode_t *, size_t, const cudaKernelNodeParams *))
PTXOPT_REAL(cudaError_t, cudaGraphKernelNodeSetParams, (cudaGraphNode_t, const cudaKernelNodeParams *))
PTXOPT_REAL(cudaError_t, cudaGraphExecKernelNodeSetParams,
            (cudaGraphExec_t, cudaGraphNode_t, const cudaKernelNodeParams *))
PTXOPT_REAL(cudaError_t, cudaGraphKernelNodeGetParams, (cudaGraphNode_t, cudaKernelNodeParams *))
PTXOPT_REAL(cudaError_t, cudaGraphAddNode,
            (cudaGraphNode_t *, cudaGraph_t, const cudaGraphNode_t *, const cudaGraphEdgeData *, size_t,
             cudaGraphNodeParams *))
PTXOPT_REAL(cudaError_t, cudaGraphNodeSetParams, (cudaGraphNode_t, cudaGraphNodeParams *))
PTXOPT_REAL(cudaError_t, cudaGraphExecNodeSetParams, (cudaGraphExec_t, cudaGraphNode_t, cudaGraphNodeParams *))
PTXOPT_REAL(cudaError_t, cudaGraphKernelNodeSetAttribute,
            (cudaGraphNode_t, cudaKernelNodeAttrID, const cudaKernelNodeAttrValue *))
PTXOPT_REAL(cudaError_t, cudaGraphDestroyNode, (cudaGraphNode_t))
PTXOPT_REAL(cudaError_t, cudaGraphDestroy, (cudaGraph_t))
PTXOPT_REAL(cudaError_t, cudaStreamBeginCapture, (cudaStream_t, cudaStreamCaptureMode))
PTXOPT_REAL(cudaError_t, cudaStreamBeginCapture_ptsz, (cudaStream_t, cudaStreamCaptureMode))
PTXOPT_REAL(cudaError_t, cudaStreamBeginCaptureToGraph,
            (cudaStream_t, cudaGraph_t, const cudaGraphNode_t *, const cudaGraphEdgeData *, size_t,
             cudaStreamCaptureMode))
PTXOPT_REAL(cudaError_t, cudaStreamBeginCaptureToGraph_ptsz,
            (cudaStream_t, cudaGraph_t, const cudaGraphNode_t *, const cudaGraphEdgeData *, size_t,
             cudaStreamCaptureMode))
PTXOPT_REAL(cudaError_t, cudaStreamEndCapture, (cudaStream_t, cudaGraph_t *))
PTXOPT_REAL(cudaError_t, cudaStreamEndCapture_ptsz, (cudaStream_t, cudaGraph_t *))
#undef PTXOPT_REAL
// Not wrapped, called where present (a program that captures links them).
#pragma weak cudaStreamGetCaptureInfo
#pragma weak cudaStreamIsCapturing
#pragma weak cudaGraphKernelNodeGetAttribute

namespace {

LaunchShape shapeOf(dim3 grid, dim3 block, size_t shared) {
  LaunchShape s;
  s.grid = {grid.x, grid.y, grid.z};
  s.block = {block.x, block.y, block.z};
  s.sharedBytes = uint32_t(shared);
  return s;
}

dim3 dimOf(const Dims &d) { return dim3(d[0], d[1], d[2]); }

/// What a launch's attributes allow: false where a clone must not run;
/// `cluster` set from a (preferred) cluster dimension. A cooperative
/// attribute sets `*cooperative` (a launch: the clone launched
/// cooperatively); where `cooperative` is null (a graph node, launched
/// later with no original to fall back on) it refuses the clone.
bool attributesAllow(const cudaLaunchAttribute *attrs, unsigned n, Dims &cluster, bool *cooperative = nullptr) {
  cluster = {1, 1, 1};
  for (unsigned i = 0; attrs && i < n; ++i) {
    const cudaLaunchAttribute &a = attrs[i];
    switch (a.id) {
      case cudaLaunchAttributeClusterDimension:
        for (int d = 0; d < 3; ++d) {
          const unsigned v = d == 0 ? a.val.clusterDim.x : d == 1 ? a.val.clusterDim.y : a.val.clusterDim.z;
          cluster[d] = std::max(cluster[d], v);
        }
        break;
      case cudaLaunchAttributePreferredClusterDimension:
        // The driver may use it or the cluster dimension: both must divide.
        cluster[0] = std::max(cluster[0], a.val.preferredClusterDim.x);
        cluster[1] = std::max(cluster[1], a.val.preferredClusterDim.y);
        cluster[2] = std::max(cluster[2], a.val.preferredClusterDim.z);
        break;
      case cudaLaunchAttributeDeviceUpdatableKernelNode:
        if (a.val.deviceUpdatableKernelNode.deviceUpdatable) return false;
        break;
      case cudaLaunchAttributeCooperative:  // the clone launched cooperatively (the file's opening comment)
        if (a.val.cooperative) {
          if (!cooperative) return false;
          *cooperative = true;
        }
        break;
      case cudaLaunchAttributeIgnore:
      case cudaLaunchAttributeAccessPolicyWindow:
      case cudaLaunchAttributeSynchronizationPolicy:
      case cudaLaunchAttributeClusterSchedulingPolicyPreference:
      case cudaLaunchAttributeProgrammaticStreamSerialization:
      case cudaLaunchAttributeProgrammaticEvent:
      case cudaLaunchAttributePriority:
      case cudaLaunchAttributeMemSyncDomainMap:
      case cudaLaunchAttributeMemSyncDomain:
      case cudaLaunchAttributeLaunchCompletionEvent:
      case cudaLaunchAttributePreferredSharedMemoryCarveout:
      case cudaLaunchAttributeNvlinkUtilCentricScheduling:
        break;
      default:
        return false;  // unknown: the original
    }
  }
  return true;
}

/// Whether a launch on `stream` may go into a graph (a stream capture is in
/// flight, or cudart says `stream` captures): a cooperative clone launch
/// captured there would have its co-residency checked only when the graph
/// launches, with no original to fall back on, so the original is captured.
bool mayCapture(cudaStream_t stream);

/// The stream a launch goes to: under -default-stream per-thread (the _ptsz
/// forms) the null stream is the thread's own.
cudaStream_t launchStream(cudaStream_t stream, bool ptsz) { return ptsz && !stream ? cudaStreamPerThread : stream; }

using LaunchFn = cudaError_t (*)(const void *, dim3, dim3, void **, size_t, cudaStream_t);
using LaunchExFn = cudaError_t (*)(const cudaLaunchConfig_t *, const void *, void **);

cudaError_t launchKernel(LaunchFn real, const void *func, dim3 grid, dim3 block, void **args, size_t shared,
                         cudaStream_t stream, bool ptsz, bool cooperative = false) {
  if (!real) return cudaErrorNotSupported;  // no --wrap: never called
  void *k = findKernel(func);
  if (!k) return real(func, grid, block, args, shared, stream);
  WrapLaunch l;
  if (shared <= 0xffffffffu && !(cooperative && mayCapture(launchStream(stream, ptsz))) &&
      chooseLaunch(k, shapeOf(grid, block, shared), args, {1, 1, 1}, l)) {
    cudaError_t e = real(l.func, dimOf(l.shape.grid), dimOf(l.shape.block), l.args, shared, stream);
    launched(k, l, e);
    if (e == cudaSuccess) {
      noteCapture(launchStream(stream, ptsz), func, grid, block);
      return e;
    }
  }
  ranOriginal(k);
  return real(func, grid, block, args, shared, stream);
}

cudaError_t launchKernelEx(LaunchExFn real, const cudaLaunchConfig_t *config, const void *func, void **args,
                           bool ptsz) {
  if (!real) return cudaErrorNotSupported;
  void *k = config ? findKernel(func) : nullptr;
  if (!k) return real(config, func, args);
  Dims cluster;
  WrapLaunch l;
  bool cooperative = false;
  if (attributesAllow(config->attrs, config->numAttrs, cluster, &cooperative) &&
      !(cooperative && mayCapture(launchStream(config->stream, ptsz))) &&
      config->dynamicSmemBytes <= 0xffffffffu &&
      chooseLaunch(k, shapeOf(config->gridDim, config->blockDim, config->dynamicSmemBytes), args, cluster, l)) {
    cudaLaunchConfig_t c = *config;  // the same attributes, stream and shared memory
    c.gridDim = dimOf(l.shape.grid);
    c.blockDim = dimOf(l.shape.block);
    cudaError_t e = real(&c, l.func, l.args);
    launched(k, l, e);
    if (e == cudaSuccess) {
      noteCapture(launchStream(config->stream, ptsz), func, config->gridDim, config->blockDim);
      return e;
    }
  }
  ranOriginal(k);
  return real(config, func, args);
}

/// The caller's function and launch of each graph node whose parameters a
/// wrapper replaced with a clone's (cudaGraphKernelNodeGetParams gives them
/// back), while the node holds that clone.
/// (The entry goes with its node: cudaGraphDestroyNode, cudaGraphDestroy of
/// the graph a wrapper added it to; a handle cudart gives again later must
/// not find a stale entry.)
struct NodeOriginal {
  const void *clone, *func;
  dim3 cloneGrid, cloneBlock, grid, block;
  cudaGraph_t graph;  // where known (the node was added through a wrapper)
};
std::mutex nodeMutex;
std::unordered_map<cudaGraphNode_t, NodeOriginal> nodeOriginals;

/// Records what node `n` (of `graph`, null where not known) holds now: the
/// clone launch `c` for the caller's `p`, or (c null) the caller's own
/// parameters.
void noteNode(cudaGraphNode_t n, const cudaKernelNodeParams *c, const cudaKernelNodeParams *p, cudaGraph_t graph) {
  std::lock_guard<std::mutex> lock(nodeMutex);
  if (!c) {
    nodeOriginals.erase(n);
    return;
  }
  auto it = nodeOriginals.find(n);
  if (!graph && it != nodeOriginals.end()) graph = it->second.graph;
  nodeOriginals[n] = NodeOriginal{c->func, p->func, c->gridDim, c->blockDim, p->gridDim, p->blockDim, graph};
}

bool sameDim(dim3 a, dim3 b) { return a.x == b.x && a.y == b.y && a.z == b.z; }

/// Node `n`'s entry while the node still holds that clone launch (`p`: its
/// parameters as cudart gives them), or null. Under nodeMutex.
const NodeOriginal *heldClone(cudaGraphNode_t n, const cudaKernelNodeParams &p) {
  auto it = nodeOriginals.find(n);
  if (it == nodeOriginals.end() || it->second.clone != p.func || !sameDim(it->second.cloneGrid, p.gridDim) ||
      !sameDim(it->second.cloneBlock, p.blockDim))
    return nullptr;
  return &it->second;
}

/// A node's parameters `p`, which hold the clone of `o`, with the caller's
/// function, grid and block (the arguments stay the node's: the
/// original's first).
cudaKernelNodeParams callerParams(cudaKernelNodeParams p, const NodeOriginal &o) {
  p.func = const_cast<void *>(o.func);
  p.gridDim = o.grid;
  p.blockDim = o.block;
  return p;
}

/// A graph kernel node's parameters: the clone's where its conditions hold
/// for them (checked now: cudart copies the argument values into the node).
/// `set` makes the call with the given parameters; `node`, where given, is
/// the graph node it sets (read after the call: cudaGraphAddKernelNode
/// writes it), whose caller's parameters GetParams gives back.
/// Whether the existing kernel node `n` carries an attribute a clone cannot
/// honour in a graph (cooperative: residency is checked only when the graph
/// launches, with no original to fall back on; a cluster dimension; a
/// device-updatable node), or whose attributes cannot be read. A node a
/// stream capture made of a cooperative launch holds the original; setting
/// its parameters again must not give it a clone. (Where the program does
/// not link cudaGraphKernelNodeGetAttribute, nodes are not asked: as before.)
bool nodeRefusesClone(cudaGraphNode_t n) {
  if (!n || !&cudaGraphKernelNodeGetAttribute) return false;  // a node being added: no attribute yet
  // The node's attributes judged as a launch's (attributesAllow, no
  // cooperative clone: a graph node), a cluster as cudaGraphKernelNodeSetAttribute's wrapper does.
  const cudaLaunchAttributeID ids[] = {cudaLaunchAttributeCooperative, cudaLaunchAttributeClusterDimension,
                                       cudaLaunchAttributeDeviceUpdatableKernelNode};
  cudaLaunchAttribute a[std::size(ids)] = {};
  for (size_t i = 0; i < std::size(ids); ++i) {
    a[i].id = ids[i];
    if (cudaGraphKernelNodeGetAttribute(n, ids[i], &a[i].val) != cudaSuccess) return true;
  }
  Dims cluster;
  return !attributesAllow(a, unsigned(std::size(ids)), cluster) || cluster != Dims{1, 1, 1};
}

template <class Set>
cudaError_t nodeParams(const cudaKernelNodeParams *p, Set &&set, const cudaGraphNode_t *node,
                       cudaGraph_t graph = nullptr, cudaGraphNode_t existing = nullptr) {
  void *k = p && !p->extra ? findKernel(p->func) : nullptr;
  WrapLaunch l;
  if (k && p->sharedMemBytes <= 0xffffffffu && !nodeRefusesClone(existing) &&
      chooseLaunch(k, shapeOf(p->gridDim, p->blockDim, p->sharedMemBytes), p->kernelParams, {1, 1, 1}, l)) {
    cudaKernelNodeParams c = *p;
    c.func = const_cast<void *>(l.func);
    c.gridDim = dimOf(l.shape.grid);
    c.blockDim = dimOf(l.shape.block);
    c.kernelParams = l.args;
    cudaError_t e = set(&c);
    launched(k, l, e);
    if (e == cudaSuccess) {
      if (node) noteNode(*node, &c, p, graph);
      return e;
    }
  }
  if (k) ranOriginal(k);
  cudaError_t e = set(p);
  if (node && e == cudaSuccess) noteNode(*node, nullptr, p, graph);
  return e;
}

/// The generic node calls (cudaGraphAddNode, cudaGraphNodeSetParams,
/// cudaGraphExecNodeSetParams): a kernel node's parameters (V2, the same
/// fields) go through nodeParams; `set` makes the call with a copy of `p`
/// whose kernel parameters are the ones given. Other node types pass.
template <class Set>
cudaError_t genericNodeParams(cudaGraphNodeParams *p, Set &&set, const cudaGraphNode_t *node,
                              cudaGraph_t graph = nullptr, cudaGraphNode_t existing = nullptr) {
  if (!p || p->type != cudaGraphNodeTypeKernel) return set(p);
  const cudaKernelNodeParamsV2 &k = p->kernel;
  cudaKernelNodeParams v1{};
  v1.func = k.func;
  v1.gridDim = k.gridDim;
  v1.blockDim = k.blockDim;
  v1.sharedMemBytes = k.sharedMemBytes;
  v1.kernelParams = k.kernelParams;
  v1.extra = k.extra;
  return nodeParams(
      &v1,
      [&](const cudaKernelNodeParams *q) {
        cudaGraphNodeParams c = *p;
        c.kernel.func = q->func;
        c.kernel.gridDim = q->gridDim;
        c.kernel.blockDim = q->blockDim;
        c.kernel.kernelParams = q->kernelParams;
        return set(&c);
      },
      node, graph, existing);
}

/// Stream captures begun and not yet ended (through the wrappers): while
/// there is none, a clone launch asks cudart only on streams that can
/// capture (noteCapture).
std::atomic<int> capturesActive{0};

/// A capture call's result, counting the capture where it began.
cudaError_t began(cudaError_t e) {
  if (e == cudaSuccess) capturesActive.fetch_add(1);
  return e;
}

/// A capture ends at cudaStreamEndCapture even when the call fails (an
/// invalidated capture).
void ended() {
  if (capturesActive.load() > 0) capturesActive.fetch_sub(1);
}

bool mayCapture(cudaStream_t stream) {
  if (capturesActive.load(std::memory_order_relaxed) > 0) return true;
  cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
  return stream && stream != cudaStreamLegacy && &cudaStreamIsCapturing &&
         (cudaStreamIsCapturing(stream, &status) != cudaSuccess || status != cudaStreamCaptureStatusNone);
}

}  // namespace

namespace ptxopt::rt::nvccwrap {

void noteCapture(cudaStream_t stream, const void *func, dim3 grid, dim3 block) {
  if (!&cudaStreamGetCaptureInfo || !__real_cudaGraphKernelNodeGetParams) return;
  // No capture begun through the wrappers: one begun elsewhere (a shared
  // library's own capture code, which --wrap does not reach) is asked of
  // cudart, on streams that can capture (not the legacy default stream);
  // cudaStreamGetCaptureInfo below wants it active.
  if (!mayCapture(stream)) return;
  cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
  cudaGraph_t graph = nullptr;
  const cudaGraphNode_t *deps = nullptr;
  size_t n = 0;
  // The capture's last node: the one this launch made.
  if (cudaStreamGetCaptureInfo(stream, &status, nullptr, &graph, &deps, nullptr, &n) != cudaSuccess ||
      status != cudaStreamCaptureStatusActive || n != 1 || !deps)
    return;
  cudaKernelNodeParams held{};
  if (__real_cudaGraphKernelNodeGetParams(deps[0], &held) != cudaSuccess) return;
  cudaKernelNodeParams caller = held;
  caller.func = const_cast<void *>(func);
  caller.gridDim = grid;
  caller.blockDim = block;
  noteNode(deps[0], &held, &caller, graph);
}

}  // namespace ptxopt::rt::nvccwrap

extern "C" {

/// Stream captures: counted, so that a clone launch while one is active
/// notes its node (noteCapture); nothing else changes.
cudaError_t __wrap_cudaStreamBeginCapture(cudaStream_t stream, cudaStreamCaptureMode mode) {
  if (!__real_cudaStreamBeginCapture) return cudaErrorNotSupported;
  return began(__real_cudaStreamBeginCapture(stream, mode));
}

cudaError_t __wrap_cudaStreamBeginCapture_ptsz(cudaStream_t stream, cudaStreamCaptureMode mode) {
  if (!__real_cudaStreamBeginCapture_ptsz) return cudaErrorNotSupported;
  return began(__real_cudaStreamBeginCapture_ptsz(stream, mode));
}

cudaError_t __wrap_cudaStreamBeginCaptureToGraph(cudaStream_t stream, cudaGraph_t graph, const cudaGraphNode_t *deps,
                                                 const cudaGraphEdgeData *edges, size_t n,
                                                 cudaStreamCaptureMode mode) {
  if (!__real_cudaStreamBeginCaptureToGraph) return cudaErrorNotSupported;
  return began(__real_cudaStreamBeginCaptureToGraph(stream, graph, deps, edges, n, mode));
}

cudaError_t __wrap_cudaStreamBeginCaptureToGraph_ptsz(cudaStream_t stream, cudaGraph_t graph,
                                                      const cudaGraphNode_t *deps, const cudaGraphEdgeData *edges,
                                                      size_t n, cudaStreamCaptureMode mode) {
  if (!__real_cudaStreamBeginCaptureToGraph_ptsz) return cudaErrorNotSupported;
  return began(__real_cudaStreamBeginCaptureToGraph_ptsz(stream, graph, deps, edges, n, mode));
}

cudaError_t __wrap_cudaStreamEndCapture(cudaStream_t stream, cudaGraph_t *graph) {
  if (!__real_cudaStreamEndCapture) return cudaErrorNotSupported;
  ended();
  return __real_cudaStreamEndCapture(stream, graph);
}

cudaError_t __wrap_cudaStreamEndCapture_ptsz(cudaStream_t stream, cudaGraph_t *graph) {
  if (!__real_cudaStreamEndCapture_ptsz) return cudaErrorNotSupported;
  ended();
  return __real_cudaStreamEndCapture_ptsz(stream, graph);
}

cudaError_t __wrap_cudaLaunchKernel(const void *func, dim3 grid, dim3 block, void **args, size_t shared,
                                    cudaStream_t stream) {
  return launchKernel(__real_cudaLaunchKernel, func, grid, block, args, shared, stream, false);
}

cudaError_t __wrap_cudaLaunchKernel_ptsz(const void *func, dim3 grid, dim3 block, void **args, size_t shared,
                                         cudaStream_t stream) {
  return launchKernel(__real_cudaLaunchKernel_ptsz, func, grid, block, args, shared, stream, true);
}

cudaError_t __wrap_cudaLaunchCooperativeKernel(const void *func, dim3 grid, dim3 block, void **args, size_t shared,
                                               cudaStream_t stream) {
  return launchKernel(__real_cudaLaunchCooperativeKernel, func, grid, block, args, shared, stream, false, true);
}

cudaError_t __wrap_cudaLaunchCooperativeKernel_ptsz(const void *func, dim3 grid, dim3 block, void **args,
                                                    size_t shared, cudaStream_t stream) {
  return launchKernel(__real_cudaLaunchCooperativeKernel_ptsz, func, grid, block, args, shared, stream, true, true);
}

cudaError_t __wrap_cudaLaunchKernelExC(const cudaLaunchConfig_t *config, const void *func, void **args) {
  return launchKernelEx(__real_cudaLaunchKernelExC, config, func, args, false);
}

cudaError_t __wrap_cudaLaunchKernelExC_ptsz(const cudaLaunchConfig_t *config, const void *func, void **args) {
  return launchKernelEx(__real_cudaLaunchKernelExC_ptsz, config, func, args, true);
}

cudaError_t __wrap_cudaGetKernel(cudaKernel_t *kernel, const void *func) {
  if (!__real_cudaGetKernel) return cudaErrorNotSupported;
  cudaError_t e = __real_cudaGetKernel(kernel, func);
  if (e == cudaSuccess && kernel) noteHandle(func, *kernel);
  return e;
}

cudaError_t __wrap_cudaGraphAddKernelNode(cudaGraphNode_t *node, cudaGraph_t graph, const cudaGraphNode_t *deps,
                                          size_t ndeps, const cudaKernelNodeParams *p) {
  if (!__real_cudaGraphAddKernelNode) return cudaErrorNotSupported;
  return nodeParams(
      p, [&](const cudaKernelNodeParams *q) { return __real_cudaGraphAddKernelNode(node, graph, deps, ndeps, q); },
      node, graph);
}

cudaError_t __wrap_cudaGraphKernelNodeSetParams(cudaGraphNode_t node, const cudaKernelNodeParams *p) {
  if (!__real_cudaGraphKernelNodeSetParams) return cudaErrorNotSupported;
  return nodeParams(
      p, [&](const cudaKernelNodeParams *q) { return __real_cudaGraphKernelNodeSetParams(node, q); }, &node, nullptr,
      node);
}

cudaError_t __wrap_cudaGraphExecKernelNodeSetParams(cudaGraphExec_t exec, cudaGraphNode_t node,
                                                    const cudaKernelNodeParams *p) {
  if (!__real_cudaGraphExecKernelNodeSetParams) return cudaErrorNotSupported;
  // (The instantiated graph's node: the graph's own node, which GetParams
  // reads, keeps its parameters.)
  return nodeParams(
      p, [&](const cudaKernelNodeParams *q) { return __real_cudaGraphExecKernelNodeSetParams(exec, node, q); },
      nullptr, nullptr, node);
}

cudaError_t __wrap_cudaGraphAddNode(cudaGraphNode_t *node, cudaGraph_t graph, const cudaGraphNode_t *deps,
                                    const cudaGraphEdgeData *edges, size_t ndeps, cudaGraphNodeParams *p) {
  if (!__real_cudaGraphAddNode) return cudaErrorNotSupported;
  return genericNodeParams(
      p, [&](cudaGraphNodeParams *q) { return __real_cudaGraphAddNode(node, graph, deps, edges, ndeps, q); }, node,
      graph);
}

cudaError_t __wrap_cudaGraphNodeSetParams(cudaGraphNode_t node, cudaGraphNodeParams *p) {
  if (!__real_cudaGraphNodeSetParams) return cudaErrorNotSupported;
  return genericNodeParams(p, [&](cudaGraphNodeParams *q) { return __real_cudaGraphNodeSetParams(node, q); }, &node,
                           nullptr, node);
}

cudaError_t __wrap_cudaGraphExecNodeSetParams(cudaGraphExec_t exec, cudaGraphNode_t node, cudaGraphNodeParams *p) {
  if (!__real_cudaGraphExecNodeSetParams) return cudaErrorNotSupported;
  return genericNodeParams(
      p, [&](cudaGraphNodeParams *q) { return __real_cudaGraphExecNodeSetParams(exec, node, q); }, nullptr, nullptr,
      node);
}

cudaError_t __wrap_cudaGraphKernelNodeGetParams(cudaGraphNode_t node, cudaKernelNodeParams *p) {
  if (!__real_cudaGraphKernelNodeGetParams) return cudaErrorNotSupported;
  cudaError_t e = __real_cudaGraphKernelNodeGetParams(node, p);
  if (e != cudaSuccess || !p) return e;
  std::lock_guard<std::mutex> lock(nodeMutex);
  // (Only while the node holds that clone launch: a node a capture made
  // holds what noteCapture noted, a node set since holds its own.)
  if (const NodeOriginal *o = heldClone(node, *p)) *p = callerParams(*p, *o);
  return e;
}

/// An attribute set on a node that holds a clone: where the clone cannot
/// honour it (cooperative, a cluster dimension, a device-updatable node,
/// one the wrappers do not know: attributesAllow, as for the launch APIs),
/// the node gets the caller's launch back first (its function, grid and
/// block; the arguments the node holds, the original's first), then the
/// attribute. Priority, access policy, programmatic serialization... keep
/// the clone.
cudaError_t __wrap_cudaGraphKernelNodeSetAttribute(cudaGraphNode_t node, cudaKernelNodeAttrID attr,
                                                   const cudaKernelNodeAttrValue *value) {
  if (!__real_cudaGraphKernelNodeSetAttribute) return cudaErrorNotSupported;
  cudaLaunchAttribute a{};
  a.id = attr;
  if (value) a.val = *value;
  Dims cluster;
  const bool keeps = value && attributesAllow(&a, 1, cluster) && cluster == Dims{1, 1, 1};
  cudaKernelNodeParams p{};
  if (!keeps && __real_cudaGraphKernelNodeGetParams && __real_cudaGraphKernelNodeSetParams &&
      __real_cudaGraphKernelNodeGetParams(node, &p) == cudaSuccess) {
    std::lock_guard<std::mutex> lock(nodeMutex);
    if (const NodeOriginal *o = heldClone(node, p)) {
      const cudaKernelNodeParams q = callerParams(p, *o);
      if (__real_cudaGraphKernelNodeSetParams(node, &q) == cudaSuccess) nodeOriginals.erase(node);
    }
  }
  return __real_cudaGraphKernelNodeSetAttribute(node, attr, value);
}

cudaError_t __wrap_cudaGraphDestroyNode(cudaGraphNode_t node) {
  if (!__real_cudaGraphDestroyNode) return cudaErrorNotSupported;
  {
    std::lock_guard<std::mutex> lock(nodeMutex);
    nodeOriginals.erase(node);
  }
  return __real_cudaGraphDestroyNode(node);
}

cudaError_t __wrap_cudaGraphDestroy(cudaGraph_t graph) {
  if (!__real_cudaGraphDestroy) return cudaErrorNotSupported;
  {
    std::lock_guard<std::mutex> lock(nodeMutex);
    std::erase_if(nodeOriginals, [&](const auto &n) { return n.second.graph == graph; });
  }
  return __real_cudaGraphDestroy(graph);
}

}  // extern "C"
