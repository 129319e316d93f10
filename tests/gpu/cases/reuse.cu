// Kernels of the reuse pass's differential tests (tests/gpu/Cases.cpp): the
// lit test's inputs, so the GPU runs exactly the kernels the lit test checks.
#include "../../lit/reuse/Inputs/reuse.cu"
