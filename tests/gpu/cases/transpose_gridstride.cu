// Kernels of the transpose pass written as grid-stride loops
// (tests/gpu/CasesTranspose.cpp, "transpose gridstride"): the lit inputs
// (tests/lit/transpose/Inputs/gridstride.cu), so the GPU runs exactly the
// kernels the lit tests check.
#include "../../lit/transpose/Inputs/gridstride.cu"
// Loops whose body can leave them (a break, a return: no loop clone).
#include "../../lit/transpose/Inputs/gridstride-exit.cu"
