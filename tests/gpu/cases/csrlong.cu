// Kernel of the rowwalk pass's differential tests of scalar CSR with a
// rolled `long` index (tests/gpu/CasesCsr.cpp, "csr: long index"): the lit
// test's input, so the GPU runs exactly the kernel
// tests/lit/rowwalk/csr-long.test checks.
#include "../../lit/rowwalk/Inputs/csr-long.cu"
