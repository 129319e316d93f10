// Kernels of the rowwalk pass's differential tests of rows whose distance
// apart the kernel divides out of a parameter (tests/gpu/CasesRowWalkRowDiv.cpp):
// the lit test's inputs, so the GPU runs exactly the kernels
// tests/lit/rowwalk/rowdiv.test checks.
#include "../../lit/rowwalk/Inputs/rowdiv.cu"
