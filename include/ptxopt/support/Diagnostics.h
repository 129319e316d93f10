// Source positions and compiler-style diagnostics:
//   file:line:col: error: message
//     <source line>
//     ^
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace ptxopt {

/// Maps byte offsets of a text to 1-based line and column numbers.
class LineTable {
public:
  explicit LineTable(std::string_view text);
  struct Pos { uint32_t line, col; };
  Pos pos(uint32_t offset) const;
  /// The text of 1-based line `line`, without its newline.
  std::string_view lineText(uint32_t line) const;

private:
  std::string_view text_;
  std::vector<uint32_t> starts_;
};

enum class Severity { Error, Warning, Remark, Note };

struct Diagnostic {
  Severity severity = Severity::Error;
  std::string file;
  uint32_t line = 0, col = 0;  // 0: no position
  std::string message;
  std::string sourceLine;  // may be empty
};

/// Builds a diagnostic at byte `offset` of `text`.
Diagnostic makeDiagnostic(Severity sev, std::string_view file, std::string_view text,
                          uint32_t offset, std::string message);

/// "file:line:col: error: message\n  line\n  ^\n". Long lines are cut to a
/// window around the column; control bytes are shown as '?'.
std::string formatDiagnostic(const Diagnostic &d);

}  // namespace ptxopt
