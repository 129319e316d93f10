// Kernels of the transpose pass's unrolled loops of load-store pairs
// (tests/gpu/CasesTranspose.cpp, "transpose unrolled"): the lit inputs
// (tests/lit/transpose/Inputs/unrolled.cu), so the GPU runs exactly the
// kernels the lit tests check.
#include "../../lit/transpose/Inputs/unrolled.cu"
