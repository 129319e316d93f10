"""RawKernel in the style of CuPy's: CUDA C++ source (NVRTC) or PTX, run
through ptx-opt and loaded by libptxopt, which picks a clone per launch
(docs/PYTHON.md, docs/RUNTIME.md)."""

import re
import struct

from . import _ptxopt

_PTX_VERSION = re.compile(r"^\s*\.version\s+\d+\.\d+", re.M)
_SCALAR = re.compile(r"^\.([subf])(8|16|32|64)$")


def _is_ptx(text):
    return bool(_PTX_VERSION.search(text)) and ".entry" in text


def _arch(arch):
    if arch is not None:
        return str(arch)
    major, minor = _ptxopt.compute_capability()
    return f"sm_{major}{minor}"


def compile_cuda(source, name, arch=None, options=()):
    """NVRTC: CUDA C++ source -> (PTX, the kernel's name in it, NVRTC's log).

    `name` is the kernel (extern "C") or a name expression ("k<float>");
    `arch` ("sm_90") defaults to the current device's; NVRTC itself needs no
    GPU. Raises ptxopt.Error with the compiler's log on failure."""
    ptx, log, lowered = _ptxopt.nvrtc_compile(source, name, _arch(arch), [str(o) for o in options],
                                              f"{name.split('<')[0] or 'kernel'}.cu")
    return ptx, lowered, log


def kernel_params(ptx, name):
    """The .entry's parameters: a list of (kind, bytes), kind 'u', 's', 'b'
    or 'f' for scalars and 'bytes' for .b8 arrays (structs by value)."""
    m = re.search(r"\.entry\s+" + re.escape(name) + r"\s*\(([^)]*)\)", ptx)
    if not m:
        if re.search(r"\.entry\s+" + re.escape(name) + r"\b", ptx):
            return []  # no parameter list
        names = ", ".join(re.findall(r"\.entry\s+([\w$]+)", ptx)) or "none"
        raise _ptxopt.Error(f"no kernel '{name}' in the PTX (.entry names: {names})")
    params = []
    for decl in m.group(1).split(","):
        tokens = decl.split()
        if not tokens:
            continue
        kind, size = None, 0
        for t in tokens:
            s = _SCALAR.match(t)
            if s and kind is None:
                kind, size = s.group(1), int(s.group(2)) // 8
        count = re.search(r"\[(\d+)\]\s*$", decl)
        if count:
            kind, size = "bytes", size * int(count.group(1))
        params.append((kind, size))
    return params


_INT_FORMAT = {1: "b", 2: "h", 4: "i", 8: "q"}
_FLOAT_FORMAT = {2: "e", 4: "f", 8: "d"}


def _pointer(a):
    """A device address from a DeviceArray or a __cuda_array_interface__ object, else None."""
    iface = getattr(a, "__cuda_array_interface__", None)
    if iface is not None:
        return int(iface["data"][0])
    return None


def _pack(i, a, kind, size):
    """One argument's bytes for a parameter of `kind` and `size` bytes."""
    where = f"argument {i} (a .{kind}{size * 8} parameter)" if kind != "bytes" else f"argument {i} ({size} bytes)"
    ptr = _pointer(a)
    if ptr is not None:
        if size != 8:
            raise TypeError(f"{where}: a device array needs a 64-bit parameter")
        return struct.pack("<Q", ptr)
    if isinstance(a, (bytes, bytearray, memoryview)):
        if len(a) != size:
            raise TypeError(f"{where}: {len(a)} bytes given")
        return bytes(a)
    dtype = getattr(a, "dtype", None)
    if dtype is not None and getattr(a, "shape", None) == ():  # a NumPy scalar: its type decides
        if a.nbytes != size:
            raise TypeError(f"{where}: {type(a).__name__} is {a.nbytes} bytes")
        if dtype.kind == "f" and kind in "su":
            raise TypeError(f"{where}: {type(a).__name__} given for an integer parameter")
        return a.tobytes()
    if dtype is not None:
        raise TypeError(f"{where}: a host array; pass ptxopt.to_device(arr) or a CUDA array")
    if kind == "f":
        if not isinstance(a, (int, float)):
            raise TypeError(f"{where}: {type(a).__name__}")
        return struct.pack("<" + _FLOAT_FORMAT[size], float(a))
    if isinstance(a, bool) or isinstance(a, int):
        fmt = _INT_FORMAT.get(size)
        if fmt is None:
            raise TypeError(f"{where}: an int cannot fill it")
        if kind != "s" and a >= 0:  # NVRTC and nvcc declare int parameters .u32: any sign fits
            fmt = fmt.upper()
        try:
            return struct.pack("<" + fmt, int(a))
        except struct.error as e:
            raise TypeError(f"{where}: {a} does not fit ({e})") from None
    raise TypeError(f"{where}: cannot pass a {type(a).__name__}")


def _dim3(d, what):
    if isinstance(d, int):
        d = (d,)
    d = tuple(int(x) for x in d)
    if not 1 <= len(d) <= 3:
        raise ValueError(f"{what}: 1 to 3 dimensions, got {len(d)}")
    return d + (1,) * (3 - len(d))


def _stream(stream):
    if stream is None:
        return 0
    if isinstance(stream, int):
        return stream
    for attr in ("ptr", "cuda_stream", "handle"):  # CuPy, PyTorch, cuda-python
        v = getattr(stream, attr, None)
        if isinstance(v, int):
            return v
    raise TypeError(f"stream: an int handle or an object with .ptr/.cuda_stream, not {type(stream).__name__}")


class RawKernel:
    """A kernel from CUDA C++ source or PTX, optimized by ptx-opt.

    RawKernel(code, name, options=(), passes="-O2", pass_options=None, arch=None)

    code: CUDA C++ source (compiled with NVRTC for `arch`, default the current
    device's) or PTX text. name: the kernel (extern "C", or a name expression
    for templates). options: NVRTC options, as CuPy's. passes: ptx-opt's
    pipeline ("-O2", "-O0", pass names); None loads the PTX as is, without
    ptx-opt (the baseline). pass_options: {"reassociate": True, ...}.

    kern(grid, block, args, shared_mem=0, stream=None) launches through
    libptxopt; kern.last_variant names the kernel that launch ran.
    Compilation happens at the first use of .ptx; loading at the first call.
    """

    def __init__(self, code, name, options=(), passes="-O2", pass_options=None, arch=None):
        if isinstance(code, bytes):
            code = code.decode()
        self.code, self.name, self.options = code, name, tuple(options)
        self.passes, self.pass_options, self.arch = passes, dict(pass_options or {}), arch
        self._ptx = code if _is_ptx(code) else None
        self._entry = name if self._ptx is not None else None
        self.log = ""
        self._module = self._kernel = self._params = None

    @property
    def ptx(self):
        """The PTX before ptx-opt (NVRTC's output, or the PTX given)."""
        if self._ptx is None:
            self._ptx, self._entry, self.log = compile_cuda(self.code, self.name, self.arch, self.options)
        return self._ptx

    @property
    def entry(self):
        """The kernel's .entry name in the PTX (mangled for C++ templates)."""
        self.ptx
        return self._entry

    def optimize(self):
        """(optimized PTX, remarks) as the load sees them; no GPU needed."""
        from . import optimize
        return optimize(self.ptx, self.passes or "-O0", self.pass_options, name=f"{self.name}.ptx")

    @property
    def remarks(self):
        return self.optimize()[1]

    def _load(self):
        if self._kernel is None:
            from . import _option_strings
            spec = ";".join([self.passes or "-O0"] +
                            [f"{k}={v}" for k, v in _option_strings(self.pass_options).items()])
            self._module = _ptxopt.Module(self.ptx, spec, self.passes is None, f"{self.name}.ptx")
            self._kernel = self._module.kernel(self._entry)
            self._params = kernel_params(self._ptx, self._entry)
        return self._kernel

    def __call__(self, grid, block, args, shared_mem=0, stream=None):
        k = self._load()
        args = tuple(args)
        if len(args) != len(self._params):
            raise TypeError(f"{self.name}: {len(self._params)} arguments expected, {len(args)} given")
        packed = [_pack(i, a, kind, size) for i, (a, (kind, size)) in enumerate(zip(args, self._params))]
        k.launch(_dim3(grid, "grid"), _dim3(block, "block"), int(shared_mem), _stream(stream), packed)

    @property
    def last_variant(self):
        """The kernel the calling thread's last launch ran: a clone's name or the original's."""
        return self._load().last_variant

    @property
    def last_variant_kind(self):
        return self._load().last_variant_kind

    @property
    def variant_count(self):
        """Clones the loaded kernel may run (0 without a manifest entry)."""
        return self._load().variant_count
