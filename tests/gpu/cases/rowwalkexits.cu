// Kernels of the rowwalk pass's differential tests of loops with early exits
// (tests/gpu/CasesRowWalkExits.cpp): the lit test's inputs, so the GPU runs
// exactly the kernels tests/lit/rowwalk/exits.test checks.
#include "../../lit/rowwalk/Inputs/exits.cu"
