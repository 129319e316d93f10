// Kernels of the group pass's atomics differential tests
// (tests/gpu/Cases.cpp): the lit test's inputs.
#include "../../lit/group/Inputs/atomics.cu"
