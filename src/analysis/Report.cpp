// Text, JSON and Graphviz output of the analyses (see Report.h).
#include "ptxopt/analysis/Report.h"

#include <array>
#include <charconv>
#include <cstring>
#include <optional>
#include <stdexcept>
#include <type_traits>

#include <nlohmann/json.hpp>

#include "ptxopt/analysis/FloatRange.h"
#include "ptxopt/printer/Printer.h"
#include "ptxopt/support/Diagnostics.h"

namespace ptxopt::analysis {

using ir::Function;
using ir::Module;

namespace {

const char *accessKind(MemAccess::Kind k) {
  switch (k) {
  case MemAccess::Kind::Load: return "load";
  case MemAccess::Kind::Store: return "store";
  case MemAccess::Kind::Atomic: return "atomic";
  case MemAccess::Kind::Reduction: return "reduction";
  case MemAccess::Kind::Prefetch: return "prefetch";
  }
  return "?";
}

std::vector<const Function *> bodies(const Module &m, bool kernelsOnly) {
  std::vector<const Function *> out;
  for (const auto &it : m.items)
    if (it.kind == ir::Item::Kind::Function && it.function->body && (!kernelsOnly || it.function->isEntry))
      out.push_back(it.function.get());
  return out;
}

/// "start + step*k<loop>" as one polynomial.
std::string ivText(AffineAnalysis &aff, const InductionVar &iv) {
  Symbol k{Symbol::Kind::LoopCounter};
  k.loop = iv.loop;
  Poly t, v;
  if (!Poly::mul(iv.step, Poly::symbol(aff.symbolId(k)), t) || !Poly::add(iv.init, t, v)) return "?";
  return aff.str(v);
}

// PTX line numbers for the report; built once per report.
struct Lines {
  explicit Lines(const Module &m) : table(m.lines()) {}
  const LineTable &table;  // the module's
  /// "line N" of a statement, "(synthesized)" without a place in the input.
  void of(std::string &out, const ir::Stmt *s) const {
    if (!s || !s->span.valid()) {
      out += "(synthesized)";
      return;
    }
    out += "line ";
    appendNumber(out, table.pos(s->span.begin).line);
  }
  template <typename Int> static void appendNumber(std::string &out, Int v) {
    char buf[24];
    auto r = std::to_chars(buf, buf + sizeof buf, v);
    out.append(buf, r.ptr);
  }
};

/// "file.cu:12:3 (PTX line 40)", or "PTX line 40" without a .loc: appended
/// to `out` (the report asks once per access, fact and branch).
void appendWhere(std::string &out, const Module &m, const Lines &lines, const CFG &cfg, uint32_t instr) {
  SourceLoc loc = sourceLocation(m, cfg, instr);
  if (loc.line) {
    out += loc.file.empty() ? std::string_view("<unknown>") : loc.file;
    out += ':';
    Lines::appendNumber(out, loc.line);
    out += ':';
    Lines::appendNumber(out, loc.col);
    out += " (PTX ";
  } else {
    out += "PTX ";
  }
  lines.of(out, cfg.instructions()[instr]);
  if (loc.line) out += ')';
}

/// Where a communication fact's statement is.
void appendLocOfFact(std::string &out, const Module &m, const Lines &lines, AnalysisManager &am, const CommFact &c) {
  if (c.stmt->kind == ir::Stmt::Kind::Instruction) {
    const CFG &cfg = am.get(*c.function).cfg();
    // The finder numbered it as the CFG does (a search for it sorted every instruction of the function).
    uint32_t i = c.instr < cfg.instructions().size() && cfg.instructions()[c.instr] == c.stmt
                     ? c.instr
                     : cfg.indexOf(static_cast<const ir::Instruction *>(c.stmt));
    if (i != UINT32_MAX) return appendWhere(out, m, lines, cfg, i);
  }
  out += "PTX ";
  lines.of(out, c.stmt);
}

}  // namespace

size_t utf8Length(std::string_view s, size_t i) {
  const auto *p = reinterpret_cast<const unsigned char *>(s.data());
  const size_t n = s.size();
  unsigned char c = p[i];
  if (c < 0x80) return 1;
  size_t len = c >= 0xC2 && c <= 0xDF ? 2 : c >= 0xE0 && c <= 0xEF ? 3 : c >= 0xF0 && c <= 0xF4 ? 4 : 0;
  bool ok = len && i + len <= n;
  for (size_t k = 1; ok && k < len; ++k) ok = (p[i + k] & 0xC0) == 0x80;
  if (ok && len == 3) ok = !(c == 0xE0 && p[i + 1] < 0xA0) && !(c == 0xED && p[i + 1] >= 0xA0);  // overlong, surrogates
  if (ok && len == 4) ok = !(c == 0xF0 && p[i + 1] < 0x90) && !(c == 0xF4 && p[i + 1] >= 0x90);  // overlong, > U+10FFFF
  return ok ? len : 0;
}

std::string tripUniformText(UniformLevel l) {
  switch (l) {
  case UniformLevel::Grid: return "the same for every thread";
  case UniformLevel::Block: return "the same within a block (depends on %ctaid)";
  case UniformLevel::Thread: break;
  }
  return "may differ by thread";
}

bool reportedAccess(const AccessInfo &a) { return a.mem.space == ".global" || a.mem.space.empty(); }

size_t Coverage::count(AccessInfo::Verdict v) const {
  auto it = verdicts.find(v);
  return it == verdicts.end() ? 0 : it->second;
}

void Coverage::add(const AccessInfo &a) {
  if (!reportedAccess(a)) {
    ++otherSpaces;
    return;
  }
  ++accesses;
  ++verdicts[a.verdict];
  if (a.verdict == AccessInfo::Verdict::Unknown) ++unknownCauses[a.cause];
}

void Coverage::add(const Coverage &c) {
  accesses += c.accesses;
  otherSpaces += c.otherSpaces;
  for (const auto &[v, n] : c.verdicts) verdicts[v] += n;
  for (const auto &[k, n] : c.unknownCauses) unknownCauses[k] += n;
}

std::string Coverage::verdictText() const {
  using V = AccessInfo::Verdict;
  return std::to_string(accesses) + " (" + std::to_string(count(V::Coalesced)) + " coalesced, " +
         std::to_string(count(V::Uniform)) + " uniform, " + std::to_string(count(V::Uncoalesced)) + " uncoalesced, " +
         std::to_string(count(V::Unknown)) + " unknown)";
}

std::string Coverage::causeText() const {
  std::string out;
  for (const auto &[cause, n] : unknownCauses)
    if (n) out += (out.empty() ? "" : ", ") + std::to_string(n) + " " + causeName(cause);
  return out;
}

nlohmann::json coverageJson(const Coverage &c) {
  using nlohmann::json;
  json verdicts = json::object();
  for (auto v : {AccessInfo::Verdict::Coalesced, AccessInfo::Verdict::Uniform, AccessInfo::Verdict::Uncoalesced,
                 AccessInfo::Verdict::Unknown})
    verdicts[verdictName(v)] = c.count(v);
  json causes = json::object();
  for (const auto &[cause, n] : c.unknownCauses) causes[causeName(cause)] = n;
  return {{"accesses", c.accesses}, {"verdicts", verdicts}, {"unknown_causes", causes}, {"other_spaces", c.otherSpaces}};
}

std::vector<KernelCoverage> moduleCoverage(const Module &m, AnalysisManager &am, Coverage *total) {
  std::vector<KernelCoverage> out;
  for (const Function *k : bodies(m, true)) {
    KernelCoverage kc{std::string(k->name), {}};
    for (const auto &a : am.get(*k).accesses()) kc.coverage.add(a);
    if (total) total->add(kc.coverage);
    out.push_back(std::move(kc));
  }
  return out;
}

std::string coverageStats(const Module &m, AnalysisManager &am) {
  Coverage total;
  auto kernels = moduleCoverage(m, am, &total);
  std::string out;
  auto lines = [&](const std::string &what, const Coverage &c) {
    out += "coverage of " + what + ": global accesses: " + c.verdictText() + "\n";
    if (auto causes = c.causeText(); !causes.empty())
      out += "coverage of " + what + ": unknown by cause: " + causes + "\n";
  };
  for (const auto &k : kernels) lines("kernel " + k.kernel, k.coverage);
  lines("the module (" + std::to_string(kernels.size()) + " kernel" + (kernels.size() == 1 ? "" : "s") + ")", total);
  return out;
}

namespace {

/// An access's lines of the text report: opcode and place, verdict, cause,
/// address, strides, sectors, alignment, notes.
void appendAccessText(std::string &out, const Module &m, const Lines &lines, FunctionAnalyses &fa,
                      const AccessInfo &a) {
  const CFG &cfg = fa.cfg();
  auto number = [&](auto v) { Lines::appendNumber(out, v); };
  const auto &in = *cfg.instructions()[a.instr];
  out += "  ";
  out += in.opcode;
  out += "  ";
  appendWhere(out, m, lines, cfg, a.instr);
  out += "  ";
  number(a.mem.bytes());
  out += " B\n    verdict  ";
  out += verdictName(a.verdict);
  if (!a.reason.empty()) {
    out += ": ";
    out += a.reason;
  }
  if (!a.unitStrideOn.empty()) {
    out += "; would be unit-stride on ";
    out += a.unitStrideOn;
  }
  out += "\n";
  if (a.verdict == AccessInfo::Verdict::Unknown) {
    out += "    cause    ";
    out += causeName(a.cause);
    out += "\n";
  }
  out += "    address  ";
  out += fa.affine().str(a.address);
  out += "\n";
  if (!a.strides.empty()) {
    out += "    strides ";
    for (size_t i = 0; i < a.strides.size(); ++i) {
      out += i ? ", " : " ";
      out += a.strides[i].var;
      out += ": ";
      out += a.strides[i].bytes;
      out += " B";
    }
    if (a.unroll) {
      out += "; loop unrolled ";
      number(a.unroll);
      out += " times: ";
      out += a.elementStride->bytes;
      out += " B per element on ";
      out += a.elementStride->var;
    }
    out += "\n";
  }
  if (a.sectors) {
    out += "    sectors  ";
    number(*a.sectors);
    out += " per warp request (ideal ";
    number(a.idealSectors);
    out += ")\n";
  }
  if (a.address.known) {
    out += "    align    base ";
    out += a.baseAlign;
    out += "; offset multiple of ";
    if (a.offsetAlign) number(a.offsetAlign);
    else out += "any";
    out += "\n";
  }
  for (const auto &note : a.notes) {
    out += "    note     ";
    out += note;
    out += "\n";
  }
}

/// A kernel's facts after its accesses in the text report: its loops with
/// their induction variables, the communication that blocks regrouping
/// threads, the divergent branches.
void appendKernelFactsText(std::string &out, const Module &m, const Lines &lines, AnalysisManager &am,
                           const Function *k) {
  FunctionAnalyses &fa = am.get(*k);
  const CFG &cfg = fa.cfg();
  auto number = [&](auto v) { Lines::appendNumber(out, v); };
  const auto &loops = fa.loops().loops();
  const auto &ivs = fa.affine().inductionVars();
  for (const auto &l : loops) {
    out += "  loop ";
    number(l.id);
    out += " at ";
    out += blockName(cfg, l.header);
    out += " (depth ";
    number(l.depth);
    out += ")";
    bool any = false;
    for (const auto &iv : ivs) {
      if (iv.loop != l.id) continue;
      out += any ? ", " : ": ";
      out += iv.reg;
      out += " = ";
      out += ivText(fa.affine(), iv);
      if (!iv.tripCount.empty()) {
        out += ", ";
        out += iv.tripCount;
        out += " iterations";
      }
      any = true;
    }
    out += any ? "; trip count " : ": trip count ";
    out += tripUniformText(fa.affine().tripCountUniformity(l.id));
    out += "\n";
  }
  const auto &comm = fa.communication();
  if (comm.empty()) {
    out += "  communication: none found (threads may be regrouped)\n";
  } else {
    out += "  communication (blocks regrouping threads):\n";
    for (const auto &c : comm) {
      out += "    ";
      out += kindName(c.kind);
      out += ": ";
      out += c.what;
      out += " at ";
      appendLocOfFact(out, m, lines, am, c);
      if (c.function != k) {
        out += " in ";
        out += c.function->name;
      }
      out += "\n";
    }
  }
  for (const auto &d : fa.divergence()) {
    out += "  divergent branch: ";
    out += printStmt(*cfg.instructions()[d.instr]);
    out += " at ";
    appendWhere(out, m, lines, cfg, d.instr);
    out += d.certain ? " depends on " : " may depend on the thread: ";
    out += d.why;
    out += "\n";
  }
}

}  // namespace

std::string reportText(const Module &m, AnalysisManager &am) {
  std::string out;
  // The report is shorter than the PTX it describes (a line per access and
  // fact against a line per instruction): one buffer of that size, not a
  // copy of the whole text at every doubling.
  out.reserve(m.source().size());
  Lines lines(m);
  auto kernels = bodies(m, true);
  // The kernels' sections first, each kernel's analyses freed once its
  // section is written (the next kernel's reuse their memory: a report of
  // the 2.6 MB CCCL module peaked at 44 MB with all kept, against 25 MB for
  // parse + print, and the page faults of that memory cost more than the
  // frees); the module's header, which sums them, goes in front at the end.
  Coverage total;
  for (size_t ki = 0; ki < kernels.size(); ++ki) {
    const Function *k = kernels[ki];
    FunctionAnalyses &fa = am.get(*k);
    const auto &acc = fa.accesses();
    Coverage cov;
    for (const auto &a : acc) cov.add(a);
    total.add(cov);
    // Appended piece by piece (a temporary string per piece was a few
    // allocations per access).
    auto number = [&](auto v) { Lines::appendNumber(out, v); };
    out += "\nkernel ";
    out += k->name;
    out += "\n  global accesses: ";
    out += cov.verdictText();
    if (cov.otherSpaces) {
      out += "; ";
      number(cov.otherSpaces);
      out += " shared/local/const not listed";
    }
    out += "\n";
    if (auto causes = cov.causeText(); !causes.empty()) {
      out += "  unknown by cause: ";
      out += causes;
      out += "\n";
    }
    for (const auto &a : acc)
      if (reportedAccess(a)) appendAccessText(out, m, lines, fa, a);
    appendKernelFactsText(out, m, lines, am, k);
    am.invalidate(*k);
  }
  std::string head = "ptx-opt analysis of " + m.fileName() + ": " + std::to_string(kernels.size()) + " kernel" +
                     (kernels.size() == 1 ? "" : "s") + "\n";
  head += "global accesses in all kernels: " + total.verdictText() + "\n";
  if (auto causes = total.causeText(); !causes.empty()) head += "unknown by cause: " + causes + "\n";
  out.insert(0, head);
  return out;
}

namespace {

/// Writes JSON text as it goes, in the layout of nlohmann::json::dump(2)
/// (what the JSON report was built with): two-space indents, "key": value,
/// keys of an object in increasing byte order (std::map's), [] and {} for
/// empty containers. A report of a 2.7 MB module is 5.8 MB of JSON: building
/// the document as nlohmann objects (a map node and strings per field) cost
/// 4x the analyses. Keys are written by the caller in sorted order; out of
/// order is a programming error and throws.
class JsonWriter {
public:
  /// `depth`: the nesting of what is written inside the document it goes
  /// into (its indentation), for a value written apart and placed there.
  explicit JsonWriter(std::string &out, size_t depth = 0) : out_(out), depth_(depth) {}
  void beginObject() { open('{', true); }
  void endObject() { close('}'); }
  void beginArray() { open('[', false); }
  void endArray() { close(']'); }
  JsonWriter &key(std::string_view k) {
    Frame &f = stack_.back();
    if (!f.object) throw std::logic_error("JSON key in an array");
    if (!f.empty && !keyBefore(f.lastKey, k)) throw std::logic_error("JSON keys out of order: " + std::string(k));
    f.lastKey = k;
    separate(f);
    // Keys are the report's own names (ASCII, nothing to escape): written
    // as they are (the escaping scan was a third of the writer's cost).
    out_ += '"';
    out_ += k;
    out_.append("\": ", 3);
    return *this;
  }
  void value(std::string_view v) {
    element();
    string(v);
  }
  void value(const char *v) { value(std::string_view(v)); }
  void value(const std::string &v) { value(std::string_view(v)); }
  void value(bool v) {
    element();
    out_ += v ? "true" : "false";
  }
  void value(std::nullptr_t) {
    element();
    out_ += "null";
  }
  template <typename T, typename = std::enable_if_t<std::is_integral_v<T> && !std::is_same_v<T, bool>>>
  void value(T v) {
    element();
    char buf[24];
    auto r = std::to_chars(buf, buf + sizeof buf, v);
    out_.append(buf, r.ptr);
  }
  template <typename T> void value(const std::optional<T> &v) {
    if (v) value(*v);
    else value(nullptr);
  }
  void value(const std::vector<std::string> &v) {
    beginArray();
    for (const auto &x : v) value(x);
    endArray();
  }

private:
  struct Frame {
    bool object, empty = true;
    std::string_view lastKey;
  };
  void open(char c, bool object) {
    element();
    out_ += c;
    stack_.push_back({object, true, {}});
  }
  void close(char c) {
    bool empty = stack_.back().empty;
    stack_.pop_back();
    if (!empty) {
      out_ += '\n';
      out_.append(2 * (depth_ + stack_.size()), ' ');
    }
    out_ += c;
  }
  /// a < b, by the first bytes when they differ (they mostly do: a
  /// comparison call per key was 3% of the writer).
  static bool keyBefore(std::string_view a, std::string_view b) {
    if (!a.empty() && !b.empty() && a[0] != b[0])
      return static_cast<unsigned char>(a[0]) < static_cast<unsigned char>(b[0]);
    return a < b;
  }
  /// "\n" or ",\n" and the indentation, as one piece.
  void separate(Frame &f) {
    static constexpr std::string_view breaks = ",\n                                                                ";
    static_assert(breaks.size() == 2 + 64);
    const size_t from = f.empty ? 1 : 0, indent = 2 * (depth_ + stack_.size());
    f.empty = false;
    if (indent <= 64) {
      out_.append(breaks.data() + from, 2 - from + indent);
    } else {
      out_.append(breaks.data() + from, 2 - from);
      out_.append(indent, ' ');
    }
  }
  /// Before a value: its place in an array (an object's key placed it already).
  void element() {
    if (!stack_.empty() && !stack_.back().object) separate(stack_.back());
  }
  /// The end of the run of bytes from p[i] that are copied as they are
  /// (printable ASCII but '"' and '\\'). Eight bytes at a time while none
  /// of them can be another (the reports are megabytes of such text: a
  /// table look-up per byte was the writer's largest cost), then by the table.
  static size_t plainRun(const unsigned char *p, size_t i, size_t n) {
    static const auto plain = [] {
      std::array<bool, 256> t{};
      for (int b = 0x20; b < 0x80; ++b) t[b] = b != '"' && b != '\\';
      return t;
    }();
    constexpr uint64_t ones = 0x0101010101010101ull, highs = 0x8080808080808080ull;
    // (x - ones) & ~x has the high bit of each zero byte of x set (and maybe
    // of bytes above one, which only ends the fast part early).
    auto zeroByte = [&](uint64_t x) { return (x - ones) & ~x; };
    for (; i + 8 <= n; i += 8) {
      uint64_t w;
      std::memcpy(&w, p + i, 8);
      const uint64_t below20 = (w - 0x20 * ones) & ~w;  // bytes < 0x20 (those >= 0x80 by w itself)
      if ((below20 | zeroByte(w ^ ('"' * ones)) | zeroByte(w ^ ('\\' * ones)) | w) & highs) break;
    }
    while (i < n && plain[p[i]]) ++i;
    return i;
  }
  /// nlohmann's escapes (ensure_ascii off): \" \\ \b \f \n \r \t, \u00xx for
  /// other control bytes, valid UTF-8 as is; an invalid byte becomes U+FFFD
  /// (nlohmann threw: PTX names are ASCII, a .file path might not be UTF-8).
  void string(std::string_view s) {
    out_ += '"';
    const auto *p = reinterpret_cast<const unsigned char *>(s.data());
    const size_t n = s.size();
    for (size_t i = 0; i < n;) {
      unsigned char c = p[i];
      if (size_t j = plainRun(p, i, n); j > i) {
        out_.append(s.data() + i, j - i);
        i = j;
        continue;
      }
      if (c < 0x80) {
        switch (c) {
        case '"': out_ += "\\\""; break;
        case '\\': out_ += "\\\\"; break;
        case '\b': out_ += "\\b"; break;
        case '\f': out_ += "\\f"; break;
        case '\n': out_ += "\\n"; break;
        case '\r': out_ += "\\r"; break;
        case '\t': out_ += "\\t"; break;
        default: {
          static const char hex[] = "0123456789abcdef";
          out_ += "\\u00";
          out_ += hex[c >> 4];
          out_ += hex[c & 15];
        }
        }
        ++i;
        continue;
      }
      size_t len = utf8Length(s, i);
      if (!len) {
        out_ += "\xEF\xBF\xBD";
        ++i;
        continue;
      }
      out_.append(s.data() + i, len);
      i += len;
    }
    out_ += '"';
  }

  std::string &out_;
  size_t depth_;
  std::vector<Frame> stack_;
};

/// The "coverage" object of the JSON report (coverageJson's, written as it goes).
void writeCoverage(JsonWriter &w, const Coverage &c) {
  w.beginObject();
  w.key("accesses").value(c.accesses);
  w.key("other_spaces").value(c.otherSpaces);
  w.key("unknown_causes").beginObject();
  std::map<std::string_view, size_t> causes;  // by name, as a JSON object orders them
  for (const auto &[cause, n] : c.unknownCauses) causes[causeName(cause)] = n;
  for (const auto &[name, n] : causes) w.key(name).value(n);
  w.endObject();
  w.key("verdicts").beginObject();
  std::map<std::string_view, size_t> verdicts;
  for (auto v : {AccessInfo::Verdict::Coalesced, AccessInfo::Verdict::Uniform, AccessInfo::Verdict::Uncoalesced,
                 AccessInfo::Verdict::Unknown})
    verdicts[verdictName(v)] = c.count(v);
  for (const auto &[name, n] : verdicts) w.key(name).value(n);
  w.endObject();
  w.endObject();
}

void writeStride(JsonWriter &w, const Stride &s, const unsigned *unroll) {
  w.beginObject();
  w.key("bytes").value(s.bytes);
  w.key("constant").value(s.constant);
  w.key("index").value(s.var);
  if (unroll) w.key("unroll").value(*unroll);
  w.endObject();
}

}  // namespace

std::string reportJson(const Module &m, AnalysisManager &am) {
  Lines lines(m);
  // The "kernels" array is written first, each kernel's analyses freed
  // once its object is written (as the text report does: the next
  // kernel's reuse their memory); the rest of the document, whose
  // "coverage" sums the kernels and comes before them (keys in sorted
  // order), then goes around it.
  std::string out;
  out.reserve(5 * m.source().size() / 2);  // 2.3 times its PTX on the CCCL files
  JsonWriter w(out, 1);  // inside the document's object
  std::string scratch;           // a location's text, before it is written (one buffer for all)
  Coverage total;
  w.beginArray();
  for (const Function *k : bodies(m, true)) {
    FunctionAnalyses &fa = am.get(*k);
    Coverage cov;
    for (const auto &a : fa.accesses()) cov.add(a);
    total.add(cov);
    const CFG &cfg = fa.cfg();
    auto &aff = fa.affine();
    w.beginObject();
    w.key("accesses").beginArray();
    for (const auto &a : fa.accesses()) {
      const auto *ins = cfg.instructions()[a.instr];
      w.beginObject();
      w.key("address").value(aff.str(a.address));
      w.key("address_known").value(a.address.known);
      w.key("base").value(a.base);
      w.key("base_alignment").value(a.baseAlign);
      w.key("bytes").value(a.mem.bytes());
      // The stride per element of a loop nvcc unrolled `unroll` times.
      w.key("element_stride");
      if (a.elementStride) writeStride(w, *a.elementStride, &a.unroll);
      else w.value(nullptr);
      w.key("ideal_sectors").value(a.idealSectors);
      w.key("instruction").value(a.instr);
      w.key("kind").value(accessKind(a.mem.kind));
      w.key("location").value(a.loc.str());
      w.key("notes").value(a.notes);
      w.key("offset_alignment").value(a.offsetAlign);
      w.key("opcode").value(ins->opcode);
      w.key("ptx_line");
      if (ins->span.valid()) w.value(lines.table.pos(ins->span.begin).line);
      else w.value(nullptr);
      w.key("reason").value(a.reason);
      w.key("sectors").value(a.sectors);
      w.key("space").value(a.mem.space.empty() ? std::string_view("generic") : a.mem.space.substr(1));
      w.key("strides").beginArray();
      for (const auto &s : a.strides) writeStride(w, s, nullptr);
      w.endArray();
      w.key("unit_stride_on");
      if (a.unitStrideOn.empty()) w.value(nullptr);
      else w.value(a.unitStrideOn);
      w.key("unknown_cause");
      if (a.verdict == AccessInfo::Verdict::Unknown) w.value(causeName(a.cause));
      else w.value(nullptr);
      w.key("verdict").value(verdictName(a.verdict));
      w.endObject();
    }
    w.endArray();
    w.key("communication").beginArray();
    for (const auto &c : fa.communication()) {
      w.beginObject();
      w.key("function").value(c.function->name);
      w.key("kind").value(kindName(c.kind));
      scratch.clear();
      appendLocOfFact(scratch, m, lines, am, c);
      w.key("location").value(scratch);
      w.key("what").value(c.what);
      w.endObject();
    }
    w.endArray();
    w.key("coverage");
    writeCoverage(w, cov);
    w.key("divergent_branches").beginArray();
    for (const auto &d : fa.divergence()) {
      w.beginObject();
      w.key("branch").value(printStmt(*cfg.instructions()[d.instr]));
      w.key("certain").value(d.certain);
      w.key("depends_on").value(d.why);
      w.key("instruction").value(d.instr);
      scratch.clear();
      appendWhere(scratch, m, lines, cfg, d.instr);
      w.key("location").value(scratch);
      w.endObject();
    }
    w.endArray();
    w.key("loops").beginArray();
    const auto &ivs = aff.inductionVars();
    for (const auto &l : fa.loops().loops()) {
      w.beginObject();
      w.key("depth").value(l.depth);
      w.key("header").value(blockName(cfg, l.header));
      w.key("id").value(l.id);
      w.key("induction_variables").beginArray();
      for (const auto &iv : ivs)
        if (iv.loop == l.id) {
          w.beginObject();
          w.key("register").value(iv.reg);
          w.key("start").value(aff.str(iv.init));
          w.key("step").value(aff.str(iv.step));
          w.key("trip_count");
          if (iv.tripCount.empty()) w.value(nullptr);
          else w.value(iv.tripCount);
          w.endObject();
        }
      w.endArray();
      w.key("parent").value(l.parent);
      w.key("trip_count_uniform").value(uniformLevelName(aff.tripCountUniformity(l.id)));
      w.endObject();
    }
    w.endArray();
    w.key("name").value(k->name);
    w.endObject();
    am.invalidate(*k);
  }
  w.endArray();
  std::string doc;
  JsonWriter d(doc);
  // Keys in each object in sorted order (see JsonWriter).
  d.beginObject();
  d.key("coverage");
  writeCoverage(d, total);
  d.key("file").value(m.fileName());
  d.key("kernels");
  const size_t kernelsAt = doc.size();  // the array's place: put there below
  d.key("schema").value("ptx-opt-analysis/1");
  d.endObject();
  doc += '\n';
  out.insert(0, doc, 0, kernelsAt);
  out.append(doc, kernelsAt);
  return out;
}

std::string cfgDot(const Module &m, AnalysisManager &am) {
  std::string out;
  for (const Function *f : bodies(m, false)) out += am.get(*f).cfg().toDot();
  return out;
}

bool printAnalysis(const Module &m, AnalysisManager &am, std::string_view name, std::string &out) {
  bool known = false;
  for (auto n : kAnalysisPrinters) known |= name == n;
  if (!known) return false;
  for (const Function *f : bodies(m, false)) {
    FunctionAnalyses &fa = am.get(*f);
    const CFG &cfg = fa.cfg();
    out += "function " + std::string(f->name) + " (" + std::string(name) + ")\n";
    if (name == "cfg") {
      for (const auto &b : cfg.blocks()) {
        out += blockName(cfg, b.id) + " [" + std::to_string(b.first) + "," + std::to_string(b.last) + ")";
        if (!b.reachable) out += " unreachable";
        out += " ->";
        for (uint32_t s : b.succs) out += " " + blockName(cfg, s);
        out += "\n";
      }
    } else if (name == "domtree") {
      out += fa.dom().print(cfg);
    } else if (name == "postdomtree") {
      out += fa.postDom().print(cfg);
    } else if (name == "loops") {
      out += fa.loops().print(cfg);
      for (const auto &iv : fa.affine().inductionVars())
        out += "loop " + std::to_string(iv.loop) + ": " + std::string(iv.reg) + " = " + ivText(fa.affine(), iv) +
               ", trip count " +
               (iv.tripCount.empty() ? std::string("unknown") : iv.tripCount) + "\n";
      for (const auto &l : fa.loops().loops())
        out += "loop " + std::to_string(l.id) + ": trip count " +
               tripUniformText(fa.affine().tripCountUniformity(l.id)) + "\n";
    } else if (name == "defs") {
      out += fa.defs().print();
    } else if (name == "values") {
      // The value every instruction writes to each of its registers.
      for (uint32_t i = 0; i < cfg.instructions().size(); ++i) {
        if (!cfg.blocks()[cfg.blockOf(i)].reachable) continue;
        for (auto reg : fa.defs().defUse(i).defs)
          out += std::to_string(i) + ": " + std::string(reg) + " = " +
                 fa.affine().str(fa.affine().definitionValue(i, reg)) + "\n";
      }
    } else if (name == "accesses") {
      for (const auto &a : fa.accesses()) {
        out += std::to_string(a.instr) + ": " + std::string(cfg.instructions()[a.instr]->opcode) + " " +
               std::to_string(a.mem.bytes()) + "B " + verdictName(a.verdict) + " [" + fa.affine().str(a.address) +
               "]";
        for (const auto &s : a.strides) out += " " + s.var + "=" + s.bytes;
        if (a.sectors) out += " sectors=" + std::to_string(*a.sectors) + "/" + std::to_string(a.idealSectors);
        if (a.unroll)
          out += " unroll=" + std::to_string(a.unroll) + " element-" + a.elementStride->var + "=" + a.elementStride->bytes;
        if (!a.unitStrideOn.empty()) out += " unit-stride-on=" + a.unitStrideOn;
        if (a.verdict == AccessInfo::Verdict::Unknown) out += " cause=" + std::string(causeName(a.cause));
        out += "\n";
      }
    } else if (name == "communication") {
      for (const auto &c : fa.communication())
        out += std::string(kindName(c.kind)) + ": " + c.what + " (" + std::string(c.function->name) + ")\n";
    } else if (name == "divergence") {
      for (const auto &d : fa.divergence())
        out += std::to_string(d.instr) + ": " + printStmt(*cfg.instructions()[d.instr]) +
               (d.certain ? " divergent: " : " maybe divergent: ") + d.why + "\n";
    } else if (name == "float-range") {
      out += FloatRanges(fa).print();
    }
  }
  return true;
}

}  // namespace ptxopt::analysis
