// Kernels of rowwalk's differential tests on loops that also store
// (tests/gpu/CasesRowWalkStores.cpp): the lit test's inputs, so the GPU runs
// exactly the kernels tests/lit/rowwalk/stores.test checks.
#include "../../lit/rowwalk/Inputs/stores.cu"
