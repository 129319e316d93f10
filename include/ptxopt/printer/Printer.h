// IR -> PTX text.
//
// Lossless (default): every node that still has its source span and was not
// edited prints as its original bytes, trivia (whitespace, comments) included;
// an untouched module prints back byte for byte. Edited nodes print from the
// IR in canonical form, surrounded by the original trivia.
//
// Canonical: every node prints from the IR in one fixed layout (tabs for
// indentation, one statement per line, ", " between operands, no comments).
// Two inputs that differ only in whitespace and comments canonicalize to the
// same bytes, and ptxas builds the same cubin from the input and its
// canonical form.
#pragma once

#include <string>

#include "ptxopt/ir/IR.h"

namespace ptxopt {

enum class PrintMode { Lossless, Canonical };

std::string printModule(const ir::Module &m, PrintMode mode = PrintMode::Lossless);

// Canonical text of single nodes (no trailing newline, no indentation).
std::string printOperand(const ir::Operand &o);
std::string printStmt(const ir::Stmt &s);
std::string printFunctionHeader(const ir::Function &f);

}  // namespace ptxopt
