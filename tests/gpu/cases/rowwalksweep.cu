// Kernels of the rowwalk pass's coverage sweep (tests/gpu/CasesRowWalkSweep.cpp):
// the lit test's input, so the GPU runs exactly the kernels
// tests/lit/rowwalk/sweep.test checks.
#include "../../lit/rowwalk/Inputs/sweep.cu"
