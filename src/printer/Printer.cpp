// IR -> PTX text, lossless or canonical (see include/ptxopt/printer/Printer.h).
#include "ptxopt/printer/Printer.h"

namespace ptxopt {
namespace {

using namespace ir;

bool isWordish(std::string_view t) {
  if (t.empty()) return false;
  char c = t[0];
  return !(c == ',' || c == ';' || c == ':' || c == '(' || c == ')' || c == '[' || c == ']' ||
           c == '{' || c == '}' || c == '<' || c == '>' || c == '+' || c == '-' || c == '=' ||
           c == '|' || c == '!' || c == '*' || c == '@') ||
         (c == '-' && t.size() > 1);
}

/// Joins tokens with canonical spacing: a space between two words, after a
/// comma, around '=', between a word and '(' and between ')' and a word;
/// nothing elsewhere.
void joinTokens(std::string &out, const std::vector<std::string_view> &toks) {
  std::string_view prev;
  for (auto t : toks) {
    if (!prev.empty()) {
      bool space = (isWordish(prev) && isWordish(t)) || prev == "," || prev == "=" || t == "=" ||
                   (prev == ")" && isWordish(t)) || (isWordish(prev) && t == "(");
      if (space) out += ' ';
    }
    out += t;
    prev = t;
  }
}

void operand(std::string &out, const Operand &o) {
  switch (o.kind) {
  case Operand::Kind::Register:
  case Operand::Kind::Immediate:
  case Operand::Kind::Symbol:
  case Operand::Kind::Sink: out += o.text; return;
  case Operand::Kind::Not: out += '!'; operand(out, o.elems.at(0)); return;
  case Operand::Kind::Pipe:
    for (size_t i = 0; i < o.elems.size(); ++i) {
      if (i) out += '|';
      operand(out, o.elems[i]);
    }
    return;
  case Operand::Kind::Sum:
    operand(out, o.elems.at(0));
    out += o.text;
    operand(out, o.elems.at(1));
    return;
  case Operand::Kind::Vector:
  case Operand::Kind::Address:
  case Operand::Kind::List: {
    char open = o.kind == Operand::Kind::Vector ? '{' : o.kind == Operand::Kind::Address ? '[' : '(';
    char close = o.kind == Operand::Kind::Vector ? '}' : o.kind == Operand::Kind::Address ? ']' : ')';
    out += open;
    for (size_t i = 0; i < o.elems.size(); ++i) {
      if (i) out += ", ";
      operand(out, o.elems[i]);
    }
    out += close;
    return;
  }
  }
}

void declarator(std::string &out, const Declarator &d) {
  out += d.name;
  if (d.range) out += "<" + std::to_string(*d.range) + ">";
  for (auto &dim : d.dims) out += dim ? "[" + std::to_string(*dim) + "]" : std::string("[]");
}

void decl(std::string &out, const Decl &d) {
  joinTokens(out, d.attrs);
  for (size_t i = 0; i < d.names.size(); ++i) {
    out += i ? ", " : " ";
    declarator(out, d.names[i]);
  }
  if (!d.init.empty()) {
    out += " = ";
    joinTokens(out, d.init);
  }
  if (d.semicolon) out += ';';
}

void directive(std::string &out, const Directive &d) {
  out += d.name;
  if (!d.tokens.empty()) {
    out += ' ';
    joinTokens(out, d.tokens);
  }
  if (d.semicolon) out += ';';
}

void instruction(std::string &out, const Instruction &in) {
  if (!in.guard.empty()) {
    out += in.guardNegated ? "@!" : "@";
    out += in.guard;
    out += ' ';
  }
  out += in.opcode;
  for (size_t i = 0; i < in.operands.size(); ++i) {
    out += i ? ", " : " ";
    operand(out, in.operands[i]);
  }
  out += ';';
}

bool dirty(const Stmt &s);
bool dirtyBlock(const Block &b) {
  if (b.edited || !b.open.valid() || !b.close.valid()) return true;
  for (const auto &s : b.body)
    if (dirty(*s)) return true;
  return false;
}
bool dirty(const Stmt &s) {
  if (s.edited || !s.span.valid()) return true;
  return s.kind == Stmt::Kind::Block && dirtyBlock(static_cast<const Block &>(s));
}

class Printer {
public:
  Printer(const Module &m, PrintMode mode) : m_(m), src_(m.source()), canon_(mode == PrintMode::Canonical) {}

  std::string run() {
    out_.reserve(src_.size() + src_.size() / 8);
    for (const auto &it : m_.items) item(it);
    if (!canon_) out_.append(src_, m_.trailingLead, std::string::npos);
    if (!m_.trailer.empty()) {
      if (!out_.empty() && out_.back() != '\n') out_ += '\n';
      out_ += m_.trailer;
    }
    return std::move(out_);
  }

private:
  void slice(const Span &s) { out_.append(src_, s.lead, s.end - s.lead); }
  void lead(const Span &s) { out_.append(src_, s.lead, s.begin - s.lead); }
  void indent(int depth) { out_.append(static_cast<size_t>(depth), '\t'); }

  void item(const Item &it) {
    bool fromSource = !canon_ && it.span.valid();
    if (fromSource && !it.edited) {
      if (it.kind != Item::Kind::Function) return slice(it.span);
      const Function &f = *it.function;
      if (!f.edited && f.span.valid() && (!f.body || !dirtyBlock(*f.body))) return slice(it.span);
    }
    if (fromSource) lead(it.span);
    else if (!canon_) out_ += '\n';
    switch (it.kind) {
    case Item::Kind::Directive: directive(out_, *it.directive); break;
    case Item::Kind::Decl: decl(out_, *it.decl); break;
    case Item::Kind::Section: section(*it.section); break;
    case Item::Kind::Function: function(*it.function, fromSource && !it.edited); break;
    }
    if (canon_) out_ += '\n';
  }

  void section(const Section &s) {
    if (canon_) out_ += '\n';
    out_ += ".section ";
    out_ += s.name;
    out_ += "\n{\n";
    for (const auto &e : s.entries) {
      if (!e.label.empty()) {
        out_ += e.label;
        out_ += ":\n";
      } else {
        out_ += e.directive;
        auto vals = e.values();
        for (size_t i = 0; i < vals.size(); ++i) {
          out_ += i ? ", " : " ";
          out_ += vals[i];
        }
        out_ += '\n';
      }
    }
    out_ += '}';
  }

  void function(const Function &f, bool headerFromSource) {
    if (headerFromSource && !f.edited && f.body && f.body->open.valid()) {
      out_.append(src_, f.span.begin, f.body->open.lead - f.span.begin);
    } else {
      if (canon_) out_ += '\n';
      out_ += printFunctionHeader(f);
      if (!f.body) {
        out_ += ';';
        return;
      }
      out_ += '\n';
    }
    if (f.body) block(*f.body, 0);
  }

  void block(const Block &b, int depth) {
    bool src = !canon_;
    if (src && b.open.valid()) slice(b.open);
    else {
      if (!canon_ || depth > 0) indent(depth);
      out_ += '{';
    }
    for (const auto &s : b.body) stmt(*s, depth + 1);
    if (src && b.close.valid()) slice(b.close);
    else {
      out_ += '\n';
      indent(depth);
      out_ += '}';
    }
  }

  void stmt(const Stmt &s, int depth) {
    if (!canon_ && s.span.valid()) {
      if (!dirty(s)) return slice(s.span);
      lead(s.span);
    } else {
      out_ += '\n';
      if (s.kind != Stmt::Kind::Label) indent(depth);
    }
    switch (s.kind) {
    case Stmt::Kind::Instruction: instruction(out_, static_cast<const Instruction &>(s)); break;
    case Stmt::Kind::Label: out_ += static_cast<const Label &>(s).name; out_ += ':'; break;
    case Stmt::Kind::Decl: decl(out_, static_cast<const Decl &>(s)); break;
    case Stmt::Kind::Directive: directive(out_, static_cast<const Directive &>(s)); break;
    case Stmt::Kind::Block: {
      // The newline and indentation were written above.
      const auto &b = static_cast<const Block &>(s);
      if (!canon_ && b.open.valid()) { block(b, depth); break; }
      out_ += '{';
      for (const auto &c : b.body) stmt(*c, depth + 1);
      if (!canon_ && b.close.valid()) slice(b.close);
      else {
        out_ += '\n';
        indent(depth);
        out_ += '}';
      }
      break;
    }
    }
  }

  const Module &m_;
  const std::string &src_;
  bool canon_;
  std::string out_;
};

}  // namespace

std::string printModule(const Module &m, PrintMode mode) { return Printer(m, mode).run(); }

std::string printOperand(const Operand &o) {
  std::string s;
  operand(s, o);
  return s;
}

std::string printStmt(const Stmt &st) {
  std::string s;
  switch (st.kind) {
  case Stmt::Kind::Instruction: instruction(s, static_cast<const Instruction &>(st)); break;
  case Stmt::Kind::Label: s += static_cast<const Label &>(st).name; s += ':'; break;
  case Stmt::Kind::Decl: decl(s, static_cast<const Decl &>(st)); break;
  case Stmt::Kind::Directive: directive(s, static_cast<const Directive &>(st)); break;
  case Stmt::Kind::Block: s += "{ ... }"; break;
  }
  return s;
}

std::string printFunctionHeader(const Function &f) {
  std::string out;
  joinTokens(out, f.attrs);
  if (!out.empty()) out += ' ';
  out += f.isEntry ? ".entry" : ".func";
  if (f.returns) {
    out += " (";
    for (size_t i = 0; i < f.returns->size(); ++i) {
      if (i) out += ", ";
      decl(out, (*f.returns)[i]);
    }
    out += ')';
  }
  out += ' ';
  out += f.name;
  if (f.params) {
    out += '(';
    for (size_t i = 0; i < f.params->size(); ++i) {
      out += i ? ",\n\t" : "\n\t";
      decl(out, (*f.params)[i]);
    }
    out += f.params->empty() ? ")" : "\n)";
  }
  for (const auto &p : f.perf) {
    out += '\n';
    directive(out, p);
  }
  return out;
}

}  // namespace ptxopt
