// Kernels of the pack pass's differential tests on nested { } scopes
// (tests/gpu/Cases.cpp, addHalf): the lit test's inputs, so the GPU runs
// exactly the kernels tests/lit/pack/half.test checks.
#include "../../lit/pack/Inputs/half.cu"
