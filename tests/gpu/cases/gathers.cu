// Kernels of group's gather cases (tests/gpu/CasesGroupGathers.cpp): the lit
// test's inputs, so the GPU runs exactly the kernels tests/lit/group checks.
#include "../../lit/group/Inputs/gathers.cu"
