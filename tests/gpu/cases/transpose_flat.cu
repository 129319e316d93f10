// Kernels of the transpose pass's flat form (1-D launches indexing with `/`
// and `%`; tests/gpu/CasesTranspose.cpp, "transpose flat"): the lit inputs
// (tests/lit/transpose/Inputs/flat.cu), so the GPU runs exactly the kernels
// the lit tests check.
#include "../../lit/transpose/Inputs/flat.cu"
