// Kernels of the group pass's 16-bit floating-point differential tests
// (tests/gpu/Cases.cpp): the lit test's inputs, so the GPU runs exactly the
// kernels the lit test checks (their inline-asm arithmetic comes as nested
// { } blocks, repeated per logical thread).
#include "../../lit/group/Inputs/half.cu"
