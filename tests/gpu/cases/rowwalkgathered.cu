// Kernels of the rowwalk pass's differential tests of rows whose start the
// kernel loads (tests/gpu/CasesRowWalkGathered.cpp): the
// lit test's inputs, so the GPU runs exactly the kernels
// tests/lit/rowwalk/gathered.test checks.
#include "../../lit/rowwalk/Inputs/gathered.cu"
