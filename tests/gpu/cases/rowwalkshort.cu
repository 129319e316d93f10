// Kernels of the rowwalk pass's differential tests on rows of 8- and 16-bit
// elements (tests/gpu/CasesRowWalkShort.cpp): the lit test's inputs, so the
// GPU runs exactly the kernels tests/lit/rowwalk/short.test checks.
#include "../../lit/rowwalk/Inputs/rowwalk-short.cu"
