#!/usr/bin/env python3
"""RawKernel's launch path without a GPU (ctest python-fake, label python):
libptxopt over the fake driver of the runtime's unit tests
(tests/gpu/fake, PTXOPT_LIBCUDA), which records launches instead of running
them. NVRTC's PTX of tests/python/kernels.py goes through ptx-opt and
libptxopt; the test checks the variant each launch chose, the grid and block
the driver was given, and the argument bytes it received. Device pointers
are plain ints in distinct (fake) allocations. Exits 77 ("skipped: ...")
without NVRTC or the fake driver.

    PTXOPT_LIBCUDA=build/tests/libptxopt_fake_cuda.so PYTHONPATH=build/python python3 tests/python/test_fake.py
"""
import ctypes
import os
import struct
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import kernels  # noqa: E402
import ptxopt  # noqa: E402

FAKE = os.environ.get("PTXOPT_LIBCUDA", "")
A, X, Y = 0x7F0100000000, 0x7F0200000000, 0x7F0300000000  # 3 allocations in the fake's address space


class Fake(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.lib = ctypes.CDLL(FAKE)  # the same library libptxopt opens: its records
        cls.lib.fake_cuda_launch.restype = ctypes.c_char_p
        cls.lib.fake_cuda_launch_arg.restype = ctypes.c_uint32

    def setUp(self):
        self.lib.fake_cuda_reset()

    def last_launch(self):
        dims = (ctypes.c_uint * 7)()
        n = self.lib.fake_cuda_launch_count()
        self.assertGreater(n, 0)
        return self.lib.fake_cuda_launch(n - 1, dims).decode(), tuple(dims)

    def test_rowwalk_runs_the_staged_clone(self):
        kern = ptxopt.RawKernel(kernels.ROWWALK, "rowwalk", arch="sm_90")
        self.lib.fake_cuda_set_param_count(b"rowwalk__ptxopt_staged_pack", 4)
        kern((16,), (256,), (A, X, Y, 4096))
        self.assertEqual(kern.last_variant, "rowwalk__ptxopt_staged_pack")
        self.assertEqual(kern.last_variant_kind, "staged+pack")
        name, dims = self.last_launch()
        self.assertEqual(name, "rowwalk__ptxopt_staged_pack")
        self.assertEqual(dims[:6], (8, 16, 1, 32, 1, 1))  # grid (block.x/32, grid.x), block 32
        self.assertEqual([self.lib.fake_cuda_launch_arg(0, j) for j in range(4)],
                         [A & 0xFFFFFFFF, X & 0xFFFFFFFF, Y & 0xFFFFFFFF, 4096])
        self.assertGreaterEqual(kern.variant_count, 2)

    def test_short_rows_run_no_staged_clone(self):
        kern = ptxopt.RawKernel(kernels.ROWWALK, "rowwalk", arch="sm_90")
        kern((1,), (128,), (A, X, Y, 128))  # rows under the staged clones' minimum of 256
        self.assertEqual(kern.last_variant, "rowwalk__ptxopt_pack")  # no minimum; aligned pointers
        kern((1,), (128,), (A + 4, X, Y, 128))  # A not 16-byte aligned: the pack clone's condition fails
        self.assertEqual(kern.last_variant, "rowwalk")
        self.assertEqual(self.last_launch()[0], "rowwalk")

    def test_without_ptxopt(self):
        kern = ptxopt.RawKernel(kernels.ROWWALK, "rowwalk", arch="sm_90", passes=None)
        kern(16, 256, (A, X, Y, 4096))
        self.assertEqual(kern.last_variant, "rowwalk")
        self.assertEqual(kern.variant_count, 0)

    def test_colmajor_add(self):
        kern = ptxopt.RawKernel(kernels.COLMAJOR_ADD, "matadd_colmajor", arch="sm_90")
        kern((512, 512), (16, 16), (A, X, Y, 8192))
        self.assertEqual(kern.last_variant, "matadd_colmajor__ptxopt_swap_group4")
        self.assertEqual(self.last_launch(), ("matadd_colmajor__ptxopt_swap_group4", (512, 512, 1, 4, 16, 1, 0)))

    def test_ptx_given_and_int_args(self):
        ptx, entry, _ = ptxopt.compile_cuda(kernels.COLMAJOR_ADD, "matadd_colmajor", arch="sm_90")
        kern = ptxopt.RawKernel(ptx, entry)
        self.lib.fake_cuda_set_param_count(b"matadd_colmajor__ptxopt_swap", 4)
        kern((1, 1), (16, 16), (A, X, Y, -5))  # too small for the group clone (2^19 threads); a negative int
        self.assertEqual(kern.last_variant, "matadd_colmajor__ptxopt_swap")
        self.assertEqual(self.lib.fake_cuda_launch_arg(0, 3), struct.unpack("<I", struct.pack("<i", -5))[0])
        with self.assertRaises(TypeError):
            kern((1, 1), (16, 16), (A, X, Y))  # 3 of 4 arguments

    def test_launch_error_is_raised(self):
        kern = ptxopt.RawKernel(kernels.ROWWALK, "rowwalk", arch="sm_90", passes=None)
        with self.assertRaises(ptxopt.Error) as cm:
            kern(16, 2048, (A, X, Y, 4096))  # more threads per block than the device has
        self.assertIn("cuLaunchKernel", str(cm.exception))


if __name__ == "__main__":
    if not FAKE or not os.path.exists(FAKE):
        print("skipped: PTXOPT_LIBCUDA does not name the fake driver (build/tests/libptxopt_fake_cuda.so)")
        sys.exit(77)
    try:
        ptxopt.nvrtc_version()
    except ptxopt.Error as e:
        print(f"skipped: NVRTC cannot be loaded: {e}")
        sys.exit(77)
    result = unittest.main(exit=False, verbosity=2).result
    sys.exit(0 if result.wasSuccessful() else 1)
