// Shared helpers for the unit tests.
#pragma once

#include <catch2/catch.hpp>
#include <string>

#include "ptxopt/parser/Parser.h"
#include "ptxopt/printer/Printer.h"

inline const char *kHeader = ".version 9.0\n.target sm_90\n.address_size 64\n";

/// Parses `text`, failing the test with the diagnostic when it does not parse.
inline std::unique_ptr<ptxopt::ir::Module> parseOk(const std::string &text) {
  auto r = ptxopt::parsePtx(text, "test.ptx");
  if (r.error) FAIL(ptxopt::formatDiagnostic(*r.error));
  return std::move(r.module);
}

/// Parses `text`, expecting an error; returns it.
inline ptxopt::Diagnostic parseErr(const std::string &text) {
  auto r = ptxopt::parsePtx(text, "test.ptx");
  REQUIRE(r.error.has_value());
  return *r.error;
}

inline const ptxopt::ir::Instruction &nthInstr(const ptxopt::ir::Function &f, size_t n) {
  const ptxopt::ir::Instruction *found = nullptr;
  size_t i = 0;
  ptxopt::ir::forEachStmt(*f.body, [&](const ptxopt::ir::Stmt &s) {
    if (s.kind == ptxopt::ir::Stmt::Kind::Instruction && i++ == n)
      found = static_cast<const ptxopt::ir::Instruction *>(&s);
  });
  REQUIRE(found);
  return *found;
}
