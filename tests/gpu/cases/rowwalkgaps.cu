// Kernels of the rowwalk pass's differential tests of rows read with gaps
// (tests/gpu/CasesRowWalkGaps.cpp): the lit test's inputs, so the GPU runs
// exactly the kernels tests/lit/rowwalk/gaps.test checks.
#include "../../lit/rowwalk/Inputs/gaps.cu"
