// Kernels of the rowwalk pass's differential tests of triangular walks
// through 64-bit counters (tests/gpu/CasesTri.cpp, "tri 64"): the lit
// test's inputs, so the GPU runs exactly the kernels
// tests/lit/rowwalk/tri64.test checks.
#include "../../lit/rowwalk/Inputs/tri64.cu"
