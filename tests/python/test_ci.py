#!/usr/bin/env python3
"""The ptxopt module without a GPU (ctest python-ci, label python): import,
optimize() on examples/matadd, errors with file:line:col, pass options,
kernel parameter parsing and argument packing, and, where no device is
present, that device calls raise ptxopt.Error instead of crashing.

    PYTHONPATH=build/python python3 tests/python/test_ci.py
"""
import os
import re
import sys
import unittest

ROOT = os.environ.get("PTXOPT_SOURCE_DIR") or os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MATADD = os.path.join(ROOT, "examples", "matadd", "matadd.ptx")

import ptxopt  # noqa: E402  (PYTHONPATH=build/python)
from ptxopt import _kernel  # noqa: E402


class Optimize(unittest.TestCase):
    def setUp(self):
        with open(MATADD) as f:
            self.ptx = f.read()

    def test_clones_and_remarks(self):
        out, remarks = ptxopt.optimize(self.ptx, name="matadd.ptx")
        self.assertIn(".entry _Z10matadd_intPKiS0_Pi(", out)  # the original stays
        clones = set(re.findall(r"\.entry\s+(\w+__ptxopt_\w+)", out))
        self.assertIn("_Z10matadd_intPKiS0_Pi__ptxopt_remap", clones)
        self.assertIn("// @ptxopt-manifest", out)
        self.assertTrue(remarks)
        self.assertTrue(any("remark: [coalesce]" in r and "applied" in r for r in remarks), remarks[:5])

    def test_O0_is_the_input(self):
        out, remarks = ptxopt.optimize(self.ptx, passes="-O0")
        self.assertNotIn("__ptxopt_", out)
        self.assertEqual(remarks, [])

    def test_bytes_and_pass_list(self):
        out, _ = ptxopt.optimize(self.ptx.encode(), passes="coalesce")
        self.assertIn("__ptxopt_", out)

    def test_parse_error_has_file_line_col(self):
        broken = self.ptx.replace("ret;", "ret ]", 1)
        with self.assertRaises(ptxopt.Error) as cm:
            ptxopt.optimize(broken, name="broken.ptx")
        self.assertRegex(str(cm.exception), r"^broken\.ptx:\d+:6: error: unexpected ']'")
        self.assertIsInstance(cm.exception, RuntimeError)

    def test_unknown_pass(self):
        with self.assertRaises(ptxopt.Error) as cm:
            ptxopt.optimize(self.ptx, passes="no-such-pass")
        self.assertIn("no-such-pass", str(cm.exception))

    def test_options(self):
        self.assertEqual(ptxopt._option_strings({"--group-k": 4, "reassociate": True, "x": False}),
                         {"group-k": "4", "reassociate": "1"})
        out, _ = ptxopt.optimize(self.ptx, options={"group-k": 8})
        self.assertIn("__ptxopt_", out)


class Arguments(unittest.TestCase):
    PTX = """
.version 9.0
.target sm_90
.address_size 64
.visible .entry k(
	.param .u64 k_param_0,
	.param .u32 k_param_1,
	.param .f32 k_param_2,
	.param .align 8 .b8 k_param_3[16]
)
{
	ret;
}
"""

    def test_params(self):
        self.assertEqual(ptxopt.kernel_params(self.PTX, "k"), [("u", 8), ("u", 4), ("f", 4), ("bytes", 16)])
        with self.assertRaises(ptxopt.Error):
            ptxopt.kernel_params(self.PTX, "other")

    def test_pack(self):
        import struct

        class Fake:
            __cuda_array_interface__ = {"data": (0x1234, False), "shape": (1,), "typestr": "<f4", "version": 3}

        self.assertEqual(_kernel._pack(0, Fake(), "u", 8), struct.pack("<Q", 0x1234))
        self.assertEqual(_kernel._pack(1, -1, "u", 4), struct.pack("<i", -1))
        self.assertEqual(_kernel._pack(1, 7, "u", 4), struct.pack("<I", 7))
        self.assertEqual(_kernel._pack(2, 2.5, "f", 4), struct.pack("<f", 2.5))
        self.assertEqual(_kernel._pack(3, bytes(16), "bytes", 16), bytes(16))
        with self.assertRaises(TypeError):
            _kernel._pack(1, 1.5, "u", 4)  # a float for an int
        with self.assertRaises(TypeError):
            _kernel._pack(0, Fake(), "u", 4)  # a pointer needs 64 bits

    def test_pack_numpy(self):
        try:
            import numpy as np
        except ImportError:
            self.skipTest("numpy not installed")
        self.assertEqual(_kernel._pack(1, np.int32(-3), "u", 4), np.int32(-3).tobytes())
        self.assertEqual(_kernel._pack(2, np.float32(0.5), "f", 4), np.float32(0.5).tobytes())
        with self.assertRaises(TypeError):
            _kernel._pack(2, np.float64(0.5), "f", 4)  # 8 bytes for a .f32
        with self.assertRaises(TypeError):
            _kernel._pack(0, np.zeros(4, np.float32), "u", 8)  # a host array

    def test_dims(self):
        self.assertEqual(_kernel._dim3(5, "grid"), (5, 1, 1))
        self.assertEqual(_kernel._dim3((2, 3), "grid"), (2, 3, 1))
        with self.assertRaises(ValueError):
            _kernel._dim3((1, 1, 1, 1), "grid")


@unittest.skipIf(ptxopt.device_count() > 0, "a device is present (tests/python/test_gpu.py covers it)")
class NoDevice(unittest.TestCase):
    def test_device_calls_raise(self):
        with self.assertRaises(ptxopt.Error) as cm:
            ptxopt._ptxopt.mem_alloc(16)
        self.assertIn("cudaMalloc", str(cm.exception))
        kern = ptxopt.RawKernel(Arguments.PTX, "k")
        with self.assertRaises(ptxopt.Error):
            kern(1, 1, (0, 0, 0.0, bytes(16)))


if __name__ == "__main__":
    result = unittest.main(exit=False, verbosity=2).result
    sys.exit(0 if result.wasSuccessful() else 1)
