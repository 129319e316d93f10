// Kernels of the transpose pass's differential tests (tests/gpu/Cases.cpp):
// the lit test's inputs, so the GPU runs exactly the kernels the lit test checks.
#include "../../lit/transpose/Inputs/transpose.cu"
