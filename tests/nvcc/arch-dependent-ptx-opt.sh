#!/bin/sh
# An optimizer for ptx-nvcc's tests that makes clones for one target only:
# the real ptx-opt ($REAL_PTXOPT) for PTX whose name has compute_80, a copy
# without clones for the others. ptx-nvcc must then use no clone at all.
in= out= args=
while [ $# -gt 0 ]; do
  case $1 in
    -o) out=$2; shift ;;
    *.ptx) in=$1 ;;
    *) args="$args $1" ;;
  esac
  shift
done
case $in in
  *compute_80*) exec "$REAL_PTXOPT" $args "$in" -o "$out" ;;
  *) cp "$in" "$out" ;;
esac
