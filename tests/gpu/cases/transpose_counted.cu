// Kernels of the transpose pass's traced grid-stride loops with a 64-bit
// counter (PyTorch's CUDA_KERNEL_LOOP, int64_t and size_t loops;
// tests/gpu/CasesTranspose.cpp, "transpose counted"): the lit inputs
// (tests/lit/transpose/Inputs/counted.cu), so the GPU runs exactly the
// kernels the lit tests check.
#include "../../lit/transpose/Inputs/counted.cu"
