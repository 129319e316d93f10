// Kernels of the transpose pass's zero-padding transposes
// (tests/gpu/CasesTransposeForms.cpp, "transpose pad"): the lit inputs
// (tests/lit/transpose/Inputs/pad.cu), so the GPU runs exactly the kernels
// the lit tests check.
#include "../../lit/transpose/Inputs/pad.cu"
