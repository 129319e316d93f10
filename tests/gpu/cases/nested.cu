// Kernels of the rowwalk pass's differential tests of row walks inside an
// outer loop with one trip count for all (tests/gpu/CasesNested.cpp): the lit
// test's inputs, so the GPU runs exactly the kernels
// tests/lit/rowwalk/nested.test checks.
#include "../../lit/rowwalk/Inputs/nested.cu"
