// Kernels of the pack pass's latch-form differential tests
// (tests/gpu/Cases.cpp): the lit test's inputs.
#include "../../lit/pack/Inputs/latch.cu"
