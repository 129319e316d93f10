// Kernels of the rowwalk pass's differential tests through 32-bit indices
// (tests/gpu/CasesRowWalk32.cpp): the lit test's inputs, so the GPU runs exactly
// the kernels tests/lit/rowwalk/index32.test checks.
#include "../../lit/rowwalk/Inputs/rowwalk32.cu"
