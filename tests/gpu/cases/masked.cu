// Kernels of the rowwalk pass's differential tests of masked row walks
// (tests/gpu/CasesMasked.cpp): the lit test's inputs, so the GPU runs
// exactly the kernels tests/lit/rowwalk/masked.test checks.
#include "../../lit/rowwalk/Inputs/masked.cu"
