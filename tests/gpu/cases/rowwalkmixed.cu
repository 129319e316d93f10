// Kernels of the rowwalk pass's differential tests of rows that advance by
// different steps (tests/gpu/CasesRowWalkMixed.cpp, "rowwalk mixedsteps"):
// the lit test's inputs, so the GPU runs exactly the kernels
// tests/lit/rowwalk/mixedsteps.test checks.
#include "../../lit/rowwalk/Inputs/mixedsteps.cu"
