// Kernels of the transpose pass's flat form with a 64-bit index (size_t and
// int64_t indices divided through nvcc's fast paths; tests/gpu/CasesTranspose.cpp,
// "transpose wide"): the lit inputs (tests/lit/transpose/Inputs/wide.cu), so
// the GPU runs exactly the kernels the lit tests check.
#include "../../lit/transpose/Inputs/wide.cu"
