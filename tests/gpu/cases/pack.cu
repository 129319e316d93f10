// Kernels of the pack pass's differential tests (tests/gpu/Cases.cpp): the
// lit test's inputs, so the GPU runs exactly the kernels the lit test checks.
#include "../../lit/pack/Inputs/pack.cu"
