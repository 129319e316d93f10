#!/usr/bin/env python3
"""A naive row walk written as CuPy users write RawKernels, run through
ptx-opt: NVRTC compiles the source at run time, ptx-opt adds a clone that
reads the rows through shared memory (same summation order: bit-identical),
and libptxopt runs the clone when the launch allows it.

    PYTHONPATH=build/python python3 examples/python/rowwalk.py [n]
"""
import sys

import numpy as np
import ptxopt

SOURCE = r'''
extern "C" __global__ void rowwalk(const float *A, const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float s = 0.0f;
    for (int j = 0; j < n; j++) s += A[i * n + j] * x[j];
    y[i] = s;
  }
}
'''

n = int(sys.argv[1]) if len(sys.argv) > 1 else 4096
rng = np.random.default_rng(0)
A = rng.standard_normal((n, n), dtype=np.float32)
x = rng.standard_normal(n, dtype=np.float32)
dA, dx, dy = ptxopt.to_device(A), ptxopt.to_device(x), ptxopt.zeros(n, np.float32)


def run(kern):
    kern(((n + 255) // 256,), (256,), (dA, dx, dy, np.int32(n)))  # grid, block, args
    start, stop = ptxopt.Event(), ptxopt.Event()
    start.record()
    for _ in range(10):
        kern(((n + 255) // 256,), (256,), (dA, dx, dy, np.int32(n)))
    stop.record()
    stop.synchronize()
    return dy.get(), stop.elapsed_since(start) / 10


fast = ptxopt.RawKernel(SOURCE, "rowwalk")               # NVRTC -> ptx-opt -O2 -> libptxopt
plain = ptxopt.RawKernel(SOURCE, "rowwalk", passes=None)  # NVRTC's PTX as is
y_fast, t_fast = run(fast)
y_plain, t_plain = run(plain)
print(f"ran {fast.last_variant}: {t_fast:.3f} ms; the original {t_plain:.3f} ms: {t_plain / t_fast:.1f}x, "
      f"{'bit-identical' if y_fast.tobytes() == y_plain.tobytes() else 'DIFFERENT'}")
