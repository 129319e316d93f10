// Kernels of the rowwalk pass's differential tests of stores along the
// walked rows (tests/gpu/CasesRowWalkStores.cpp, "rowwalk rowstores"): the
// lit test's inputs, so the GPU runs exactly the kernels
// tests/lit/rowwalk/rowstores.test checks.
#include "../../lit/rowwalk/Inputs/rowstores.cu"
