#!/usr/bin/env bash
# o2-same.sh: the refactoring check. Runs `ptx-opt -O2` and `ptx-opt
# --analyze` on every .ptx file under tests/, examples/ and bench/ and
# records each output, its stderr and exit status; `compare` says which
# differ from a recorded set.
#
#   scripts/test/o2-same.sh save    DIR [PTXOPT]   record into DIR
#   scripts/test/o2-same.sh compare DIR [PTXOPT]   exit 1 if any file differs
#
# PTXOPT defaults to build/ptx-opt; DIR and PTXOPT are relative to the
# repository root. Run `save` with the binary built before a
# change and `compare` with the one built after: every byte must stay.
set -euo pipefail
. "$(dirname "$0")/../env.sh"
mode=${1:-} dir=${2:-} ptxopt=${3:-$PTXOPT}
case $mode in save | compare) ;; *) sed -n '2,12p' "$0" >&2; exit 2 ;; esac
[ -n "$dir" ] || { echo "o2-same.sh: error: no DIR" >&2; exit 2; }
[ -x "$ptxopt" ] || { echo "o2-same.sh: error: $ptxopt is not an executable" >&2; exit 2; }
out=$dir
if [ "$mode" = save ]; then
  mkdir -p "$dir"
else
  [ -d "$dir" ] || { echo "o2-same.sh: error: no recorded set in $dir (run save first)" >&2; exit 2; }
  out=$(mktemp -d)
fi
n=0
while IFS= read -r -d '' f; do
  key=${f//\//__}
  rc=0
  "$ptxopt" -O2 "$f" -o "$out/$key.out" 2>"$out/$key.err" || rc=$?
  echo "$rc" >"$out/$key.rc"
  rc=0
  "$ptxopt" --analyze "$f" -o "$out/$key.analyze" 2>"$out/$key.analyze.err" || rc=$?
  echo "$rc" >"$out/$key.analyze.rc"
  n=$((n + 1))
done < <(find tests examples bench -name '*.ptx' -print0 | sort -z)
[ "$mode" = save ] && { echo "o2-same.sh: recorded $n files in $dir"; exit 0; }
if diff -r "$dir" "$out" >"$out.diff" 2>&1; then
  echo "o2-same.sh: $n files, every -O2 and --analyze output, message and exit status identical"
  rm -rf "$out" "$out.diff"
else
  echo "o2-same.sh: DIFFERENT (diff -r $dir $out; summary in $out.diff):"
  grep -E '^(diff|Only)' "$out.diff" | head -20
  exit 1
fi
