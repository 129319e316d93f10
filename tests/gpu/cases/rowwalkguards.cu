// Kernels of the rowwalk pass's differential tests of loops with guards
// inside (tests/gpu/CasesRowWalkGuards.cpp): the lit test's inputs, so the
// GPU runs exactly the kernels tests/lit/rowwalk/guards.test checks.
#include "../../lit/rowwalk/Inputs/guards.cu"
