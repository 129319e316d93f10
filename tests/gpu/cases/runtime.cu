// Kernels of the pack pass's runtime-size differential tests
// (tests/gpu/Cases.cpp): the lit test's inputs (sizes from parameters).
#include "../../lit/pack/Inputs/runtime.cu"
