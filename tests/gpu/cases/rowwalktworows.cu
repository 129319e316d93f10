// Kernels of rowwalk's two rows at one index (tests/gpu/CasesRowWalkSweep.cpp,
// "rowwalk tworows"): the lit inputs (tests/lit/rowwalk/Inputs/tworows.cu).
#include "../../lit/rowwalk/Inputs/tworows.cu"
