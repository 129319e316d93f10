// Kernels of the rowwalk pass's differential tests of row walks inside a
// grid-stride loop over rows (tests/gpu/CasesRowWalkGridStride.cpp): the lit test's
// inputs, so the GPU runs exactly the kernels
// tests/lit/rowwalk/gridstride.test checks.
#include "../../lit/rowwalk/Inputs/gridstride.cu"
