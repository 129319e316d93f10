// Kernels of the rowwalk pass's differential tests of rows of 12- and
// 24-byte elements (tests/gpu/CasesRowWalkTriple.cpp): the lit test's
// inputs, so the GPU runs exactly the kernels tests/lit/rowwalk/triple.test
// checks.
#include "../../lit/rowwalk/Inputs/triple.cu"
