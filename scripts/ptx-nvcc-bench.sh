#!/usr/bin/env bash
# Build-time overhead of ptx-nvcc over nvcc (docs/BENCHMARKS.md, "ptx-nvcc
# build overhead"): runs the same compile with nvcc and with scripts/ptx-nvcc,
# alternating, REPS times each, and prints the median wall and CPU (user +
# system, children included) seconds and the overhead.
#
#   scripts/ptx-nvcc-bench.sh REPS <nvcc arguments...>
#   e.g. scripts/ptx-nvcc-bench.sh 10 -arch=sm_90 -c examples/matadd/matadd.cu -o /tmp/m.o
#
# PTXOPT_BUILD as for ptx-nvcc (default: the source tree's build-nvcc/ or build/).
set -uo pipefail
REPS=${1:?usage: ptx-nvcc-bench.sh REPS <nvcc arguments...>}
shift
PNVCC="$(cd "$(dirname "$0")" && pwd)/ptx-nvcc"
LOG=$(mktemp)
trap 'rm -f "$LOG"' EXIT
for _ in $(seq "$REPS"); do
  for tool in nvcc "$PNVCC"; do
    /usr/bin/time -f "$(basename "$tool") %e %U %S" -a -o "$LOG" "$tool" "$@" >/dev/null 2>&1 ||
      { echo "failed: $tool $*" >&2; exit 1; }
  done
done
python3 - "$LOG" <<'PY'
import statistics as st, sys, collections
d = collections.defaultdict(list)
for line in open(sys.argv[1]):
    k, w, u, s = line.split()
    d[k].append((float(w), float(u) + float(s)))
m = {k: (st.median(x[0] for x in v), st.median(x[1] for x in v), len(v)) for k, v in d.items()}
for k in ("nvcc", "ptx-nvcc"):
    print("%-9s median wall %.3f s  cpu %.3f s  (n=%d)" % (k, *m[k]))
print("overhead  wall %+.1f%%  cpu %+.1f%%" % (100 * (m["ptx-nvcc"][0] / m["nvcc"][0] - 1),
                                             100 * (m["ptx-nvcc"][1] / m["nvcc"][1] - 1)))
PY
