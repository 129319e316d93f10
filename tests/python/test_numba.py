#!/usr/bin/env python3
"""Numba's CUDA target as a PTX source for ptx-opt (ctest python-numba, label
python; no GPU needed): cuda.compile_ptx on a row-walk kernel, then
ptxopt.optimize on its PTX. Debian 12's python3-numba 0.56 cannot compile
for CUDA 13 (its NVVM IR 1.6 is refused by CUDA 13's libNVVM, IR 2.0;
docs/PYTHON.md, "Numba"): then this prints "skipped: " and the error, and
exits 77. A Numba whose CUDA target works passes it.

    PYTHONPATH=build/python python3 tests/python/test_numba.py
"""
import os
import sys

import ptxopt

try:
    import numba
    from numba import cuda, float32, int32
except ImportError as e:
    numba = None
    missing = e


def rowwalk(A, x, y, n):
    i = cuda.grid(1)
    if i < n:
        s = float32(0)
        for j in range(n):
            s += A[i * n + j] * x[j]
        y[i] = s


def main():
    if numba is None:
        print(f"skipped: numba not installed ({missing}); Debian: python3-numba")
        return 77
    print(f"numba {numba.__version__}, CUDA_HOME={os.environ.get('CUDA_HOME', '(unset)')}")
    sig = (float32[:], float32[:], float32[:], int32)
    try:
        ptx, _ = cuda.compile_ptx(rowwalk, sig, cc=(9, 0))
    except Exception as e:  # NvvmSupportError, NvvmError, ...
        lines = [l for l in str(e).splitlines() if l.strip()]
        print(f"skipped: numba {numba.__version__} cannot compile for this CUDA toolkit: "
              f"{type(e).__name__}: {' | '.join(lines[:4])}")
        return 77
    out, remarks = ptxopt.optimize(ptx, name="numba-rowwalk.ptx")
    print(f"numba's PTX: {len(ptx)} bytes; ptx-opt -O2: {out.count('.entry')} entries, {len(remarks)} remarks")
    for r in remarks[:10]:
        print("  " + r)
    return 0


if __name__ == "__main__":
    sys.exit(main())
