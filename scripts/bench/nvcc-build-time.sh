#!/usr/bin/env bash
# Build-time overhead of ptx-nvcc over nvcc (docs/BENCHMARKS.md, "ptx-nvcc
# build overhead"): runs the same compile with nvcc and with tools/ptx-nvcc,
# alternating, REPS times each, and prints the minimum and the median wall and
# CPU (user + system, children included) seconds and the overheads, and the
# median of the paired ratios (each ptx-nvcc run over the nvcc run before it:
# on a shared machine whose speed drifts, the steadier figure). Times are taken to
# the microsecond (time.perf_counter and getrusage of the children), not the
# 10 ms of /usr/bin/time: the overheads measured are tens of milliseconds.
#
#   scripts/bench/nvcc-build-time.sh REPS <nvcc arguments...>
#   e.g. scripts/bench/nvcc-build-time.sh 10 -arch=sm_90 -c examples/matadd/matadd.cu -o /tmp/m.o
#
# PTXOPT_BUILD as for ptx-nvcc (default: the source tree's build-nvcc/ or build/);
# ptx-nvcc's own flags go in PTXOPT_NVCC_FLAGS (nvcc ignores it), e.g.
#   PTXOPT_NVCC_FLAGS=--ptxopt-passes=-O1 scripts/bench/nvcc-build-time.sh 15 -arch=sm_90 -c ...
set -uo pipefail
REPS=${1:?usage: nvcc-build-time.sh REPS <nvcc arguments...>}
shift
PNVCC="$(cd "$(dirname "$0")/../.." && pwd)/tools/ptx-nvcc"
exec python3 - "$REPS" "$PNVCC" "$@" <<'PY'
import ctypes, os, resource, statistics as st, subprocess, sys, time
reps, pnvcc, args = int(sys.argv[1]), sys.argv[2], sys.argv[3:]
# ptx-nvcc's late clone images compile in processes that outlive the tool
# that started them (docs/NVCC.md, "Clone images"): as a subreaper this
# script inherits and reaps them, so the CPU times include them.
try:
    ctypes.CDLL(None, use_errno=True).prctl(36, 1, 0, 0, 0)  # PR_SET_CHILD_SUBREAPER
except (OSError, AttributeError):
    sys.stderr.write("warning: not a subreaper: the CPU times miss ptx-nvcc's background jobs\n")
runs = {"nvcc": [], "ptx-nvcc": []}
for _ in range(reps):
    for name, tool in (("nvcc", "nvcc"), ("ptx-nvcc", pnvcc)):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t0 = time.perf_counter()
        p = subprocess.run([tool] + args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        wall = time.perf_counter() - t0
        while True:  # orphans (they have ended: ptx-nvcc waits for its jobs)
            try:
                os.waitpid(-1, 0)
            except ChildProcessError:
                break
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        rc = p.returncode
        if rc != 0:
            sys.exit("failed: %s %s" % (tool, " ".join(args)))
        # A ptx-nvcc build that fell back to plain nvcc compiled twice: no
        # measurement of ptx-opt (a build directory without the shim object,
        # say). Its warnings are shown once.
        err = p.stderr.decode(errors="replace")
        if name == "ptx-nvcc" and "ptx-nvcc: warning" in err and not runs["ptx-nvcc"]:
            sys.stderr.write(err)
        if name == "ptx-nvcc" and "built with plain nvcc instead" in err:
            sys.exit("ptx-nvcc fell back to plain nvcc (above): not a measurement")
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        runs[name].append((wall, cpu))
m = {k: (st.median(x[0] for x in v), st.median(x[1] for x in v), len(v)) for k, v in runs.items()}
lo = {k: (min(x[0] for x in v), min(x[1] for x in v)) for k, v in runs.items()}
for k in ("nvcc", "ptx-nvcc"):
    print("%-9s median wall %.3f s  cpu %.3f s  (n=%d)  min wall %.3f s  cpu %.3f s" % (k, *m[k], *lo[k]))
# Each ptx-nvcc run against the nvcc run just before it: drifts of a shared
# machine's speed over the series cancel out.
pairs = sorted(b[0] / a[0] for a, b in zip(runs["nvcc"], runs["ptx-nvcc"]))
print("paired    wall ratio median %+.1f%%  (each ptx-nvcc run against the nvcc run before it; quartiles %+.1f%% %+.1f%%)" % (
    100 * (st.median(pairs) - 1), 100 * (pairs[len(pairs) // 4] - 1), 100 * (pairs[(3 * len(pairs)) // 4] - 1)))
print("overhead  wall %+.1f%%  cpu %+.1f%%  (medians)   min wall %+.1f%%  cpu %+.1f%%" % (
    100 * (m["ptx-nvcc"][0] / m["nvcc"][0] - 1), 100 * (m["ptx-nvcc"][1] / m["nvcc"][1] - 1),
    100 * (lo["ptx-nvcc"][0] / lo["nvcc"][0] - 1), 100 * (lo["ptx-nvcc"][1] / lo["nvcc"][1] - 1)))
PY
