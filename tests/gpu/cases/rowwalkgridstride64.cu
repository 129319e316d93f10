// Kernels of the rowwalk pass's differential tests of row walks inside
// 64-bit grid-stride loops (tests/gpu/CasesRowWalkGridStride.cpp,
// "gridstride 64"): the lit test's inputs, so the GPU runs exactly the
// kernels tests/lit/rowwalk/gridstride64.test checks.
#include "../../lit/rowwalk/Inputs/gridstride64.cu"
