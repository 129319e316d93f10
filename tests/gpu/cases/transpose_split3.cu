// Kernels of the transpose pass's three-split form (flat NCHW <-> NHWC
// permutes with H and W split apart; tests/gpu/CasesTranspose.cpp,
// "transpose split3"): the lit inputs (tests/lit/transpose/Inputs/split3.cu),
// so the GPU runs exactly the kernels the lit tests check.
#include "../../lit/transpose/Inputs/split3.cu"
