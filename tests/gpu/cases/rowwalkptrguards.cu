// Kernels of the rowwalk pass's differential tests of pointer walks whose
// body branches (tests/gpu/CasesRowWalkPtrGuards.cpp): the lit test's
// inputs, so the GPU runs exactly the kernels
// tests/lit/rowwalk/ptrguards.test checks.
#include "../../lit/rowwalk/Inputs/ptrguards.cu"
