// Kernels of group's gather cases (tests/gpu/CasesGroupGathers.cpp): the lit
// test's inputs, so the GPU runs exactly the kernels tests/lit/group checks.
#include "../../lit/group/Inputs/gathers.cu"
// A stencil whose neighbours a select clamps at the border (the sixth held-out
// batch's hotspot step): -O2 refuses its clone merged along y since the
// program ran 0.87x with it; the cases check that the original runs.
#include "../../lit/group/Inputs/clamp-gathers.cu"
