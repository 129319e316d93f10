"""DeviceArray: a small device buffer made from a NumPy array (docs/PYTHON.md).

It exposes __cuda_array_interface__ (version 3), so CuPy, Numba and PyTorch
can view it, and RawKernel accepts it, or any object exposing that interface,
as a pointer argument. Memory comes from cudaMalloc in the extension and is
freed when the array is collected.
"""

from . import _ptxopt


def _np():
    import numpy  # imported on use: optimize() and NVRTC need no NumPy
    return numpy


class DeviceArray:
    """C-contiguous device memory of a shape and a NumPy dtype."""

    def __init__(self, shape, dtype):
        np = _np()
        self.shape = tuple(int(s) for s in (shape if isinstance(shape, (tuple, list)) else (shape,)))
        self.dtype = np.dtype(dtype)
        self.size = int(np.prod(self.shape, dtype=np.int64)) if self.shape else 1
        self.nbytes = self.size * self.dtype.itemsize
        self.ptr = _ptxopt.mem_alloc(self.nbytes)

    def __del__(self):
        ptr, self.ptr = getattr(self, "ptr", 0), 0
        if ptr and _ptxopt is not None:
            try:
                _ptxopt.mem_free(ptr)
            except Exception:  # at interpreter exit the context may be gone
                pass

    @property
    def __cuda_array_interface__(self):
        return {"shape": self.shape, "typestr": self.dtype.str, "data": (self.ptr, False), "strides": None,
                "version": 3}

    def set(self, arr):
        """Copies a NumPy array of the same size and dtype to the device."""
        np = _np()
        arr = np.ascontiguousarray(arr, dtype=self.dtype)
        if arr.nbytes != self.nbytes:
            raise ValueError(f"set: {arr.nbytes} bytes into a DeviceArray of {self.nbytes}")
        _ptxopt.memcpy_htod(self.ptr, arr)

    def get(self):
        """A NumPy copy (synchronous: waits for the work before it)."""
        out = _np().empty(self.shape, self.dtype)
        _ptxopt.memcpy_dtoh(out, self.ptr)
        return out

    def fill_zero(self):
        _ptxopt.memset(self.ptr, 0, self.nbytes)

    def __len__(self):
        return self.shape[0] if self.shape else 1

    def __repr__(self):
        return f"DeviceArray(shape={self.shape}, dtype={self.dtype}, ptr=0x{self.ptr:x})"


def empty(shape, dtype="float32"):
    return DeviceArray(shape, dtype)


def zeros(shape, dtype="float32"):
    a = DeviceArray(shape, dtype)
    a.fill_zero()
    return a


def to_device(arr):
    """A DeviceArray holding a copy of the NumPy array `arr`."""
    np = _np()
    arr = np.ascontiguousarray(arr)
    d = DeviceArray(arr.shape, arr.dtype)
    _ptxopt.memcpy_htod(d.ptr, arr)
    return d
