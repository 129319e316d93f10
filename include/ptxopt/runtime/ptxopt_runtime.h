/* libptxopt: the JIT loader and launch shim of ptx-opt (C API, C11 or C++).
 *
 * An application loads PTX through it: the optimizer runs in-process and adds
 * optimized clones of kernels beside the originals, and ptxopt_launch picks,
 * for every launch, the first clone whose conditions hold (grid and block
 * shape, pointer alignment, dynamic shared memory, device limits) and the
 * original otherwise. The caller always names the ORIGINAL kernel and makes
 * the ORIGINAL launch; the library transforms it for a clone.
 *
 * The CUDA driver (libcuda.so.1) is loaded with dlopen on first use; nothing
 * links against it, and without it every call fails with
 * PTXOPT_ERROR_NO_DRIVER and a message. Modules are loaded into the calling
 * thread's current context; when none is current, the primary context of
 * device PTXOPT_DEVICE (default 0) is made current, as the CUDA runtime does.
 *
 * Every function is thread-safe; launches from several threads may use the
 * same kernel handle. Errors: a status code, and ptxopt_last_error() gives
 * the calling thread's last error text. Details: docs/RUNTIME.md.
 */
#ifndef PTXOPT_RUNTIME_H
#define PTXOPT_RUNTIME_H

#include <stddef.h>

#if defined(__GNUC__)
#define PTXOPT_API __attribute__((visibility("default")))
#else
#define PTXOPT_API
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* The Driver API's stream handle; identical to cuda.h's (and cudaStream_t). */
#ifndef __cuda_cuda_h__
typedef struct CUstream_st *CUstream;
#endif

typedef struct ptxopt_module_st *ptxopt_module;
typedef struct ptxopt_kernel_st *ptxopt_kernel;

typedef enum ptxopt_status {
  PTXOPT_SUCCESS = 0,
  PTXOPT_ERROR_INVALID_VALUE = 1, /* a null handle or pointer, a zero dimension, a bad pass option */
  PTXOPT_ERROR_NO_DRIVER = 2,     /* libcuda.so.1 missing, too old, or cuInit failed */
  PTXOPT_ERROR_CUDA = 3,          /* a Driver API call failed; see ptxopt_last_error() */
  PTXOPT_ERROR_NOT_FOUND = 4,     /* no kernel of that name in the module */
  PTXOPT_ERROR_IO = 5             /* the file could not be read */
} ptxopt_status;

/* Options of a load; a null pointer or a zeroed struct means the defaults. */
typedef struct ptxopt_options {
  const char *passes; /* pipeline for the optimizer: "-O2" when null; "-O0" for none; pass
                         options after semicolons: "-O2;group-k=4;group-gathers", "-O2;reassociate"
                         (`ptx-opt --print-options` lists them); an unknown option or an ill-typed
                         value makes the load fail with PTXOPT_ERROR_INVALID_VALUE */
  int disable;        /* nonzero: no optimization, and launches run the originals */
  const char *name;   /* module name in messages; null: the file name or "<memory>" */
} ptxopt_options;

/* Optimizes PTX text (len bytes; need not be NUL-terminated) in-process and
 * loads it. On an optimizer error, or when the driver rejects the optimized
 * PTX, the original PTX is loaded instead, with a warning on stderr. */
PTXOPT_API ptxopt_status ptxopt_module_load_ptx(ptxopt_module *mod, const char *ptx, size_t len,
                                                const ptxopt_options *opts);

/* Reads a PTX file and loads it as ptxopt_module_load_ptx does. */
PTXOPT_API ptxopt_status ptxopt_module_load_file(ptxopt_module *mod, const char *path, const ptxopt_options *opts);

/* Loads a cubin, a fatbin or NUL-terminated PTX text as is (no optimization).
 * The manifest is the `// @ptxopt-manifest` line of PTX text, else the
 * per-kernel `__ptxopt_manifest_<kernel>` globals; without one, launches run
 * the originals. */
PTXOPT_API ptxopt_status ptxopt_module_load_image(ptxopt_module *mod, const void *image,
                                                  const ptxopt_options *opts);

/* Unloads the module; its kernel handles become invalid. Null is a no-op. */
PTXOPT_API ptxopt_status ptxopt_module_unload(ptxopt_module mod);

/* The kernel of the ORIGINAL name (the .entry name, mangled for C++). The
 * handle belongs to the module; asking twice gives the same handle. */
PTXOPT_API ptxopt_status ptxopt_module_get_kernel(ptxopt_kernel *k, ptxopt_module mod, const char *name);

/* Launches k like cuLaunchKernel: params[i] points to argument i. The launch
 * runs the selected clone (with its transformed grid and block) or the
 * original; exactly one kernel runs per call. */
PTXOPT_API ptxopt_status ptxopt_launch(ptxopt_kernel k, unsigned gridX, unsigned gridY, unsigned gridZ,
                                       unsigned blockX, unsigned blockY, unsigned blockZ, unsigned sharedBytes,
                                       CUstream stream, void **params);

/* Name of the kernel that the calling thread's last launch of k ran: a
 * clone's name or the original's (also before the first launch). */
PTXOPT_API const char *ptxopt_kernel_last_variant(ptxopt_kernel k);

/* Kind of that kernel: the manifest's kind ("remap", "swap", "group", ...)
 * or "original". */
PTXOPT_API const char *ptxopt_kernel_last_variant_kind(ptxopt_kernel k);

/* Number of clones k may run (0 when it has no usable manifest entry). */
PTXOPT_API int ptxopt_kernel_variant_count(ptxopt_kernel k);

/* The calling thread's last error: "<call>: <CUDA error name>: <text>" for
 * driver errors (e.g. "cuModuleLoadDataEx: CUDA_ERROR_INVALID_PTX: ..."),
 * a sentence otherwise; "" when none. Valid until the thread's next call. */
PTXOPT_API const char *ptxopt_last_error(void);

/* The CUresult of the calling thread's last failed driver call (0 if none). */
PTXOPT_API int ptxopt_last_cuda_result(void);

/* "PTXOPT_ERROR_CUDA" for PTXOPT_ERROR_CUDA, and so on. */
PTXOPT_API const char *ptxopt_status_name(ptxopt_status s);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* PTXOPT_RUNTIME_H */
