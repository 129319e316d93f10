// The JSON report of the analyses (`--analyze=json`, docs/ANALYSIS.md):
// written as it goes by a small writer in nlohmann::json::dump(2)'s layout.
#include "ptxopt/analysis/Report.h"

#include <array>
#include <charconv>
#include <cstring>
#include <optional>
#include <stdexcept>
#include <type_traits>

#include <nlohmann/json.hpp>

#include "ReportParts.h"
#include "ptxopt/analysis/FloatRange.h"
#include "ptxopt/printer/Printer.h"
#include "ptxopt/support/Diagnostics.h"

namespace ptxopt::analysis {

using ir::Function;
using ir::Module;
using namespace report;

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


}  // namespace ptxopt::analysis
