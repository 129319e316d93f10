// Kernels of the rowwalk pass's differential tests of row walks sized by
// struct fields (tests/gpu/CasesRowWalkStruct.cpp): the lit test's inputs,
// so the GPU runs exactly the kernels tests/lit/rowwalk/structparam.test
// checks.
#include "../../lit/rowwalk/Inputs/structparam.cu"
