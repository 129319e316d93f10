// Kernels of the rowwalk pass's differential tests of triangular row walks
// through `unsigned` counters and `<=` bounds (tests/gpu/CasesTri.cpp): the
// lit test's inputs, so the GPU runs exactly the kernels
// tests/lit/rowwalk/tri-u32.test checks.
#include "../../lit/rowwalk/Inputs/tri_u32.cu"
