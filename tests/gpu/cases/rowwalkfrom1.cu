// Kernels of the rowwalk pass's differential tests of rows walked through a
// 32-bit index from past their first element (tests/gpu/CasesRowWalkScans.cpp,
// "rowwalk from1"): the lit test's inputs, so the GPU runs exactly the
// kernels tests/lit/rowwalk/index32from1.test checks.
#include "../../lit/rowwalk/Inputs/index32from1.cu"
