// IR verifier: every register used is declared in an enclosing scope (or is a
// special register), every label is defined once per function, and every
// branch target is a label of the same function. Passes run it on their
// output; a clone that fails it is dropped.
#pragma once

#include <vector>

#include "ptxopt/ir/IR.h"
#include "ptxopt/support/Diagnostics.h"

namespace ptxopt {

std::vector<Diagnostic> verifyModule(const ir::Module &m);
std::vector<Diagnostic> verifyFunction(const ir::Module &m, const ir::Function &f);

/// True for %tid.x, %ctaid.y, %laneid, %clock64, %envreg3, ... (PTX ISA 10).
bool isSpecialRegister(std::string_view name);

}  // namespace ptxopt
