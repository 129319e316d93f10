#!/usr/bin/env bash
# Collects into .dev/ what building ptx-opt needs on a machine that lacks the
# Debian packages antlr4, libantlr4-runtime-dev, nlohmann-json3-dev and
# libcli11-dev (the GPU machine, where nothing can be installed):
#
#   .dev/generated/   the parser generated from grammar/*.g4 by antlr4, and
#                     grammar.sha256 (CMake refuses it for another grammar)
#   .dev/include/     antlr4-runtime/, nlohmann/, CLI/ headers, and pybind11/
#                     where pybind11-dev is installed (the Python module)
#   .dev/lib/         libantlr4-runtime.so.4.9 and its libantlr4-runtime.so link
#
# Configure with -DPTXOPT_DEPS_DIR=.dev to use it (scripts/gpu-suite.sh does
# when the packages are missing). .dev/ is in .gitignore; it stays well under
# the 64 MiB that a device run may carry. Run on the Debian 12 machine:
#
#   scripts/pack-gpu-deps.sh [dir]        (default: .dev)
set -euo pipefail
. "$(dirname "$0")/env.sh"
DEV=${1:-.dev}
LIBDIR=${LIBDIR:-/usr/lib/x86_64-linux-gnu}
say() { printf '[pack-gpu-deps] %s\n' "$*"; }
need() { [ -e "$1" ] || { say "error: $1 not found ($2)"; exit 1; }; }

need /usr/include/antlr4-runtime/antlr4-runtime.h "apt-get install libantlr4-runtime-dev"
need "$LIBDIR/libantlr4-runtime.so.4.9" "apt-get install libantlr4-runtime-dev"
need /usr/include/nlohmann/json.hpp "apt-get install nlohmann-json3-dev"
need /usr/include/CLI/CLI.hpp "apt-get install libcli11-dev"

rm -rf "$DEV"
mkdir -p "$DEV/generated" "$DEV/include" "$DEV/lib"

# ---- the parser, generated from the grammar as CMakeLists.txt does ----------
if command -v antlr4 >/dev/null; then
  antlr4 -Dlanguage=Cpp -no-listener -no-visitor -package ptxopt::grammar -o "$DEV/generated" -Xexact-output-dir \
    grammar/PtxLexer.g4 grammar/PtxParser.g4
  rm -f "$DEV"/generated/*.interp "$DEV"/generated/*.tokens
else
  BUILD=${BUILD:-build}
  need "$BUILD/generated/PtxParser.cpp" "no antlr4 here: build once with cmake first"
  say "no antlr4: copying $BUILD/generated (it must come from the current grammar)"
  cp "$BUILD"/generated/Ptx{Lexer,Parser}.{cpp,h} "$DEV/generated/"
fi
echo "$(sha256sum grammar/PtxLexer.g4 | cut -d' ' -f1) $(sha256sum grammar/PtxParser.g4 | cut -d' ' -f1)" \
  >"$DEV/generated/grammar.sha256"

# ---- third-party headers and the ANTLR4 runtime library ----------------------
cp -r /usr/include/antlr4-runtime /usr/include/nlohmann /usr/include/CLI "$DEV/include/"
# pybind11 is header-only; without it the GPU build skips the Python module.
if [ -e /usr/include/pybind11/pybind11.h ]; then
  cp -r /usr/include/pybind11 "$DEV/include/"
else
  say "warning: no /usr/include/pybind11 (apt-get install pybind11-dev): the GPU build will skip the Python module"
fi
cp "$LIBDIR/libantlr4-runtime.so.4.9" "$DEV/lib/"
ln -s libantlr4-runtime.so.4.9 "$DEV/lib/libantlr4-runtime.so"

cat >"$DEV/README" <<TXT
Made by scripts/pack-gpu-deps.sh on $(hostname) ($(. /etc/os-release && echo "$PRETTY_NAME")), $(date -u +%F).
Use with: cmake -DPTXOPT_DEPS_DIR=$DEV ...
TXT
say "wrote $DEV ($(du -sh "$DEV" | cut -f1)):"
ls "$DEV"/*
