"""ptx-opt from Python (docs/PYTHON.md).

    import ptxopt
    ptx, remarks = ptxopt.optimize(open("k.ptx").read(), passes="-O2")

    kern = ptxopt.RawKernel(cuda_source, "rowwalk")        # NVRTC, then ptx-opt, then libptxopt
    A = ptxopt.to_device(numpy_array)
    kern((blocks,), (threads,), (A, x, y, np.int32(n)))
    print(kern.last_variant)                               # the clone (or original) that ran

optimize() and compile_cuda() need no GPU; RawKernel launches and
DeviceArray need a CUDA driver and device.
"""

from ._ptxopt import Error, Event, nvrtc_version, synchronize, device_count, compute_capability
from . import _ptxopt
from ._array import DeviceArray, to_device, empty, zeros
from ._kernel import RawKernel, compile_cuda, kernel_params

__all__ = ["optimize", "compile_cuda", "RawKernel", "DeviceArray", "to_device", "empty", "zeros", "Error",
           "Event", "synchronize", "device_count", "compute_capability", "nvrtc_version", "kernel_params"]


def _option_strings(options):
    """{"group-k": 4, "reassociate": True} -> {"group-k": "4", "reassociate": "1"}; False/None leave one out."""
    out = {}
    for key, value in (options or {}).items():
        key = str(key).lstrip("-")
        if value is None or value is False:
            continue
        out[key] = "1" if value is True else str(value)
    return out


def optimize(ptx, passes="-O2", options=None, name="<input>"):
    """Runs ptx-opt's pipeline on PTX text in-process; no GPU needed.

    passes: "-O0", "-O1", "-O2" or comma-separated pass names ("coalesce,pack").
    options: pass options as ptx-opt's long options without "--", e.g.
    {"group-k": 4, "reassociate": True} (docs/PASSES.md).
    Returns (optimized PTX, remarks), the remarks as `ptx-opt --remarks`
    prints them. A PTX it cannot parse raises ptxopt.Error with
    "name:line:col: error: ...".
    """
    if isinstance(ptx, bytes):
        ptx = ptx.decode()
    return _ptxopt.optimize(ptx, passes, _option_strings(options), name)
