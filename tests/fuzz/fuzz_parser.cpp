// libFuzzer target for the PTX front end (built by -DPTXOPT_FUZZ=ON as
// `fuzz-parser`; scripts/test/fuzz.sh runs it).
//
// For every input that parses:
//   1. lossless printing gives the input back byte for byte;
//   2. the canonical text parses again, and canonicalizing that gives the
//      same bytes (canonical form is a fixed point);
//   3. the verifier runs (its diagnostics are ignored; it must not crash).
// A violated property aborts, so libFuzzer saves the input as a crash.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "ptxopt/ir/Verifier.h"
#include "ptxopt/parser/Parser.h"
#include "ptxopt/printer/Printer.h"
#include "ptxopt/support/Diagnostics.h"

namespace {

/// Prints where `got` first differs from `want`, then aborts.
[[noreturn]] void mismatch(const char *what, std::string_view want, std::string_view got) {
  size_t i = 0;
  while (i < want.size() && i < got.size() && want[i] == got[i]) ++i;
  size_t from = i > 40 ? i - 40 : 0;
  auto show = [&](const char *label, std::string_view s) {
    std::string t(s.substr(std::min(from, s.size()), 100));
    std::fprintf(stderr, "  %-9s (%zu bytes): \"", label, s.size());
    for (unsigned char c : t) {
      if (c == '\n') std::fputs("\\n", stderr);
      else if (c == '\t') std::fputs("\\t", stderr);
      else if (c < 0x20 || c >= 0x7f) std::fprintf(stderr, "\\x%02x", c);
      else std::fputc(c, stderr);
    }
    std::fputs("\"\n", stderr);
  };
  std::fprintf(stderr, "fuzz-parser: %s: first difference at byte %zu (context from byte %zu)\n", what, i,
               from);
  show("expected", want);
  show("got", got);
  std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string input(reinterpret_cast<const char *>(data), size);
  auto parsed = ptxopt::parsePtx(input, "fuzz.ptx");
  if (!parsed.module) return 0;
  const ptxopt::ir::Module &m = *parsed.module;

  std::string lossless = ptxopt::printModule(m, ptxopt::PrintMode::Lossless);
  if (lossless != input) mismatch("lossless print differs from the input", input, lossless);

  std::string canon = ptxopt::printModule(m, ptxopt::PrintMode::Canonical);
  auto reparsed = ptxopt::parsePtx(canon, "canonical.ptx");
  if (!reparsed.module) {
    std::fprintf(stderr, "fuzz-parser: canonical output does not parse:\n%s--- canonical text ---\n%s\n",
                 reparsed.error ? ptxopt::formatDiagnostic(*reparsed.error).c_str() : "(no diagnostic)\n",
                 canon.c_str());
    std::abort();
  }
  std::string canon2 = ptxopt::printModule(*reparsed.module, ptxopt::PrintMode::Canonical);
  if (canon2 != canon) mismatch("canonical form is not a fixed point", canon, canon2);

  (void)ptxopt::verifyModule(m);
  return 0;
}
