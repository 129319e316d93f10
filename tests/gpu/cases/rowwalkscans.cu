// Kernels of the rowwalk pass's differential tests of scans along a row
// (tests/gpu/CasesRowWalkScans.cpp, "rowwalk scans"): the lit test's
// inputs, so the GPU runs exactly the kernels tests/lit/rowwalk/scans.test
// checks.
#include "../../lit/rowwalk/Inputs/scans.cu"
