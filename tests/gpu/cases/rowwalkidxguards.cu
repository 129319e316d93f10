// Kernels of the rowwalk pass's differential tests of rows read under a
// guard on indices (tests/gpu/CasesRowWalkGuards.cpp, "rowwalk idxguards"):
// the lit test's inputs, so the GPU runs exactly the kernels
// tests/lit/rowwalk/idxguards.test checks.
#include "../../lit/rowwalk/Inputs/idxguards.cu"
