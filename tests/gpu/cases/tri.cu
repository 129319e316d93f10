// Kernels of the rowwalk pass's differential tests of triangular row walks
// (tests/gpu/CasesTri.cpp): the lit test's inputs, so the GPU runs exactly
// the kernels tests/lit/rowwalk/tri.test checks.
#include "../../lit/rowwalk/Inputs/tri.cu"
