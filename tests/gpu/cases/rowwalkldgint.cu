// Kernels of the rowwalk pass's row walks through __ldg with 32-bit
// indices (tests/gpu/CasesRowWalkSweep.cpp, addRowWalkLdg): the lit test's
// inputs, so the GPU runs exactly the kernels tests/lit/rowwalk/ldg-int.test
// checks.
#include "../../lit/rowwalk/Inputs/ldg-int.cu"
