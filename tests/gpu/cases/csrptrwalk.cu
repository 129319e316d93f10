// Kernels of the rowwalk pass's differential tests of scalar CSR walked by
// pointer (tests/gpu/CasesCsr.cpp, "csr: pointer walk"): the lit test's
// inputs, so the GPU runs exactly the kernels
// tests/lit/rowwalk/csr-ptrwalk.test checks.
#include "../../lit/rowwalk/Inputs/csr-ptrwalk.cu"
