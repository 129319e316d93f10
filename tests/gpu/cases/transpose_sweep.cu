// Kernels of the transpose pass's sweep (tests/gpu/CasesTranspose.cpp): the
// lit sweep's inputs (tests/lit/transpose/Inputs/sweep.cu), so the GPU runs
// exactly the kernels the lit tests check.
#include "../../lit/transpose/Inputs/sweep.cu"
