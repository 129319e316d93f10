// Kernels of the rowwalk pass's row walks through __ldg (tests/gpu/CasesRowWalkSweep.cpp,
// addRowWalkLdg): the lit test's inputs, so the GPU runs exactly the kernels
// tests/lit/rowwalk/ldg.test checks.
#include "../../lit/rowwalk/Inputs/ldg.cu"
