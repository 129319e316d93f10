"""ptx-nvcc's driver (docs/NVCC.md); tools/ptx-nvcc imports it, so that
python3 keeps its compiled form in __pycache__ and a compile does not pay
for compiling this file (about 3 ms)."""
HELP = """ptx-nvcc: nvcc with ptx-opt between cicc and ptxas (docs/NVCC.md).

    ptx-nvcc [--ptxopt-...] <any nvcc arguments>

Runs the toolkit's own nvcc through a private directory holding a symlink to
nvcc and a private nvcc.profile whose CICC_PATH names ptx-nvcc-cicc (built
next to ptx-opt; invoked as `cicc`, `ptxas` and `fatbinary`). After
the real cicc wrote a .ptx, ptx-opt runs on it; each kernel's clones are
compiled into a device image of their own (the program's own image stays
nvcc's), registered with cudart at start-up as nvcc's own image is, so that
the driver loads them as it loads nvcc's code (CUDA_MODULE_LOADING: EAGER at
start-up; LAZY, CUDA's default, when a clone is first launched, which the
shim allows once the clones' estimated savings pay for that load). The
translation unit's host stub (*.cudafe1.stub.c) gets a hook block that sends
its launches through libptxopt_nvcc (runtime/NvccShim.cpp). Links get that
library. Anything going wrong in ptx-opt or the hook falls back to nvcc's own
result, with one warning.

Own flags (never passed to nvcc; also read from PTXOPT_NVCC_FLAGS):
  --ptxopt-passes=LIST     ptx-opt pipeline (default: -O2); e.g. coalesce, or -O1
                           for a lighter build (fewer clones for ptxas)
  --ptxopt-<option>[=V]    a ptx-opt pass option, each one `ptx-opt
                           --print-options` lists (docs/PASSES.md), checked
                           before nvcc runs: e.g. --ptxopt-group-k=4,
                           --ptxopt-reassociate (let rowwalk reassociate
                           floating-point sums; results may differ in the
                           last bits; --use_fast_math does not imply it)
  --ptxopt-remarks         ptx-opt remarks on stderr
  --ptxopt-remarks=FILE    ptx-opt remarks appended to FILE
  --ptxopt-report=DIR      write the ptx-opt --analyze=html page of every PTX
                           (before optimization; remarks of the pipeline) to
                           DIR, and DIR/index.html listing them with counts
  --ptxopt-debug-builds    also optimize -G (device debug) code
  --ptxopt-bin=PATH        the ptx-opt executable
  --ptxopt-lib=PATH        the shim archive (libptxopt_nvcc.a)
  --ptxopt-no-link-shim    do not add the shim to links
  --ptxopt-no-clone-images the clones in the translation unit's own device
                           image (its load under lazy loading then grows
                           with them in every program; docs/NVCC.md,
                           "Delivery") instead of an image of their own per
                           kernel (--ptxopt-clone-images, the default)
  --ptxopt-ptxas-threads=N ptxas compiles functions on N threads (default
                           with --ptxopt-no-clone-images: the cores, at most
                           4; 0 or 1: off; never when the arguments set
                           split-compile themselves)
  --ptxopt-verbose         say what is done, keep the private directory
  --ptxopt-build-key       print the key of what decides ptx-nvcc's outputs
                           (ptx-opt, the shim, flags; for ccache's
                           compiler_check; docs/NVCC.md, "Build tools")
  --ptxopt-help            this text
Environment: PTXOPT_DISABLE=1 (plain nvcc), PTXOPT_BUILD (build dir with
ptx-opt, ptx-nvcc-cicc and runtime/libptxopt_nvcc.a), PTXOPT_NVCC (the real nvcc), CUDA_HOME,
PTXOPT_PYTHON (the python3 to run this script with).
"""
# Only os and sys at start-up: this runs for every compile; the other modules
# are imported where needed. The cicc step is src/driver/nvcc_cicc.cpp.
import os
import sys

import ptx_nvcc_cache

ME = os.path.realpath(sys.argv[0])  # the ptx-nvcc launcher (tools/ptx-nvcc)
ROOT = os.path.dirname(os.path.dirname(ME))
HOOK_SYMBOL = "__ptxopt_nvcc_launch"
# The cudart launch APIs the shim wraps (runtime/NvccWrap.cpp, docs/NVCC.md
# "Launch paths"): GNU ld's --wrap on every link that gets the shim (the
# same list in runtime/cmake/PtxOptNvccConfig.cmake).
# With them cudart's allocation calls (runtime/NvccPreload.cpp): after the
# first, under lazy loading, the clone images are loaded, outside the run.
WRAPPED = ("cudaLaunchKernel", "cudaLaunchKernel_ptsz", "cudaLaunchKernelExC", "cudaLaunchKernelExC_ptsz",
           "cudaLaunchCooperativeKernel", "cudaLaunchCooperativeKernel_ptsz",
           "cudaGetKernel", "cudaGraphAddKernelNode", "cudaGraphKernelNodeSetParams", "cudaGraphExecKernelNodeSetParams",
           "cudaGraphKernelNodeGetParams", "cudaGraphAddNode", "cudaGraphNodeSetParams", "cudaGraphExecNodeSetParams",
           "cudaGraphKernelNodeSetAttribute", "cudaGraphDestroyNode", "cudaGraphDestroy",
           "cudaStreamBeginCapture", "cudaStreamBeginCapture_ptsz", "cudaStreamBeginCaptureToGraph",
           "cudaStreamBeginCaptureToGraph_ptsz", "cudaStreamEndCapture", "cudaStreamEndCapture_ptsz",
           "cudaMalloc", "cudaMallocManaged", "cudaMallocPitch", "cudaMalloc3D", "cudaMallocHost", "cudaHostAlloc",
           "cudaFree")


def wrap_flags():
    """nvcc's arguments that route the program's launch API calls to the shim."""
    flags = []
    for name in WRAPPED:
        flags += ["-Xlinker", "--wrap=" + name]
    return flags


def spawn(cmd, env=None, out=None, err=None):
    """Runs cmd (cmd[0] an absolute path) with stdout/stderr redirected to the
    files out/err (None: inherited). Returns the exit status (128 + signal
    for a killed process, 127 when it cannot be started)."""
    env = os.environ if env is None else env
    if hasattr(os, "posix_spawn"):
        fa = []
        for fd, path in ((1, out), (2, err)):
            if path:
                fa.append((os.POSIX_SPAWN_OPEN, fd, path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644))
        try:
            pid = os.posix_spawn(cmd[0], cmd, env, file_actions=fa)
        except OSError as e:
            if err:
                with open(err, "w") as f:
                    f.write("%s: %s\n" % (cmd[0], e))
            return 127
        while True:
            try:
                _, st = os.waitpid(pid, 0)
                break
            except InterruptedError:
                continue
    else:  # Python < 3.8
        import subprocess
        fo = open(out, "wb") if out else None
        fe = open(err, "wb") if err else None
        try:
            return subprocess.call(cmd, env=env, stdout=fo, stderr=fe)
        except OSError:
            return 127
        finally:
            for f in (fo, fe):
                if f:
                    f.close()
    if os.WIFEXITED(st):
        return os.WEXITSTATUS(st)
    return 128 + os.WTERMSIG(st) if os.WIFSIGNALED(st) else 1


def make_temp_dir():
    base = os.environ.get("TMPDIR") or "/tmp"
    for i in range(1000):
        d = os.path.join(base, "ptx-nvcc.%d.%d" % (os.getpid(), i))
        try:
            os.mkdir(d, 0o700)
            return d
        except FileExistsError:
            continue
    raise OSError("cannot create a directory in %s" % base)


def remove_tree(top):
    for root, dirs, files in os.walk(top, topdown=False):
        for n in files:
            try:
                os.unlink(os.path.join(root, n))
            except OSError:
                pass
        for n in dirs:
            p = os.path.join(root, n)
            try:
                os.unlink(p) if os.path.islink(p) else os.rmdir(p)
            except OSError:
                pass
    try:
        os.rmdir(top)
    except OSError:
        pass


def split_flags(text):
    if not text.strip():
        return []
    import shlex
    try:
        return shlex.split(text)
    except ValueError:
        return text.split()


def warn(msg):
    sys.stderr.write("ptx-nvcc: warning: %s\n" % msg)
    sys.stderr.flush()


def fatal(msg, code=1):
    sys.stderr.write("ptx-nvcc: error: %s\n" % msg)
    sys.exit(code)


# ---------------------------------------------------------------------------
# The driver: ptx-nvcc <nvcc arguments>
# ---------------------------------------------------------------------------

NO_LINK = {"-c", "--compile", "-dc", "--device-c", "-dw", "--device-w", "-ptx", "--ptx", "-cubin", "--cubin",
           "-fatbin", "--fatbin", "-E", "--preprocess", "-M", "--generate-dependencies", "-MM",
           "--generate-nonsystem-dependencies", "-cuda", "--cuda", "-lib", "--lib", "-dlink", "--device-link",
           "-optix-ir", "--optix-ir", "-ltoir", "--ltoir", "-V", "--version", "-h", "--help",
           "--list-gpu-arch", "-arch-ls", "--list-gpu-code", "-code-ls", "-lto", "-dlto", "--dlink-time-opt"}


def read_options_file(path):
    try:
        with open(path) as f:
            return split_flags(f.read())
    except OSError:
        return []


def expand(args):
    """nvcc's view of its arguments, response files expanded (for mode
    detection only; nvcc itself gets the original arguments)."""
    out = []
    i = 0
    while i < len(args):
        a = args[i]
        if a in ("--options-file", "-optf") and i + 1 < len(args):
            for p in args[i + 1].split(","):
                out += expand(read_options_file(p))
            i += 2
            continue
        if a.startswith("--options-file=") or a.startswith("-optf="):
            for p in a.split("=", 1)[1].split(","):
                out += expand(read_options_file(p))
        elif a.startswith("@") and len(a) > 1:
            out += expand(read_options_file(a[1:]))
        else:
            out.append(a)
        i += 1
    return out


VALUE_FLAGS = ("-o", "--output-file", "-ccbin", "--compiler-bindir", "-Xcompiler", "-Xlinker", "-Xptxas",
               "-Xnvlink", "-Xfatbin", "-Xarchive", "-I", "-L", "-l", "-D", "-U", "-x", "-include",
               "-odir", "--output-directory", "-keep-dir", "--keep-dir", "-arch", "-code", "-gencode",
               "-std", "-rdc", "-cudart", "--cudart", "-maxrregcount", "-t", "--threads", "-isystem",
               "-MF", "-MT", "-default-stream", "-Werror", "-diag-suppress", "-ldir", "-optf")


def effective(args):
    return expand(split_flags(os.environ.get("NVCC_PREPEND_FLAGS", "")) + args +
                  split_flags(os.environ.get("NVCC_APPEND_FLAGS", "")))


def inputs_and_output(eff):
    """The input files of nvcc's arguments and its -o (None without)."""
    inputs, out = [], None
    i = 0
    while i < len(eff):
        a = eff[i]
        if a in VALUE_FLAGS:
            if a in ("-o", "--output-file") and i + 1 < len(eff):
                out = eff[i + 1]
            i += 2
            continue
        if a.startswith(("-o=", "--output-file=")):
            out = a.split("=", 1)[1]
        elif not a.startswith("-"):
            inputs.append(a)
        i += 1
    return inputs, out


def links(args, eff=None):
    eff = effective(args) if eff is None else eff
    for a in eff:
        if a in NO_LINK or a.split("=", 1)[0] in ("--dlink-time-opt",):
            return False
    return len(inputs_and_output([a for a in eff if not (a.startswith("--run") or a == "-run")])[0]) > 0


COMPILE_ONLY = ("-c", "--compile", "-dc", "--device-c")


def late_images(args):
    """Where the clone images (--ptxopt-clone-images) can be compiled beside
    nvcc's later steps and added to the build afterwards (late images,
    docs/NVCC.md "Clone images"): the object of a `-c` compile of one .cu
    (`ld -r` into it after nvcc), or None: the host code includes them
    (links, another host compiler or output folder, LTO, archives, several
    sources). Links never get a file of this compile's temporary folder:
    CMake records what a compiler's test link names (issue #32)."""
    eff = effective(args)
    if os.environ.get("NVCC_CCBIN"):
        return None
    for a in eff:
        if a.split("=", 1)[0] in ("-ccbin", "--compiler-bindir", "-odir", "--output-directory") or \
                (a.startswith("-") and "lto" in a):
            return None
    if links(args, eff):
        return None
    if not any(a in COMPILE_ONLY for a in eff) or any(a in NO_LINK and a not in COMPILE_ONLY for a in eff):
        return None
    inputs, out = inputs_and_output(eff)
    if len(inputs) != 1 or not inputs[0].endswith(".cu"):
        return None
    return out or os.path.splitext(os.path.basename(inputs[0]))[0] + ".o"


def wait_jobs(state):
    """Waits for the late images' jobs of the compile (each holds a lock on
    its job-*.lock while it runs); what they printed (their warnings)."""
    import fcntl
    said = b""
    for n in sorted(os.listdir(state)):
        if n.startswith("job-") and n.endswith(".lock"):
            try:
                fd = os.open(os.path.join(state, n), os.O_RDONLY)
            except OSError:
                continue
            try:
                fcntl.flock(fd, fcntl.LOCK_SH)
            finally:
                os.close(fd)
            try:
                with open(os.path.join(state, n + ".log"), "rb") as f:
                    said += f.read()
            except OSError:
                pass
    return said


def add_late_images(state, late):
    """After nvcc: the clone images into the -c object (`ld -r`)."""
    objs = sorted(os.path.join(state, n) for n in os.listdir(state)
                  if n.startswith("images-") and n.endswith(".o"))
    if not objs:
        return
    if not os.path.isfile(late):  # -o /dev/null, say: nothing to add them to
        return
    tmp = late + ".ptxopt-tmp.o"
    err = os.path.join(state, "ld-r.log")
    rc = spawn(["/usr/bin/env", "ld", "-r", "-o", tmp, late] + objs, err=err)
    if rc == 0:
        try:
            os.replace(tmp, late)
            return
        except OSError as e:
            why = str(e)
    else:
        with open(err, errors="replace") as f:
            why = (f.read().strip().splitlines() or ["exit %d" % rc])[0]
    try:
        os.unlink(tmp)
    except OSError:
        pass
    warn("cannot add the clone images to %s (ld -r: %s); its launches run the original kernels" % (late, why))


def ptxas_threads(args, asked):
    """Threads for ptxas (-Xptxas --split-compile=N): the clones multiply
    the functions ptxas compiles, and it compiles functions in parallel with
    the same code (only the command line its note records differs). None
    when the user sets split-compile (a second value makes ptxas warn), or
    with one core. `asked`: --ptxopt-ptxas-threads=N (0 or 1: off)."""
    eff = effective(args)
    if any("split-compile" in a for a in eff):
        return None
    if asked is not None:
        n = asked
    else:
        try:
            n = min(len(os.sched_getaffinity(0)), 4)
        except (AttributeError, OSError):
            n = min(os.cpu_count() or 1, 4)
    return n if n > 1 else None


def find_real_nvcc():
    cand = []
    if os.environ.get("PTXOPT_NVCC"):
        cand.append(os.environ["PTXOPT_NVCC"])
    for v in ("CUDA_HOME", "CUDA_PATH"):
        if os.environ.get(v):
            cand.append(os.path.join(os.environ[v], "bin", "nvcc"))
    # every nvcc on PATH: ptx-nvcc itself may be installed as "nvcc"
    cand += [os.path.join(d or ".", "nvcc") for d in os.environ.get("PATH", "").split(os.pathsep)]
    cand.append("/usr/local/cuda/bin/nvcc")
    for c in cand:
        if os.path.isfile(c) and os.access(c, os.X_OK) and os.path.realpath(c) != ME:
            return os.path.realpath(c)
    return None


def shim_input_missing(path):
    """The file a linker-script libptxopt_nvcc.a names in INPUT(...) when it
    does not exist (None for an archive, or when it exists)."""
    try:
        with open(path, "rb") as f:
            head = f.read(4096)
    except OSError:
        return None
    if head.startswith(b"!<arch>"):
        return None
    text = head.decode(errors="replace")
    start = text.find("INPUT(")
    if start < 0:
        return None
    end = text.find(")", start)
    target = text[start + 6:end].strip() if end > start else ""
    return target if target and not os.path.exists(target) else None


def find_file(explicit, env_dir_rel, names):
    if explicit:
        return explicit if os.path.isfile(explicit) else None
    dirs = []
    if os.environ.get("PTXOPT_BUILD"):
        dirs.append(os.environ["PTXOPT_BUILD"])
    here = os.path.dirname(ME)
    dirs += [here, os.path.join(here, ".."), os.path.join(here, "..", "lib")]
    dirs += [os.path.join(ROOT, d) for d in ("build-nvcc", "build", "build-gpu")]
    for d in dirs:
        for n in names:
            p = os.path.join(d, n)
            if os.path.isfile(p):
                return os.path.realpath(p)
    return None


def make_profile(cuda_bin, wrapdir):
    """The toolkit's nvcc.profile with TOP made absolute and CICC_PATH
    pointing at the wrapper directory."""
    with open(os.path.join(cuda_bin, "nvcc.profile")) as f:
        text = f.read()
    top = os.path.realpath(os.path.join(cuda_bin, ".."))
    new, saw_top, saw_cicc = [], False, False
    for line in text.splitlines():
        key = line.split("=", 1)[0].strip() if "=" in line else ""
        if key == "TOP":
            new.append("TOP              = %s" % top)
            saw_top = True
        elif key == "CICC_PATH":
            new.append("CICC_PATH        = %s" % wrapdir)
            saw_cicc = True
        else:
            new.append(line)
    if not (saw_top and saw_cicc):
        raise RuntimeError("unexpected nvcc.profile in %s (no TOP or CICC_PATH line)" % cuda_bin)
    return "\n".join(new) + "\n", top


def main(argv):
    own = {"passes": None, "remarks": "", "debug": False, "bin": None, "lib": None, "nolink": False,
           "verbose": False, "threads": None,
           "options": [], "report": None, "images": True}
    args = []
    envflags = split_flags(os.environ.get("PTXOPT_NVCC_FLAGS", ""))
    for a in envflags + argv:
        if not a.startswith("--ptxopt-"):
            args.append(a)
            continue
        name, eq, val = a[len("--ptxopt-"):].partition("=")
        if name == "passes" and eq:
            own["passes"] = val
        elif name == "remarks":
            own["remarks"] = os.path.abspath(val) if eq else "-"
        elif name == "report" and eq and val:
            own["report"] = os.path.abspath(val)
        elif name == "debug-builds" and not eq:
            own["debug"] = True
        elif name == "bin" and eq:
            own["bin"] = val
        elif name == "lib" and eq:
            own["lib"] = val
        elif name == "no-link-shim" and not eq:
            own["nolink"] = True
        elif name == "clone-images" and not eq:  # the default (docs/NVCC.md, "Delivery")
            own["images"] = True
        elif name == "no-clone-images" and not eq:
            own["images"] = False
        elif name == "verbose" and not eq:
            own["verbose"] = True
        elif name == "ptxas-threads" and eq and val.isdigit():
            own["threads"] = int(val)
        elif name == "build-key" and not eq:
            own["key"] = True
        elif name == "help":
            sys.stdout.write(HELP)
            return 0
        else:  # a pass option (the registry's: checked by ptx-opt in build())
            own["options"].append(name + eq + val)

    nvcc = find_real_nvcc()
    if not nvcc:
        fatal("nvcc not found (set CUDA_HOME or PTXOPT_NVCC)")
    disabled = os.environ.get("PTXOPT_DISABLE", "") not in ("", "0")
    if own.pop("key", False):  # for ccache's compiler_check (docs/NVCC.md, "Build tools")
        sys.stdout.write(ptx_nvcc_cache.key_line("disabled" if disabled else build_key(nvcc, own), False))
        return 0
    if disabled:
        os.execv(nvcc, [nvcc] + args)
    if ptx_nvcc_cache.version_query(args):
        return print_version(nvcc, args, own)

    def plain():
        return spawn([nvcc] + args)

    if own["report"]:
        try:
            os.makedirs(own["report"], exist_ok=True)
        except OSError as e:
            warn("cannot create the report folder %s (%s); no report" % (own["report"], e))
            own["report"] = None
    if own["report"]:
        try:
            return build(nvcc, args, own, plain)
        finally:
            try:
                write_report_index(own["report"])
            except OSError as e:
                warn("cannot write %s/index.html (%s)" % (own["report"], e))
    return build(nvcc, args, own, plain)


def build_key(nvcc, own):
    """ptx_nvcc_cache.build_key over the files this compile would use."""
    files = [os.path.realpath(__file__), os.path.realpath(ptx_nvcc_cache.__file__),
             find_file(own["bin"], "", ["ptx-opt", "bin/ptx-opt"]),
             find_file(None, "", ["ptx-nvcc-cicc", "bin/ptx-nvcc-cicc"])]
    shim = find_file(own["lib"], "", ["runtime/libptxopt_nvcc.a", "libptxopt_nvcc.a", "lib/libptxopt_nvcc.a"])
    files.append(shim)
    if shim:
        with open(shim, "rb") as f:
            text = f.read(4096).decode(errors="replace")
        start = text.find("INPUT(")
        files.append(text[start + 6:text.find(")", start)].strip() if start >= 0 else None)
    return ptx_nvcc_cache.build_key(files, nvcc, own)


def print_version(nvcc, args, own):
    """nvcc's --version, then ptx-nvcc's build key (for ccache's
    compiler_check = %compiler% --version)."""
    import subprocess
    rc = subprocess.call([nvcc] + args)
    if rc == 0:
        sys.stdout.write(ptx_nvcc_cache.key_line(build_key(nvcc, own), False))
    return rc


def check_pass_options(ptxopt, options):
    """--ptxopt-<option>[=V]: the pass options, checked by ptx-opt against
    its registry as libptxopt reads them ("-O2;group-k=4"); an unknown or
    ill-typed one is an error before nvcc runs (no output)."""
    if not options:
        return
    import subprocess
    p = subprocess.run([ptxopt, "--check-options=-O2;" + ";".join(options), "--check-options-prefix=--ptxopt-"],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True)
    if p.returncode != 0:
        fatal((p.stderr.strip() or "exit status %d" % p.returncode).replace("ptx-opt: error: ", ""))


def build(nvcc, args, own, plain):
    """nvcc through the private directory; plain nvcc when something of
    ptx-nvcc is missing or the build with ptx-opt failed."""
    ptxopt = find_file(own["bin"], "", ["ptx-opt", "bin/ptx-opt"])
    if not ptxopt:
        warn("ptx-opt not found (build it, or set PTXOPT_BUILD or --ptxopt-bin=); building without it")
        return plain()
    check_pass_options(ptxopt, own["options"])
    hook = find_file(None, "", ["ptx-nvcc-cicc", "bin/ptx-nvcc-cicc"])
    if not hook:
        warn("ptx-nvcc-cicc not found (build it, or set PTXOPT_BUILD); building without ptx-opt")
        return plain()
    link_shim = None
    if links(args) and not own["nolink"]:
        link_shim = find_file(own["lib"], "", ["runtime/libptxopt_nvcc.a", "libptxopt_nvcc.a", "lib/libptxopt_nvcc.a"])
        missing = shim_input_missing(link_shim) if link_shim else None
        if missing:
            # CMake writes the linker script at configure time and the object
            # it names at build time: linking it before would fail, and the
            # whole compile would run a second time with plain nvcc.
            warn("%s names %s, which does not exist (build the target ptxopt_nvcc); "
                 "the program will run the original kernels" % (link_shim, missing))
            link_shim = None
        elif not link_shim:
            warn("libptxopt_nvcc.a not found (build the target ptxopt_nvcc, or set PTXOPT_BUILD or "
                 "--ptxopt-lib=); the program will run the original kernels")

    cuda_bin = os.path.dirname(nvcc)
    try:
        wrap = make_temp_dir()
    except OSError as e:
        warn("%s; building without ptx-opt" % e)
        return plain()
    try:
        wbin = os.path.join(wrap, "bin")
        os.mkdir(wbin)
        os.mkdir(os.path.join(wrap, "state"))
        # clone images (the default): ptxas and fatbinary are ptx-nvcc-cicc too
        # (it compiles and wraps the clones' own images next to nvcc's)
        tools = ("ptxas", "fatbinary") if own["images"] else ()
        for e in os.listdir(cuda_bin):
            if e not in ("nvcc.profile", "nvcc", "cicc") + tools:
                os.symlink(os.path.join(cuda_bin, e), os.path.join(wbin, e))
        os.symlink(nvcc, os.path.join(wbin, "nvcc"))
        os.symlink(hook, os.path.join(wbin, "cicc"))
        for t in tools:
            os.symlink(hook, os.path.join(wbin, t))
        try:
            profile, top = make_profile(cuda_bin, wbin)
        except (OSError, RuntimeError) as e:
            warn("%s; building without ptx-opt" % e)
            return plain()
        with open(os.path.join(wbin, "nvcc.profile"), "w") as f:
            f.write(profile)
        real_cicc = os.path.join(top, "nvvm", "bin", "cicc")
        if not os.path.isfile(real_cicc):
            warn("%s not found; building without ptx-opt" % real_cicc)
            return plain()
        env = dict(os.environ)
        env.update({
            "PTXOPT_NVCC_STATE": os.path.join(wrap, "state"),
            "PTXOPT_NVCC_REAL_CICC": real_cicc,
            "PTXOPT_NVCC_PTXOPT": ptxopt,
            "PTXOPT_NVCC_PASSES": (("--passes=" + own["passes"]) if own["passes"] else "-O2") +
                                  "".join(" --" + o for o in own["options"]),
            "PTXOPT_NVCC_REMARKS": own["remarks"],
            "PTXOPT_NVCC_DEBUG_BUILDS": "1" if own["debug"] else "0",
            "PTXOPT_NVCC_REPORT": own["report"] or "",
            "PTXOPT_NVCC_CLONE_IMAGES": "1" if own["images"] else "0",
            "PTXOPT_NVCC_REAL_BIN": cuda_bin,
        })
        late = late_images(args) if own["images"] else None
        if late:
            env["PTXOPT_NVCC_LATE_IMAGES"] = "1"
        srcs = [a for a in args if a.endswith((".cu", ".cup", ".gpu"))]
        if len(srcs) == 1:
            env["PTXOPT_NVCC_SOURCE"] = srcs[0]
        cmd = [os.path.join(wbin, "nvcc")]
        # with clone images ptxas compiles nvcc's functions only: no need to
        # split unless asked (the clone modules are compiled 4 at a time)
        threads = 0 if own["images"] and own["threads"] is None else ptxas_threads(args, own["threads"])
        if threads:
            cmd += ["-Xptxas", "--split-compile=%d" % threads]
        cmd += args
        if link_shim:
            cmd += ["-Xlinker", "--undefined=" + HOOK_SYMBOL, link_shim] + wrap_flags()
        if own["verbose"]:
            sys.stderr.write("ptx-nvcc: %s\n" % " ".join(cmd))
        out_f, err_f = os.path.join(wrap, "stdout"), os.path.join(wrap, "stderr")
        rc = spawn(cmd, env=env, out=out_f, err=err_f)
        said = b""
        if late:
            said = wait_jobs(os.path.join(wrap, "state"))
            if rc == 0:
                add_late_images(os.path.join(wrap, "state"), late)
        with open(out_f, "rb") as f:
            out = f.read()
        with open(err_f, "rb") as f:
            err = f.read() + said
        changed = os.path.exists(os.path.join(wrap, "state", "changed"))
        if rc == 0 and ptx_nvcc_cache.preprocess_only(effective(args)):  # the key for caches that hash -E
            out = ptx_nvcc_cache.mark_preprocessed(out, inputs_and_output(effective(args))[1], build_key(nvcc, own))
        if rc == 0 or not (changed or link_shim):
            sys.stdout.flush()
            os.write(1, out) if out else None
            sys.stderr.flush()
            os.write(2, err) if err else None
            return rc
        # It failed after ptx-nvcc changed something: nvcc alone decides.
        rc0 = rc
        rc = plain()
        if rc == 0:
            why = (err + out).decode(errors="replace").strip().splitlines()
            warn("the build with ptx-opt failed (exit %d%s); built with plain nvcc instead"
                 % (rc0, (": " + " | ".join(why[:3])) if why else ""))
        return rc
    finally:
        if own["verbose"]:
            sys.stderr.write("ptx-nvcc: kept %s\n" % wrap)
        else:
            remove_tree(wrap)



# ---------------------------------------------------------------------------
# --ptxopt-report=DIR: the index page over the reports ptx-nvcc-cicc wrote
# ---------------------------------------------------------------------------

REPORT_DATA = '<script type="application/json" id="ptx-opt-coverage">'
VERDICTS = ("coalesced", "uniform", "uncoalesced", "unknown")
INDEX_STYLE = """
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0 2em 3em;color:#1f2328}
h1{font-size:1.45em;margin:.8em 0 .3em}h2{font-size:1.2em;margin:1.6em 0 .4em}
code{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:12.5px}
a{color:#0969da;text-decoration:none}a:hover{text-decoration:underline}
.meta{color:#57606a}
table{border-collapse:collapse;margin:.5em 0}
th,td{border:1px solid #d0d7de;padding:2px 8px;vertical-align:top}th{background:#f6f8fa;text-align:left}
td.num{text-align:right}tr.total td{font-weight:600;background:#f6f8fa}
.badge{display:inline-block;padding:0 7px;border-radius:9px;font-size:12px;font-weight:600}
.v-coalesced{background:#dafbe1;color:#116329}.v-uniform{background:#ddf4ff;color:#0a3069}
.v-uncoalesced{background:#ffd8d3;color:#82071e}.v-unknown{background:#fff1c2;color:#6f4400}
"""


def report_data(path):
    """The coverage data block at the top of a report page, or None."""
    import json
    with open(path, "rb") as f:
        head = b""
        while True:
            chunk = f.read(1 << 16)
            head += chunk
            i = head.find(REPORT_DATA.encode())
            if i >= 0:
                j = head.find(b"</script>", i)
                if j >= 0:
                    try:
                        return json.loads(head[i + len(REPORT_DATA):j].decode("utf-8", "replace"))
                    except ValueError:
                        return None
            if not chunk or len(head) > (64 << 20):
                return None


def write_report_index(folder):
    """DIR/index.html: every report page of DIR (other builds' too) with its
    counts, and the kernels with uncoalesced or unknown accesses, most first.
    Under a lock, so that parallel compiles into one folder each see the
    pages written before them; written through a rename."""
    import fcntl
    import html
    with open(os.path.join(folder, ".index.lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        pages = []
        for n in sorted(os.listdir(folder)):
            if n.endswith(".html") and n != "index.html":
                d = report_data(os.path.join(folder, n))
                if d is not None:
                    pages.append((d.get("source") or d.get("file") or n, n, d))
        pages.sort(key=lambda p: (p[0], p[1]))
        esc = html.escape

        def cells(cov):
            out = '<td class="num">%d</td>' % cov.get("accesses", 0)
            for v in VERDICTS:
                k = cov.get("verdicts", {}).get(v, 0)
                out += '<td class="num">%s</td>' % ('<span class="badge v-%s">%d</span>' % (v, k) if k else "0")
            causes = cov.get("unknown_causes", {})
            return out + "<td>%s</td>" % esc(", ".join("%d %s" % (k, c) for c, k in sorted(causes.items()) if k))

        def arch(name):
            return name.rsplit(".", 2)[-2] if name.count(".") >= 2 else ""

        total = {"accesses": 0, "verdicts": {}, "unknown_causes": {}}
        rows, hot, nkernels, remarks = [], [], 0, [0, 0]
        for source, name, d in pages:
            cov = d.get("coverage", {})
            total["accesses"] += cov.get("accesses", 0)
            for key in ("verdicts", "unknown_causes"):
                for k, v in cov.get(key, {}).items():
                    total[key][k] = total[key].get(k, 0) + v
            kernels = d.get("kernels", [])
            nkernels += len(kernels)
            applied = sum(k.get("remarks", {}).get("applied", 0) for k in kernels)
            missed = sum(k.get("remarks", {}).get("missed", 0) for k in kernels)
            remarks[0] += applied
            remarks[1] += missed
            rows.append('<tr><td><a href="%s">%s</a></td><td>%s</td><td class="num">%d</td>%s'
                        '<td class="num">%d / %d</td></tr>'
                        % (esc(name), esc(source), esc(arch(name)), len(kernels), cells(cov), applied, missed))
            for i, k in enumerate(kernels):
                v = k.get("coverage", {}).get("verdicts", {})
                if v.get("uncoalesced", 0) or v.get("unknown", 0):
                    hot.append((-v.get("uncoalesced", 0), -v.get("unknown", 0), k.get("name", ""), source, name, i, k))
        hot.sort(key=lambda h: h[:6])
        out = ['<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
               '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
               '<title>ptx-opt reports</title>\n<style>%s</style>\n</head>\n<body>\n' % INDEX_STYLE,
               '<h1>ptx-opt reports</h1>\n<p class="meta">%d PTX file%s of %d kernel%s (one per source and '
               'target), written by <code>ptx-nvcc --ptxopt-report</code>: each page shows nvcc&#39;s PTX as '
               'ptx-opt reads it, with the global accesses by verdict and the passes&#39; remarks.</p>\n'
               % (len(pages), "" if len(pages) == 1 else "s", nkernels, "" if nkernels == 1 else "s"),
               '<table>\n<tr><th>source</th><th>target</th><th>kernels</th><th>global accesses</th>'
               '<th>coalesced</th><th>uniform</th><th>uncoalesced</th><th>unknown</th><th>unknown by cause</th>'
               '<th>remarks applied / missed</th></tr>\n']
        out += [r + "\n" for r in rows]
        out.append('<tr class="total"><td>all</td><td></td><td class="num">%d</td>%s<td class="num">%d / %d</td>'
                   '</tr>\n</table>\n' % (nkernels, cells(total), remarks[0], remarks[1]))
        out.append("<h2>Kernels with uncoalesced or unknown accesses</h2>\n")
        if hot:
            out.append("<table>\n<tr><th>kernel</th><th>source</th><th>target</th><th>global accesses</th>"
                       "<th>coalesced</th><th>uniform</th><th>uncoalesced</th><th>unknown</th>"
                       "<th>unknown by cause</th></tr>\n")
            for _, _, kname, source, name, i, k in hot:
                shown = k.get("demangled") or kname
                out.append('<tr><td><a href="%s#k%d"><code>%s</code></a></td><td>%s</td><td>%s</td>%s</tr>\n'
                           % (esc(name), i, esc(shown), esc(source), esc(arch(name)),
                              cells(k.get("coverage", {}))))
            out.append("</table>\n")
        else:
            out.append('<p class="meta">none</p>\n')
        out.append("</body>\n</html>\n")
        tmp = os.path.join(folder, ".index.html.%d.tmp" % os.getpid())
        with open(tmp, "w", encoding="utf-8") as f:
            f.write("".join(out))
        os.replace(tmp, os.path.join(folder, "index.html"))
