// Kernels of rowwalk's differential tests on rows read as vectors
// (tests/gpu/CasesRowWalkVec.cpp): the lit test's inputs, so the GPU runs
// exactly the kernels tests/lit/rowwalk/vec.test checks.
#include "../../lit/rowwalk/Inputs/vec.cu"
