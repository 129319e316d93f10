// Kernels of the rowwalk pass's rotated loops (constant trip counts that
// are not a multiple of nvcc's unroll factor; clone::peelRotatedLoops,
// tests/gpu/CasesRowWalkSweep.cpp, addRowWalkRotated): the lit test's
// inputs, so the GPU runs exactly the kernels tests/lit/rowwalk/rotated.test
// checks.
#include "../../lit/rowwalk/Inputs/rotated.cu"
