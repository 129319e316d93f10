// Kernels of rowwalk's differential tests on rows that do not start 16-byte
// aligned (tests/gpu/CasesRowWalkUnaligned.cpp): the lit test's inputs, so
// the GPU runs exactly the kernels tests/lit/rowwalk/unaligned.test checks.
#include "../../lit/rowwalk/Inputs/unaligned.cu"
