// Source positions and diagnostics (see include/ptxopt/support/Diagnostics.h):
// the line table that maps byte offsets to line and column, and the
// `file:line:col: error: message` text with the source line and a caret.
#include "ptxopt/support/Diagnostics.h"

#include <algorithm>
#include <cstring>

namespace ptxopt {

LineTable::LineTable(std::string_view text) : text_(text) {
  starts_.push_back(0);
  // memchr finds the newlines many bytes at a time (a byte loop was 16 M
  // instructions on a 2.7 MB module).
  const char *b = text.data(), *e = b + text.size();
  for (const char *p = b; p < e;) {
    const char *nl = static_cast<const char *>(std::memchr(p, '\n', static_cast<size_t>(e - p)));
    if (!nl) break;
    starts_.push_back(static_cast<uint32_t>(nl - b + 1));
    p = nl + 1;
  }
}

LineTable::Pos LineTable::pos(uint32_t offset) const {
  auto it = std::upper_bound(starts_.begin(), starts_.end(), offset);
  uint32_t line = static_cast<uint32_t>(it - starts_.begin());
  return {line, offset - starts_[line - 1] + 1};
}

std::string_view LineTable::lineText(uint32_t line) const {
  if (line == 0 || line > starts_.size()) return {};
  uint32_t b = starts_[line - 1];
  uint32_t e = line < starts_.size() ? starts_[line] - 1 : static_cast<uint32_t>(text_.size());
  if (e > b && text_[e - 1] == '\r') --e;
  return text_.substr(b, e - b);
}

Diagnostic makeDiagnostic(Severity sev, std::string_view file, std::string_view text,
                          uint32_t offset, std::string message) {
  LineTable lt(text);
  offset = std::min<uint32_t>(offset, static_cast<uint32_t>(text.size()));
  auto p = lt.pos(offset);
  Diagnostic d;
  d.severity = sev;
  d.file = std::string(file);
  d.line = p.line;
  d.col = p.col;
  d.message = std::move(message);
  d.sourceLine = std::string(lt.lineText(p.line));
  return d;
}

static const char *sevName(Severity s) {
  switch (s) {
  case Severity::Error: return "error";
  case Severity::Warning: return "warning";
  case Severity::Remark: return "remark";
  case Severity::Note: return "note";
  }
  return "error";
}

std::string formatDiagnostic(const Diagnostic &d) {
  std::string out = d.file;
  if (d.line) out += ":" + std::to_string(d.line) + ":" + std::to_string(d.col);
  out += std::string(": ") + sevName(d.severity) + ": " + d.message + "\n";
  if (!d.line || d.sourceLine.empty()) return out;
  // Show at most ~100 columns around the caret.
  size_t col = d.col ? d.col - 1 : 0;
  size_t from = col > 60 ? col - 60 : 0;
  std::string_view l = d.sourceLine;
  std::string_view shown = l.substr(std::min(from, l.size()), 120);
  std::string text(shown), caret;
  for (char &c : text)
    if (static_cast<unsigned char>(c) < 0x20 && c != '\t') c = '?';
    else if (static_cast<unsigned char>(c) >= 0x7f) c = '?';
  for (size_t i = from; i < col && i - from < text.size(); ++i) caret += text[i - from] == '\t' ? '\t' : ' ';
  out += (from ? "  ..." : "  ") + text + (from + shown.size() < l.size() ? "...\n" : "\n");
  out += (from ? "     " : "  ") + caret + "^\n";
  return out;
}

}  // namespace ptxopt
