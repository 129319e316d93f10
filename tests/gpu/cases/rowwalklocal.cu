// Kernels of the rowwalk pass's differential tests of row walks updating a
// local array indexed by data (tests/gpu/CasesRowWalkLocal.cpp): the lit
// test's inputs, so the GPU runs exactly the kernels
// tests/lit/rowwalk/localrows.test checks.
#include "../../lit/rowwalk/Inputs/localrows.cu"
