#!/bin/sh
# A deliberately broken optimizer for ptx-nvcc's fail-soft test: it "succeeds"
# (exit 0) but writes PTX that ptxas rejects, with a manifest line, so the
# damage reaches ptxas and the build with it fails.
out=
while [ $# -gt 0 ]; do
  case $1 in -o) out=$2; shift ;; esac
  shift
done
[ -n "$out" ] || exit 2
printf '.version 9.0\n.target sm_90\n.address_size 64\nthis is not ptx;\n// @ptxopt-manifest {"version":1,"kernels":[]}\n' >"$out"
