// examples/paper/emu/emu.h: runs the examples' kernels on the CPU, so that
// their CPU checks can be tested on a machine without a GPU (the ctest
// `paper-examples-emu`, label examples; examples/paper/emu/run-emu.sh).
//
// It is NOT a CUDA implementation: just enough of the runtime API and of the
// device built-ins for the code in examples/paper. The .cu file is compiled by
// g++ as C++ after run-emu.sh rewrote each `k<<<g, b>>>(args)` into
// `emu::launch(g, b, #k, k, args)`. Threads of a block run one after the
// other; kernels that synchronise (__syncthreads, __shfl_xor_sync) run each
// thread as a coroutine (ucontext) that yields at every barrier, so a block's
// threads meet there as on a GPU. Timings mean nothing here.
#pragma once

#include <ucontext.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <vector>

#include <vector_types.h>
#include <vector_functions.h>

#undef __shared__
#define __shared__ static
#undef __constant__
#define __constant__
#undef __forceinline__
#define __forceinline__ inline
#undef __launch_bounds__
#define __launch_bounds__(...)

// ---- indices --------------------------------------------------------------------------
inline uint3 threadIdx, blockIdx;
inline dim3 blockDim, gridDim;

// ---- device built-ins used by the examples -------------------------------------------------
template <class T>
inline T __ldg(const T *p) { return *p; }
inline int min(int a, int b) { return a < b ? a : b; }
inline int max(int a, int b) { return a > b ? a : b; }

namespace emu {
struct Coro {
  ucontext_t ctx;
  std::vector<char> stack;
  bool done = false;
  uint3 tid;
};
inline ucontext_t schedCtx;
inline std::vector<Coro> coros;
inline int current = -1;                 // running coroutine, -1: plain mode
inline std::function<void()> *body = nullptr;
inline std::vector<float> shfl;          // one slot per thread of the block

inline void barrier() {
  if (current < 0) {
    std::fprintf(stderr, "emu: a barrier in a kernel launched without coroutines (add it to run-emu.sh's list)\n");
    std::exit(3);
  }
  swapcontext(&coros[current].ctx, &schedCtx);
}
inline void trampoline() {
  (*body)();
  coros[current].done = true;
}  // returns to schedCtx through uc_link

/// Names of kernels that synchronise (set by run-emu.sh, -DEMU_SYNC=...).
inline bool needsCoroutines(const char *name) {
#ifdef EMU_SYNC
  const char *list = EMU_SYNC;
#else
  const char *list = "";
#endif
  size_t n = std::strlen(name);
  for (const char *p = std::strstr(list, name); p; p = std::strstr(p + 1, name))
    if ((p == list || p[-1] == ',') && (p[n] == ',' || p[n] == 0)) return true;
  return false;
}

template <class K, class... A>
void launch(dim3 g, dim3 b, const char *name, K kernel, A... args) {
  gridDim = g;
  blockDim = b;
  std::function<void()> f = [&] { kernel(args...); };
  body = &f;
  bool coro = needsCoroutines(name);
  size_t nthreads = size_t(b.x) * b.y * b.z;
  if (coro) {
    coros.assign(nthreads, Coro{});
    for (auto &c : coros) c.stack.resize(256 * 1024);
    shfl.assign(nthreads, 0.0f);
  }
  for (unsigned bz = 0; bz < g.z; ++bz)
    for (unsigned by = 0; by < g.y; ++by)
      for (unsigned bx = 0; bx < g.x; ++bx) {
        blockIdx = make_uint3(bx, by, bz);
        if (!coro) {
          for (unsigned tz = 0; tz < b.z; ++tz)
            for (unsigned ty = 0; ty < b.y; ++ty)
              for (unsigned tx = 0; tx < b.x; ++tx) {
                threadIdx = make_uint3(tx, ty, tz);
                f();
              }
          continue;
        }
        size_t i = 0;
        for (unsigned tz = 0; tz < b.z; ++tz)
          for (unsigned ty = 0; ty < b.y; ++ty)
            for (unsigned tx = 0; tx < b.x; ++tx, ++i) {
              Coro &c = coros[i];
              c.done = false;
              c.tid = make_uint3(tx, ty, tz);
              getcontext(&c.ctx);
              c.ctx.uc_stack.ss_sp = c.stack.data();
              c.ctx.uc_stack.ss_size = c.stack.size();
              c.ctx.uc_link = &schedCtx;
              makecontext(&c.ctx, trampoline, 0);
            }
        // Round robin: each pass runs every thread up to its next barrier.
        for (bool left = true; left;) {
          left = false;
          for (size_t t = 0; t < nthreads; ++t) {
            if (coros[t].done) continue;
            current = int(t);
            threadIdx = coros[t].tid;
            swapcontext(&schedCtx, &coros[t].ctx);
            left = left || !coros[t].done;
          }
        }
        current = -1;
      }
}
}  // namespace emu

inline void __syncthreads() { emu::barrier(); }
inline float __shfl_xor_sync(unsigned, float v, int laneMask) {
  size_t me = emu::current;
  emu::shfl[me] = v;
  emu::barrier();
  float r = emu::shfl[(me & ~size_t(31)) | ((me & 31) ^ size_t(laneMask))];
  emu::barrier();
  return r;
}

// ---- the runtime API used by the examples ------------------------------------------------
// vector_functions.h brought cuda_runtime_api.h: its declarations, our definitions.
struct CUevent_st {
  std::chrono::steady_clock::time_point t;
};
const char *cudaGetErrorString(cudaError_t) { return "emulated error"; }
cudaError_t cudaGetDeviceCount(int *n) { return *n = 1, cudaSuccess; }
cudaError_t cudaSetDevice(int) { return cudaSuccess; }
cudaError_t cudaDeviceGetAttribute(int *v, cudaDeviceAttr a, int) { return *v = a == cudaDevAttrL2CacheSize ? 1 << 20 : 2, cudaSuccess; }
cudaError_t cudaMalloc(void **p, size_t n) {
  *p = std::aligned_alloc(256, (n + 255) / 256 * 256);
  return cudaSuccess;
}
template <class T>
cudaError_t cudaMalloc(T **p, size_t n) { return cudaMalloc(reinterpret_cast<void **>(p), n); }
cudaError_t cudaFree(void *p) { return std::free(p), cudaSuccess; }
cudaError_t cudaMemcpy(void *d, const void *s, size_t n, cudaMemcpyKind) { return std::memmove(d, s, n), cudaSuccess; }
cudaError_t cudaMemcpyAsync(void *d, const void *s, size_t n, cudaMemcpyKind k, cudaStream_t) {
  return cudaMemcpy(d, s, n, k);
}
cudaError_t cudaMemset(void *d, int v, size_t n) { return std::memset(d, v, n), cudaSuccess; }
template <class T>
cudaError_t cudaMemcpyToSymbol(T &sym, const void *src, size_t n) { return std::memcpy(&sym, src, n), cudaSuccess; }
cudaError_t cudaDeviceSynchronize() { return cudaSuccess; }
cudaError_t cudaGetLastError() { return cudaSuccess; }
cudaError_t cudaEventCreate(cudaEvent_t *e) { return *e = new CUevent_st, cudaSuccess; }
cudaError_t cudaEventDestroy(cudaEvent_t e) { return delete e, cudaSuccess; }
cudaError_t cudaEventRecord(cudaEvent_t e, cudaStream_t) { return e->t = std::chrono::steady_clock::now(), cudaSuccess; }
cudaError_t cudaEventSynchronize(cudaEvent_t) { return cudaSuccess; }
cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t a, cudaEvent_t b) {
  return *ms = std::chrono::duration<float, std::milli>(b->t - a->t).count(), cudaSuccess;
}
