// Kernels of the pack pass's loop-unrolling differential tests
// (tests/gpu/Cases.cpp): the lit test's inputs, so the GPU runs exactly the
// kernels the lit test checks.
#include "../../lit/pack/Inputs/unroll.cu"
