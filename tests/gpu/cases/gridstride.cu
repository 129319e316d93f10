// Kernels of the group pass's grid-stride loop differential tests
// (tests/gpu/Cases.cpp): the lit test's inputs.
#include "../../lit/group/Inputs/gridstride.cu"
