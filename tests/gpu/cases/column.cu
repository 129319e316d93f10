// Kernels of pack's column-walk differential cases (tests/gpu/CasesPackColumn.cpp):
// the lit test's inputs, so the GPU runs exactly the kernels tests/lit/pack/column.test checks.
#include "../../lit/pack/Inputs/column.cu"
