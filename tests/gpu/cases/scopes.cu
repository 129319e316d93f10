// Kernels of the rowwalk pass's row walks with nested { } scopes (the
// inline asm of cuda_fp16.h and cuda_bf16.h; tests/gpu/CasesRowWalkShort.cpp,
// addRowWalkScopes): the lit test's inputs, so the GPU runs exactly the
// kernels tests/lit/rowwalk/scopes.test checks.
#include "../../lit/rowwalk/Inputs/scopes.cu"
