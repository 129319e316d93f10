// Kernels of the transpose pass's flat permutes that split the outer index
// first (tests/gpu/CasesTransposeForms.cpp, "transpose flatrem"): the lit
// inputs (tests/lit/transpose/Inputs/flatrem.cu), so the GPU runs exactly
// the kernels the lit tests check.
#include "../../lit/transpose/Inputs/flatrem.cu"
