// ptx-nvcc test program (tests/nvcc, case launch-apis): the paper's matrix
// add, unmodified, launched through cudart's launch APIs and graph kernel
// nodes instead of <<<>>>. Linked with fake_cudart.cpp: each call prints the
// kernel it was given (original or clone) and the shape.
#include "matadd.cu"
#include <cstdio>
#include <cstring>

__global__ void no_clones(int *out) { out[threadIdx.x] = 1; }

static cudaLaunchConfig_t config(unsigned grid, unsigned block, cudaLaunchAttribute *attrs, unsigned n) {
  cudaLaunchConfig_t c;
  std::memset(&c, 0, sizeof c);
  c.gridDim = dim3(grid);
  c.blockDim = dim3(block);
  c.attrs = attrs;
  c.numAttrs = n;
  return c;
}

static void say(const char *what) { std::printf("case %s\n", what); }

// What cudaGraphKernelNodeGetParams gave, as a line of the fake's form.
static void printGot(const cudaKernelNodeParams &got) {
  std::printf("fake-cudart: cudaGraphKernelNodeGetParams returned %s grid=(%u,%u,%u) block=(%u,%u,%u)\n",
              got.func == (void *)matadd_int ? "matadd_int" : "another function", got.gridDim.x, got.gridDim.y,
              got.gridDim.z, got.blockDim.x, got.blockDim.y, got.blockDim.z);
}

// The real capture calls, past ptx-nvcc's --wrap (a capture begun where the
// wrappers do not reach); weak: a link without the wrappers (or with the
// per-thread ones) has none, and the plain calls then stand for them.
extern "C" cudaError_t __real_cudaStreamBeginCapture(cudaStream_t, cudaStreamCaptureMode) __attribute__((weak));
extern "C" cudaError_t __real_cudaStreamEndCapture(cudaStream_t, cudaGraph_t *) __attribute__((weak));

int main() {
  void *d = nullptr;  // an allocation first, as programs make (the shim wraps it: NvccPreload.cpp)
  (void)cudaMalloc(&d, 16);
  int *p = reinterpret_cast<int *>(0x100000);
  void *args[] = {&p, &p, &p};
  say("C cudaLaunchKernel 512x256");
  cudaLaunchKernel((const void *)matadd_int, dim3(512), dim3(256), args, 0, 0);
  say("template cudaLaunchKernel 65536x1024");
  cudaLaunchKernel(matadd_int, dim3(65536), dim3(1024), args, 0, 0);
  say("cudaLaunchKernel without clones");
  cudaLaunchKernel((const void *)no_clones, dim3(1), dim3(32), args, 0, 0);

  cudaLaunchConfig_t c = config(512, 256, nullptr, 0);
  say("cudaLaunchKernelEx 512x256");
  cudaLaunchKernelEx(&c, matadd_int, (const int *)p, (const int *)p, p);
  say("cudaLaunchKernelExC 2000x1000");
  c = config(2000, 1000, nullptr, 0);
  cudaLaunchKernelExC(&c, (const void *)matadd_int, args);

  cudaLaunchAttribute a[2];
  std::memset(a, 0, sizeof a);
  a[0].id = cudaLaunchAttributePriority;
  a[0].val.priority = 3;
  a[1].id = cudaLaunchAttributeProgrammaticStreamSerialization;
  a[1].val.programmaticStreamSerializationAllowed = 1;
  say("priority + programmatic serialization pass through");
  c = config(512, 256, a, 2);
  cudaLaunchKernelEx(&c, matadd_int, (const int *)p, (const int *)p, p);

  cudaLaunchAttribute cl;
  std::memset(&cl, 0, sizeof cl);
  cl.id = cudaLaunchAttributeClusterDimension;
  cl.val.clusterDim.x = 4;
  cl.val.clusterDim.y = 1;
  cl.val.clusterDim.z = 1;
  say("cluster 4 divides the swapped grid 256");
  c = config(512, 256, &cl, 1);
  cudaLaunchKernelExC(&c, (const void *)matadd_int, args);
  say("cluster 3 does not divide the swapped grid 256 of 768x256: a later clone");
  cl.val.clusterDim.x = 3;
  c = config(768, 256, &cl, 1);
  cudaLaunchKernelExC(&c, (const void *)matadd_int, args);

  cudaLaunchAttribute co;
  std::memset(&co, 0, sizeof co);
  co.id = cudaLaunchAttributeCooperative;
  co.val.cooperative = 1;
  say("cooperative attribute: the clone, cooperative");
  c = config(512, 256, &co, 1);
  cudaLaunchKernelExC(&c, (const void *)matadd_int, args);
  say("cooperative attribute, the clone too large: original");
  c = config(65536, 1024, &co, 1);
  cudaLaunchKernelExC(&c, (const void *)matadd_int, args);
  co.id = static_cast<cudaLaunchAttributeID>(99);
  say("unknown attribute: original");
  c = config(512, 256, &co, 1);
  cudaLaunchKernelExC(&c, (const void *)matadd_int, args);
  say("cudaLaunchCooperativeKernel: the clone");
  cudaLaunchCooperativeKernel((const void *)matadd_int, dim3(512), dim3(256), args, 0, 0);
  say("cudaLaunchCooperativeKernel, the clone too large: original");
  cudaLaunchCooperativeKernel((const void *)matadd_int, dim3(65536), dim3(1024), args, 0, 0);

  cudaKernel_t h = nullptr;
  cudaGetKernel(&h, matadd_int);
  say("cudaLaunchKernelEx with a cudaKernel_t");
  c = config(512, 256, nullptr, 0);
  cudaLaunchKernelEx(&c, h, (const int *)p, (const int *)p, p);

  cudaKernelNodeParams np;
  std::memset(&np, 0, sizeof np);
  np.func = (void *)matadd_int;
  np.gridDim = dim3(512);
  np.blockDim = dim3(256);
  np.kernelParams = args;
  cudaGraphNode_t node;
  say("cudaGraphAddKernelNode 512x256");
  cudaGraphAddKernelNode(&node, nullptr, nullptr, 0, &np);
  say("cudaGraphKernelNodeSetParams 2000x1000");
  np.gridDim = dim3(2000);
  np.blockDim = dim3(1000);
  cudaGraphKernelNodeSetParams(node, &np);
  say("cudaGraphExecKernelNodeSetParams 65536x1024");
  np.gridDim = dim3(65536);
  np.blockDim = dim3(1024);
  cudaGraphExecKernelNodeSetParams(nullptr, node, &np);
  // Read back, the node holds the caller's kernel and launch (2000 x 1000:
  // the exec node's update leaves the graph's node as it was), so setting
  // them again with another launch makes the choice again.
  say("cudaGraphKernelNodeGetParams: the caller's");
  cudaKernelNodeParams got;
  std::memset(&got, 0, sizeof got);
  cudaGraphKernelNodeGetParams(node, &got);
  printGot(got);
  say("GetParams, then SetParams at 512x256");
  got.gridDim = dim3(512);
  got.blockDim = dim3(256);
  cudaGraphKernelNodeSetParams(node, &got);
  // An attribute on a node that holds a clone: the clone keeps a priority;
  // for a cooperative launch the node gets the caller's launch back first.
  say("cudaGraphKernelNodeSetAttribute priority: the clone stays");
  cudaKernelNodeAttrValue av;
  std::memset(&av, 0, sizeof av);
  av.priority = 1;
  cudaGraphKernelNodeSetAttribute(node, cudaLaunchAttributePriority, &av);
  say("cudaGraphKernelNodeSetAttribute cooperative: the caller's launch first");
  std::memset(&av, 0, sizeof av);
  av.cooperative = 1;
  cudaGraphKernelNodeSetAttribute(node, cudaLaunchAttributeCooperative, &av);
  say("cudaGraphKernelNodeGetParams after it: the node's own");
  std::memset(&got, 0, sizeof got);
  cudaGraphKernelNodeGetParams(node, &got);
  printGot(got);
  say("cudaGraphKernelNodeSetParams on the cooperative node: original");  // no fallback at graph launch
  cudaGraphKernelNodeSetParams(node, &got);
  // The generic node calls (a kernel node: as above; another type passes).
  cudaGraphNodeParams gp = {};  // (its union has dim3 members: no default constructor)
  gp.type = cudaGraphNodeTypeKernel;
  gp.kernel.func = (void *)matadd_int;
  gp.kernel.gridDim = dim3(512);
  gp.kernel.blockDim = dim3(256);
  gp.kernel.kernelParams = args;
  cudaGraphNode_t gnode = nullptr;
  say("cudaGraphAddNode (a kernel) 512x256");
  cudaGraphAddNode(&gnode, nullptr, nullptr, nullptr, 0, &gp);
  say("cudaGraphNodeSetParams 2000x1000");
  gp.kernel.gridDim = dim3(2000);
  gp.kernel.blockDim = dim3(1000);
  cudaGraphNodeSetParams(gnode, &gp);
  say("cudaGraphKernelNodeGetParams of that node: the caller's");
  std::memset(&got, 0, sizeof got);
  cudaGraphKernelNodeGetParams(gnode, &got);
  printGot(got);
  say("cudaGraphExecNodeSetParams 65536x1024");
  gp.kernel.gridDim = dim3(65536);
  gp.kernel.blockDim = dim3(1024);
  cudaGraphExecNodeSetParams(nullptr, gnode, &gp);
  say("cudaGraphAddNode of another type: passed through");
  cudaGraphNodeParams ep = {};
  ep.type = cudaGraphNodeTypeEmpty;
  cudaGraphNode_t enode = nullptr;
  cudaGraphAddNode(&enode, nullptr, nullptr, nullptr, 0, &ep);
  // A stream capture: the launches' nodes hold the clones, and read back
  // as the caller's kernel and launch (noteCapture, NvccWrap.cpp).
  cudaStream_t cs = reinterpret_cast<cudaStream_t>(0x1234);
  cudaStreamBeginCapture(cs, cudaStreamCaptureModeGlobal);
  auto lastNode = [&]() -> cudaGraphNode_t {
    cudaStreamCaptureStatus st;
    const cudaGraphNode_t *deps = nullptr;
    size_t nd = 0;
    cudaStreamGetCaptureInfo(cs, &st, nullptr, nullptr, &deps, nullptr, &nd);
    return nd == 1 ? deps[0] : nullptr;
  };
  say("capture: cudaLaunchKernel 512x256");
  cudaLaunchKernel((const void *)matadd_int, dim3(512), dim3(256), args, 0, cs);
  cudaGraphNode_t c1 = lastNode();
  say("capture: <<<>>> 2000x1000");
  matadd_int<<<2000, 1000, 0, cs>>>(p, p, p);
  cudaGraphNode_t c2 = lastNode();
  say("capture: cudaLaunchCooperativeKernel: original");  // no fallback once in a graph
  cudaLaunchCooperativeKernel((const void *)matadd_int, dim3(512), dim3(256), args, 0, cs);
  cudaGraph_t cg = nullptr;
  cudaStreamEndCapture(cs, &cg);
  say("captured nodes read back as the caller's");
  for (cudaGraphNode_t cn : {c1, c2}) {
    std::memset(&got, 0, sizeof got);
    if (cn && cudaGraphKernelNodeGetParams(cn, &got) == cudaSuccess) printGot(got);
  }
  // A capture begun where the wrappers do not reach (a shared library's own
  // capture code; here the real functions, called past --wrap): the clone
  // launch asks cudaStreamIsCapturing, and its node reads back the same.
  if (&__real_cudaStreamBeginCapture) __real_cudaStreamBeginCapture(cs, cudaStreamCaptureModeGlobal);
  else cudaStreamBeginCapture(cs, cudaStreamCaptureModeGlobal);
  say("unwrapped capture: <<<>>> 2000x1000");
  matadd_int<<<2000, 1000, 0, cs>>>(p, p, p);
  cudaGraphNode_t c3 = lastNode();
  say("unwrapped capture: cudaLaunchCooperativeKernel: original");
  cudaLaunchCooperativeKernel((const void *)matadd_int, dim3(512), dim3(256), args, 0, cs);
  if (&__real_cudaStreamEndCapture) __real_cudaStreamEndCapture(cs, &cg);
  else cudaStreamEndCapture(cs, &cg);
  say("unwrapped capture: read back as the caller's");
  std::memset(&got, 0, sizeof got);
  if (c3 && cudaGraphKernelNodeGetParams(c3, &got) == cudaSuccess) printGot(got);
  say("graph node with extra: original");
  void *extra[] = {nullptr};
  np.kernelParams = nullptr;
  np.extra = extra;
  np.gridDim = dim3(512);
  np.blockDim = dim3(256);
  cudaGraphAddKernelNode(&node, nullptr, nullptr, 0, &np);
  say("cudaGraphDestroyNode, cudaGraphDestroy: passed through");
  cudaGraphDestroyNode(gnode);
  cudaGraphDestroy(nullptr);
  std::printf("done\n");
  return 0;
}
