// Kernels of the group pass's per-thread local array differential tests
// (tests/gpu/Cases.cpp): the lit test's inputs.
#include "../../lit/group/Inputs/local.cu"
