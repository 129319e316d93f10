// Kernels of the group pass's if/else differential tests
// (tests/gpu/Cases.cpp): the lit test's inputs.
#include "../../lit/group/Inputs/ifelse.cu"
