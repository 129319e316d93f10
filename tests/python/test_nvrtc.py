#!/usr/bin/env python3
"""NVRTC through the ptxopt module, without a GPU (ctest python-nvrtc, label
python): the row walk and the column-major matrix add of kernels.py
compiled to PTX for sm_90, and what ptx-opt makes of that PTX (the clones
test_gpu.py runs). Exits 77 ("skipped: ...") where libnvrtc cannot be loaded.

    PYTHONPATH=build/python python3 tests/python/test_nvrtc.py
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import kernels  # noqa: E402
import ptxopt  # noqa: E402

ARCH = "sm_90"


def entries(ptx):
    return re.findall(r"\.entry\s+([\w$]+)", ptx)


PTXAS = shutil.which("ptxas") or os.path.join(os.environ.get("CUDA_HOME", "/usr/local/cuda"), "bin", "ptxas")


def ptxas(test, ptx):
    """ptxas accepts the optimized PTX (skipped where the toolkit has no ptxas)."""
    if not os.path.exists(PTXAS):
        test.skipTest("no ptxas")
    with tempfile.NamedTemporaryFile("w", suffix=".ptx") as f:
        f.write(ptx)
        f.flush()
        r = subprocess.run([PTXAS, f"-arch={ARCH}", f.name, "-o", os.devnull], capture_output=True, text=True)
    test.assertEqual(r.returncode, 0, r.stderr)


class Nvrtc(unittest.TestCase):
    def test_rowwalk(self):
        ptx, entry, log = ptxopt.compile_cuda(kernels.ROWWALK, "rowwalk", arch=ARCH)
        self.assertEqual(entry, "rowwalk")
        self.assertIn(".target sm_90", ptx)
        self.assertEqual(entries(ptx), ["rowwalk"])
        self.assertEqual(ptxopt.kernel_params(ptx, entry), [("u", 8), ("u", 8), ("u", 8), ("u", 4)])
        out, remarks = ptxopt.optimize(ptx, name="rowwalk.ptx")
        clones = [e for e in entries(out) if e != "rowwalk"]
        self.assertTrue(any("__ptxopt_staged" in c for c in clones), (clones, remarks))
        self.assertTrue(remarks)
        ptxas(self, out)

    def test_colmajor_add(self):
        ptx, entry, _ = ptxopt.compile_cuda(kernels.COLMAJOR_ADD, "matadd_colmajor", arch="compute_90")
        self.assertEqual(entry, "matadd_colmajor")
        out, remarks = ptxopt.optimize(ptx, name="matadd_colmajor.ptx")
        clones = [e for e in entries(out) if e != "matadd_colmajor"]
        self.assertTrue(clones, remarks)
        self.assertTrue(any("remark: [coalesce]" in r and "applied" in r for r in remarks), remarks)
        ptxas(self, out)

    def test_rawkernel_without_gpu(self):
        kern = ptxopt.RawKernel(kernels.ROWWALK, "rowwalk", arch=ARCH)
        self.assertIn(".entry rowwalk(", kern.ptx)
        self.assertEqual(kern.entry, "rowwalk")
        opt, remarks = kern.optimize()
        self.assertIn("rowwalk__ptxopt_", opt)
        baseline = ptxopt.RawKernel(kernels.ROWWALK, "rowwalk", arch=ARCH, passes=None)
        self.assertNotIn("__ptxopt_", baseline.optimize()[0])

    def test_template_name_expression(self):
        src = "template <class T> __global__ void scale(T *p, T a) { p[threadIdx.x] *= a; }"
        ptx, entry, _ = ptxopt.compile_cuda(src, "scale<float>", arch=ARCH)
        self.assertEqual(entry, "_Z5scaleIfEvPT_S0_")
        self.assertIn(entry, entries(ptx))

    def test_compile_error(self):
        with self.assertRaises(ptxopt.Error) as cm:
            ptxopt.compile_cuda('extern "C" __global__ void k() { undeclared = 1; }', "k", arch=ARCH)
        self.assertIn("undeclared", str(cm.exception))
        self.assertRegex(str(cm.exception), r"k\.cu\(\d+\): error")

    def test_bad_arch(self):
        with self.assertRaises(ValueError):
            ptxopt.compile_cuda(kernels.ROWWALK, "rowwalk", arch="volta")


if __name__ == "__main__":
    try:
        version = ptxopt.nvrtc_version()
    except ptxopt.Error as e:
        print(f"skipped: NVRTC cannot be loaded: {e}")
        sys.exit(77)
    print(f"NVRTC {version[0]}.{version[1]}")
    result = unittest.main(exit=False, verbosity=2).result
    sys.exit(0 if result.wasSuccessful() else 1)
