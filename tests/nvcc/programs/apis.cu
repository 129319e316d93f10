// Every way a program hands a kernel to cudart besides <<<>>>: cudaLaunchKernel
// (C function and template), cudaLaunchKernelEx (template, and with a
// cudaKernel_t), cudaLaunchKernelExC with launch attributes (priority and
// programmatic stream serialization, a cluster dimension, cooperative),
// cudaLaunchCooperativeKernel, a graph captured from <<<>>> launches and
// replayed, and a graph built by hand from kernel nodes whose parameters are
// set again (cudaGraphKernelNodeSetParams, cudaGraphExecKernelNodeSetParams),
// and the same through the generic node calls (cudaGraphAddNode,
// cudaGraphNodeSetParams, cudaGraphExecNodeSetParams).
// Besides the result lines, `variant <path> <name>` lines say which kernel
// ran where the program can tell (a ptx-nvcc build answers
// ptxopt_nvcc_last_variant; nvcc's prints "-"), and `graph <name> node
// <function>` the kernel cudaGraphKernelNodeGetParams gives for a graph's
// node (cudaFuncGetName): the caller's kernel, whose clone the node holds
// (the wrappers give the caller's back: for a captured node since the
// twelfth session, before that the clone), in every graph.
// FLAGS: -O3 -std=c++17
// VARIANT: cudaLaunchKernel(C) __ptxopt_
// VARIANT: cudaLaunchKernel<T> __ptxopt_
// VARIANT: cudaLaunchKernelEx __ptxopt_
// VARIANT: cudaLaunchKernelEx(priority,programmatic) __ptxopt_
// VARIANT: cudaLaunchKernelEx(cudaKernel_t) __ptxopt_
// VARIANT: cudaLaunchKernelExC(cluster=2) __ptxopt_
// (cooperative launches run the clone as a cooperative launch of its own
// grid since the seventeenth session: docs/NVCC.md, "Launch paths")
// VARIANT: <<<>>>(256x512) __ptxopt_
// VARIANT: cudaLaunchKernelExC(cooperative) __ptxopt_
// VARIANT: cudaLaunchCooperativeKernel __ptxopt_
// VARIANT: capture<<<>>> __ptxopt_
// VARIANT: capture+GetParams+cudaGraphExecKernelNodeSetParams __ptxopt_
// VARIANT: capture(unwrapped)<<<>>> __ptxopt_
// VARIANT: cudaGraphAddKernelNode __ptxopt_
// VARIANT: cudaGraphKernelNodeSetParams __ptxopt_
// VARIANT: cudaGraphExecKernelNodeSetParams __ptxopt_
// VARIANT: cudaGraphAddNode __ptxopt_
// VARIANT: cudaGraphNodeSetParams __ptxopt_
// VARIANT: cudaGraphExecNodeSetParams __ptxopt_
#include "common.h"

extern "C" const char *ptxopt_nvcc_last_variant(void) __attribute__((weak));
// cudart's own cudaStreamBeginCapture past ptx-nvcc's --wrap (what a shared
// library's capture code calls); absent from nvcc's build (weak: null).
extern "C" cudaError_t __real_cudaStreamBeginCapture(cudaStream_t, cudaStreamCaptureMode) __attribute__((weak));

__global__ void colCopy(const int *in, int *out) {
  int i = threadIdx.x * gridDim.x + blockIdx.x;
  out[i] = in[i] + 1;
}

static void variant(const char *path) {
  const char *v = ptxopt_nvcc_last_variant ? ptxopt_nvcc_last_variant() : nullptr;
  std::printf("variant %s %s\n", path, v ? v : "-");
}

struct Buffers {
  unsigned grid, block;
  size_t n;
  std::vector<int> in, want;
  int *din = nullptr;
  Buffers(unsigned g, unsigned b) : grid(g), block(b), n(size_t(g) * b), in(n), want(n) {
    fill(in, g + b);
    for (size_t i = 0; i < n; ++i) want[i] = in[i] + 1;
    din = toDevice(in);
  }
  int *out() {  // a fresh output buffer (freed at exit)
    int *d;
    CHECK(cudaMalloc(&d, n * sizeof(int)));
    CHECK(cudaMemset(d, 0, n * sizeof(int)));
    return d;
  }
  void check(const char *what, const int *d) { report(label("%s %ux%u", what, grid, block), fromDevice(d, n), want); }
};

static cudaLaunchConfig_t config(const Buffers &b, cudaStream_t s, cudaLaunchAttribute *a, unsigned n) {
  cudaLaunchConfig_t c = {};
  c.gridDim = dim3(b.grid);
  c.blockDim = dim3(b.block);
  c.stream = s;
  c.attrs = a;
  c.numAttrs = n;
  return c;
}

/// The function each kernel node of `g` holds.
static void printNodes(const char *what, cudaGraph_t g) {
  size_t n = 0;
  CHECK(cudaGraphGetNodes(g, nullptr, &n));
  std::vector<cudaGraphNode_t> nodes(n);
  CHECK(cudaGraphGetNodes(g, nodes.data(), &n));
  for (cudaGraphNode_t node : nodes) {
    cudaGraphNodeType t;
    CHECK(cudaGraphNodeGetType(node, &t));
    if (t != cudaGraphNodeTypeKernel) continue;
    cudaKernelNodeParams p = {};
    const char *name = nullptr;
    if (cudaGraphKernelNodeGetParams(node, &p) != cudaSuccess || cudaFuncGetName(&name, p.func) != cudaSuccess)
      name = nullptr;
    (void)cudaGetLastError();
    std::printf("graph %s node %s grid=%u block=%u\n", what, name ? name : "?", p.gridDim.x, p.blockDim.x);
  }
}

/// Stream capture of <<<>>>: the graph replays the variant chosen at
/// capture; its node read back (the caller's kernel and launch, as in
/// nvcc's build), its output argument changed and set again runs the
/// kernel's choice for the new arguments. `unwrapped`: the capture begun
/// with cudart's own cudaStreamBeginCapture, where the wrappers do not
/// reach (the shim then asks cudart whether the stream captures).
static void captured(Buffers &b, cudaStream_t s, bool unwrapped) {
  const std::string what = unwrapped ? "unwrapped captured" : "captured";
  int *d = b.out(), *d2 = b.out();
  cudaGraph_t g;
  cudaGraphExec_t e;
  if (unwrapped && &__real_cudaStreamBeginCapture)
    CHECK(__real_cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  else
    CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
  colCopy<<<b.grid, b.block, 0, s>>>(b.din, d);
  variant(unwrapped ? "capture(unwrapped)<<<>>>" : "capture<<<>>>");
  CHECK(cudaStreamEndCapture(s, &g));
  printNodes(unwrapped ? "captured(unwrapped)" : "captured", g);
  CHECK(cudaGraphInstantiate(&e, g, 0));
  CHECK(cudaGraphLaunch(e, s));
  if (!unwrapped) CHECK(cudaGraphLaunch(e, s));
  CHECK(cudaStreamSynchronize(s));
  b.check(unwrapped ? "colCopy unwrapped captured graph" : "colCopy captured graph x2", d);
  size_t n = 0;
  CHECK(cudaGraphGetNodes(g, nullptr, &n));
  std::vector<cudaGraphNode_t> nodes(n);
  CHECK(cudaGraphGetNodes(g, nodes.data(), &n));
  cudaKernelNodeParams p = {};
  CHECK(cudaGraphKernelNodeGetParams(nodes.at(0), &p));
  report("colCopy " + what + " node reads back as <<<>>> set it (grid, block)",
         std::vector<int>{int(p.gridDim.x), int(p.blockDim.x)}, std::vector<int>{int(b.grid), int(b.block)});
  void *args[] = {&b.din, &d2};
  p.kernelParams = args;
  CHECK(cudaGraphExecKernelNodeSetParams(e, nodes.at(0), &p));
  if (!unwrapped) variant("capture+GetParams+cudaGraphExecKernelNodeSetParams");
  CHECK(cudaGraphLaunch(e, s));
  CHECK(cudaStreamSynchronize(s));
  b.check(("colCopy " + what + " graph, node set again").c_str(), d2);
  CHECK(cudaGraphExecDestroy(e));
  CHECK(cudaGraphDestroy(g));
}

int main() {
  int dev = 0, cc = 0, coop = 0;
  CHECK(cudaGetDevice(&dev));
  CHECK(cudaDeviceGetAttribute(&cc, cudaDevAttrComputeCapabilityMajor, dev));
  CHECK(cudaDeviceGetAttribute(&coop, cudaDevAttrCooperativeLaunch, dev));
  cudaStream_t s;
  CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  Buffers b(1024, 512);

  {  // cudaLaunchKernel: the C function and the template
    int *d1 = b.out(), *d2 = b.out();
    void *args1[] = {&b.din, &d1};
    CHECK(cudaLaunchKernel((const void *)colCopy, dim3(b.grid), dim3(b.block), args1, 0, s));
    variant("cudaLaunchKernel(C)");
    void *args2[] = {&b.din, &d2};
    CHECK(cudaLaunchKernel(colCopy, dim3(b.grid), dim3(b.block), args2, 0, s));
    variant("cudaLaunchKernel<T>");
    b.check("colCopy cudaLaunchKernel(C)", d1);
    b.check("colCopy cudaLaunchKernel<T>", d2);
  }
  {  // cudaLaunchKernelEx: plain, with priority + programmatic serialization, with a cudaKernel_t
    int *d1 = b.out(), *d2 = b.out(), *d3 = b.out();
    cudaLaunchConfig_t c = config(b, s, nullptr, 0);
    CHECK(cudaLaunchKernelEx(&c, colCopy, (const int *)b.din, d1));
    variant("cudaLaunchKernelEx");
    cudaLaunchAttribute a[2] = {};
    a[0].id = cudaLaunchAttributePriority;
    a[0].val.priority = 0;
    a[1].id = cudaLaunchAttributeProgrammaticStreamSerialization;
    a[1].val.programmaticStreamSerializationAllowed = 1;
    c = config(b, s, a, 2);
    CHECK(cudaLaunchKernelEx(&c, colCopy, (const int *)b.din, d2));
    variant("cudaLaunchKernelEx(priority,programmatic)");
    cudaKernel_t k;
    CHECK(cudaGetKernel(&k, colCopy));
    c = config(b, s, nullptr, 0);
    CHECK(cudaLaunchKernelEx(&c, k, (const int *)b.din, d3));
    variant("cudaLaunchKernelEx(cudaKernel_t)");
    b.check("colCopy cudaLaunchKernelEx", d1);
    b.check("colCopy cudaLaunchKernelEx priority+programmatic", d2);
    b.check("colCopy cudaLaunchKernelEx cudaKernel_t", d3);
  }
  if (cc >= 9) {  // a cluster dimension (sm_90 and later)
    int *d = b.out();
    void *args[] = {&b.din, &d};
    cudaLaunchAttribute a = {};
    a.id = cudaLaunchAttributeClusterDimension;
    a.val.clusterDim.x = 2;
    a.val.clusterDim.y = 1;
    a.val.clusterDim.z = 1;
    cudaLaunchConfig_t c = config(b, s, &a, 1);
    CHECK(cudaLaunchKernelExC(&c, (const void *)colCopy, args));
    variant("cudaLaunchKernelExC(cluster=2)");
    b.check("colCopy cudaLaunchKernelExC cluster=2", d);
  }
  if (coop) {  // cooperative: the clone <<<>>> runs at the shape, cooperatively (256 blocks of 512
              // threads are co-resident on an H100/H200, and so are the swap clone's 512 of 256)
    Buffers cb(256, 512);
    int *d0 = cb.out(), *d1 = cb.out(), *d2 = cb.out();
    colCopy<<<cb.grid, cb.block, 0, s>>>(cb.din, d0);
    variant("<<<>>>(256x512)");
    void *args1[] = {&cb.din, &d1};
    cudaLaunchAttribute a = {};
    a.id = cudaLaunchAttributeCooperative;
    a.val.cooperative = 1;
    cudaLaunchConfig_t c = config(cb, s, &a, 1);
    CHECK(cudaLaunchKernelExC(&c, (const void *)colCopy, args1));
    variant("cudaLaunchKernelExC(cooperative)");
    void *args2[] = {&cb.din, &d2};
    CHECK(cudaLaunchCooperativeKernel((const void *)colCopy, dim3(cb.grid), dim3(cb.block), args2, 0, s));
    variant("cudaLaunchCooperativeKernel");
    cb.check("colCopy <<<>>> 256x512", d0);
    cb.check("colCopy cudaLaunchKernelExC cooperative", d1);
    cb.check("colCopy cudaLaunchCooperativeKernel", d2);
  }
  captured(b, s, false);
  captured(b, s, true);
  {  // a graph built by hand: add a kernel node, set its parameters, update the instantiated graph
    int *d1 = b.out(), *d2 = b.out(), *d3 = b.out();
    cudaGraph_t g;
    CHECK(cudaGraphCreate(&g, 0));
    void *args[] = {&b.din, &d1};
    cudaKernelNodeParams p = {};
    p.func = (void *)colCopy;
    p.gridDim = dim3(b.grid);
    p.blockDim = dim3(b.block);
    p.kernelParams = args;
    cudaGraphNode_t node;
    CHECK(cudaGraphAddKernelNode(&node, g, nullptr, 0, &p));
    variant("cudaGraphAddKernelNode");
    args[1] = &d2;
    CHECK(cudaGraphKernelNodeSetParams(node, &p));
    variant("cudaGraphKernelNodeSetParams");
    printNodes("by-hand", g);
    cudaGraphExec_t e;
    CHECK(cudaGraphInstantiate(&e, g, 0));
    CHECK(cudaGraphLaunch(e, s));
    CHECK(cudaStreamSynchronize(s));
    b.check("colCopy graph node (set params)", d2);
    args[1] = &d3;
    CHECK(cudaGraphExecKernelNodeSetParams(e, node, &p));
    variant("cudaGraphExecKernelNodeSetParams");
    CHECK(cudaGraphLaunch(e, s));
    CHECK(cudaStreamSynchronize(s));
    b.check("colCopy graph exec node (set params)", d3);
    report("colCopy graph node first output untouched n=524288", fromDevice(d1, b.n), std::vector<int>(b.n, 0));
    CHECK(cudaGraphExecDestroy(e));
    CHECK(cudaGraphDestroy(g));
  }
  {  // the generic node calls: cudaGraphAddNode, cudaGraphNodeSetParams, cudaGraphExecNodeSetParams
    int *d1 = b.out(), *d2 = b.out(), *d3 = b.out();
    cudaGraph_t g;
    CHECK(cudaGraphCreate(&g, 0));
    void *args[] = {&b.din, &d1};
    cudaGraphNodeParams p = {};
    p.type = cudaGraphNodeTypeKernel;
    p.kernel.func = (void *)colCopy;
    p.kernel.gridDim = dim3(b.grid);
    p.kernel.blockDim = dim3(b.block);
    p.kernel.kernelParams = args;
    cudaGraphNode_t node;
    CHECK(cudaGraphAddNode(&node, g, nullptr, nullptr, 0, &p));
    variant("cudaGraphAddNode");
    args[1] = &d2;
    CHECK(cudaGraphNodeSetParams(node, &p));
    variant("cudaGraphNodeSetParams");
    printNodes("generic", g);
    cudaGraphExec_t e;
    CHECK(cudaGraphInstantiate(&e, g, 0));
    CHECK(cudaGraphLaunch(e, s));
    CHECK(cudaStreamSynchronize(s));
    b.check("colCopy generic graph node (set params)", d2);
    args[1] = &d3;
    CHECK(cudaGraphExecNodeSetParams(e, node, &p));
    variant("cudaGraphExecNodeSetParams");
    CHECK(cudaGraphLaunch(e, s));
    CHECK(cudaStreamSynchronize(s));
    b.check("colCopy generic graph exec node (set params)", d3);
    report("colCopy generic graph node first output untouched n=524288", fromDevice(d1, b.n),
           std::vector<int>(b.n, 0));
    CHECK(cudaGraphExecDestroy(e));
    CHECK(cudaGraphDestroy(g));
  }
  CHECK(cudaStreamDestroy(s));
  return 0;
}
