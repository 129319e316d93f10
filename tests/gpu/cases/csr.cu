// Kernels of the rowwalk pass's differential tests on scalar CSR sparse
// matrix-vector products (tests/gpu/CasesCsr.cpp): the lit test's inputs, so
// the GPU runs exactly the kernels tests/lit/rowwalk/csr.test checks.
#include "../../lit/rowwalk/Inputs/csr.cu"
