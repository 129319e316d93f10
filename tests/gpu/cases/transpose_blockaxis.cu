// Kernels of the transpose pass's 1-D blocks whose grid walks the other
// axis (tests/gpu/CasesTranspose.cpp, "transpose blockaxis"): the lit
// inputs (tests/lit/transpose/Inputs/blockaxis.cu), so the GPU runs exactly
// the kernels the lit tests check.
#include "../../lit/transpose/Inputs/blockaxis.cu"
