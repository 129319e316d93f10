// Kernels of the rowwalk pass's row walks nvcc does not unroll
// (tests/gpu/CasesRowWalkSweep.cpp, addRowWalkNoUnroll): the lit test's
// inputs, so the GPU runs exactly the kernels tests/lit/rowwalk/nounroll.test checks.
#include "../../lit/rowwalk/Inputs/nounroll.cu"
