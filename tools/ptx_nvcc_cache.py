"""ptx-nvcc under compiler caches (docs/NVCC.md, "Build tools").

A cache (ccache, sccache) keys an object on the compiler, its command line
and the source. ptx-nvcc is a small script: its bytes and its mtime stay the
same when ptx-opt, the cicc wrapper or PTXOPT_NVCC_FLAGS change, and those
change the object. So ptx-nvcc states a *build key*, a hash of everything
else that decides its objects:

- the bytes of this driver, ptx-opt, ptx-nvcc-cicc and the shim object;
- the real nvcc (its path, size, and the toolkit's version.json);
- the --ptxopt-* flags that change outputs (command line and
  PTXOPT_NVCC_FLAGS) and the environment read at build time
  (PTXOPT_NVCC_FLAGS, PTXOPT_NVCC_MANIFEST_GLOBALS, NVCC_PREPEND_FLAGS,
  NVCC_APPEND_FLAGS, NVCC_CCBIN);

and shows it in two places a cache hashes:

- `ptx-nvcc --version`: nvcc's text, then `ptx-nvcc: ptx-opt build key
  <key>` (ccache with `compiler_check = %compiler% --version`);
- the output of `ptx-nvcc -E` (what sccache, and ccache without direct
  mode, hash): a last line `/* ptx-nvcc: ptx-opt build key <key> */`, a
  comment, so the text still compiles as before (last: sccache takes the
  first line that is not empty or a directive for the compiler's kind).

Plain nvcc shows neither, and PTXOPT_DISABLE=1 (ptx-nvcc is plain nvcc)
neither: a cache never gives a ptx-nvcc object for an nvcc compile or the
other way round. File digests are kept in a memo keyed by path, size and
mtime (the binaries are megabytes; hashing them on every compile would cost
more than the rest of the key).
"""
import os  # hashlib is imported where used: every compile imports this module

KEY_ENV = ("PTXOPT_NVCC_FLAGS", "PTXOPT_NVCC_MANIFEST_GLOBALS", "NVCC_PREPEND_FLAGS", "NVCC_APPEND_FLAGS",
           "NVCC_CCBIN")
# --ptxopt- flags that change no object: left out of the key
NOT_IN_KEY = ("remarks", "report", "verbose")
DEPENDENCY_ONLY = ("-M", "-MM", "--generate-dependencies", "--generate-nonsystem-dependencies")


def memo_path():
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "ptx-nvcc", "digests")


def file_digests(paths):
    """sha256 of each file's bytes ("-" for a missing one), memoized in a
    text file of `path <TAB> size:mtime:inode <TAB> digest` lines (json
    would cost its import, ~10 ms, on every key)."""
    memo_file = memo_path()
    memo = {}
    try:
        with open(memo_file) as f:
            for line in f:
                parts = line.rstrip("\n").split("\t")
                if len(parts) == 3:
                    memo[parts[0]] = parts[1:]
    except OSError:
        pass
    out, changed = [], False
    for p in paths:
        try:
            st = os.stat(p)
        except (OSError, TypeError):
            out.append("-")
            continue
        stamp = "%d:%d:%d" % (st.st_size, st.st_mtime_ns, st.st_ino)
        got = memo.get(p)
        if not got or got[0] != stamp:
            import hashlib
            h = hashlib.sha256()
            with open(p, "rb") as f:
                for chunk in iter(lambda: f.read(1 << 20), b""):
                    h.update(chunk)
            got = memo[p] = [stamp, h.hexdigest()]
            changed = True
        out.append(got[1])
    if changed:
        try:
            os.makedirs(os.path.dirname(memo_file), exist_ok=True)
            tmp = "%s.%d" % (memo_file, os.getpid())
            with open(tmp, "w") as f:
                f.writelines("%s\t%s\t%s\n" % (k, v[0], v[1]) for k, v in memo.items() if "\t" not in k and "\n" not in k)
            os.replace(tmp, memo_file)
        except OSError:
            pass  # no memo: the digests are computed again next time
    return out


def build_key(files, nvcc, own):
    """The build key: `files` (the driver, ptx-opt, the cicc wrapper, the
    shim object), the real nvcc, ptx-nvcc's own flags `own` (main's dict)
    and the build-time environment."""
    import hashlib
    h = hashlib.sha256(b"ptx-nvcc build key 1\0")
    for d in file_digests(files):
        h.update(d.encode() + b"\0")
    nvcc_real = os.path.realpath(nvcc)
    h.update(("%s\0%d\0" % (nvcc_real, os.path.getsize(nvcc_real))).encode())
    version = os.path.join(os.path.dirname(os.path.dirname(nvcc_real)), "version.json")
    h.update(file_digests([version])[0].encode() + b"\0")
    for k in sorted(own):
        if k not in NOT_IN_KEY:
            h.update(("%s=%r\0" % (k, own[k])).encode())
    for name in KEY_ENV:
        h.update(("%s=%s\0" % (name, os.environ.get(name, ""))).encode())
    return h.hexdigest()[:32]


def version_query(args):
    """`ptx-nvcc --version` (or -V) alone."""
    return bool(args) and all(a in ("--version", "-V") for a in args)


def preprocess_only(eff):
    """-E without dependency output (whose text is make rules)."""
    return ("-E" in eff or "--preprocess" in eff) and not any(a in DEPENDENCY_ONLY for a in eff)


def key_line(key, comment):
    return ("/* ptx-nvcc: ptx-opt build key %s */\n" if comment else "ptx-nvcc: ptx-opt build key %s\n") % key


def mark_preprocessed(out, path, key):
    """The key as the last line of -E's output: `out` (stdout's bytes), or
    the file `path` (its -o)."""
    line = key_line(key, True).encode()
    if not path or path == "-":
        return out + (b"" if not out or out.endswith(b"\n") else b"\n") + line
    try:
        with open(path, "rb+") as f:
            f.seek(0, os.SEEK_END)
            if f.tell():
                f.seek(-1, os.SEEK_END)
                if f.read(1) != b"\n":
                    f.write(b"\n")
            f.write(line)
    except OSError:
        pass
    return out
