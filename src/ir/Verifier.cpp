// IR verifier (see include/ptxopt/ir/Verifier.h).
#include "ptxopt/ir/Verifier.h"

#include <cctype>
#include <unordered_map>
#include <unordered_set>

namespace ptxopt {
namespace {

using namespace ir;

struct Scope {
  std::unordered_set<std::string_view> names;              // exact registers and local symbols
  std::unordered_map<std::string_view, uint32_t> ranges;   // %r<5>: "%r" -> 5
};

class FunctionVerifier {
public:
  FunctionVerifier(const Module &m, const Function &f, const LineTable &lt,
                   const std::unordered_set<std::string_view> &globals, std::vector<Diagnostic> &out)
      : m_(m), f_(f), lt_(lt), globals_(globals), out_(out) {}

  void run() {
    if (!f_.body) return;
    // Labels are function-scoped wherever they appear.
    forEachStmt(*f_.body, [&](const Stmt &s) {
      if (s.kind != Stmt::Kind::Label) return;
      auto name = static_cast<const Label &>(s).name;
      if (!labels_.insert(name).second) error(s, "label '" + std::string(name) + "' defined twice");
    });
    scopes_.emplace_back();
    auto declare = [&](const Decl &d) {
      for (const auto &n : d.names) {
        if (n.range) scopes_.back().ranges[n.name] = *n.range;
        else scopes_.back().names.insert(n.name);
      }
    };
    if (f_.params) for (const auto &p : *f_.params) declare(p);
    if (f_.returns) for (const auto &p : *f_.returns) declare(p);
    block(*f_.body);
  }

private:
  void error(const Stmt &s, std::string msg) {
    Diagnostic d;
    d.file = m_.fileName();
    d.message = "in function '" + std::string(f_.name) + "': " + msg;
    if (s.span.valid()) {
      auto p = lt_.pos(s.span.begin);
      d.line = p.line;
      d.col = p.col;
      d.sourceLine = std::string(lt_.lineText(p.line));
    } else {
      d.message += " (in synthesized code)";
    }
    out_.push_back(std::move(d));
  }

  bool declared(std::string_view name) const {
    for (auto it = scopes_.rbegin(); it != scopes_.rend(); ++it) {
      if (it->names.count(name)) return true;
      // %r12 is declared by %r<N> when 12 < N.
      size_t e = name.size();
      while (e > 0 && std::isdigit(static_cast<unsigned char>(name[e - 1]))) --e;
      if (e == name.size() || e == 0) continue;
      auto r = it->ranges.find(name.substr(0, e));
      if (r == it->ranges.end()) continue;
      std::string_view digits = name.substr(e);
      if (digits.size() > 1 && digits[0] == '0') continue;
      if (digits.size() < 10 && std::stoul(std::string(digits)) < r->second) return true;
    }
    return false;
  }

  void block(const Block &b) {
    scopes_.emplace_back();
    // Declarations are visible in the whole scope (PTX does not require
    // declaration before use within a scope).
    for (const auto &s : b.body) {
      if (s->kind == Stmt::Kind::Decl) {
        const auto &d = static_cast<const Decl &>(*s);
        for (const auto &n : d.names) {
          if (n.range) scopes_.back().ranges[n.name] = *n.range;
          else scopes_.back().names.insert(n.name);
        }
      } else if (s->kind == Stmt::Kind::Label) {
        scopes_.back().names.insert(static_cast<const Label &>(*s).name);
      }
    }
    for (const auto &s : b.body) {
      switch (s->kind) {
      case Stmt::Kind::Instruction: instruction(static_cast<const Instruction &>(*s)); break;
      case Stmt::Kind::Block: block(static_cast<const Block &>(*s)); break;
      case Stmt::Kind::Directive: {
        const auto &d = static_cast<const Directive &>(*s);
        if (d.name == ".branchtargets")
          for (auto t : d.tokens)
            if (t != "," && !labels_.count(t)) error(*s, "branch target '" + std::string(t) + "' is not a label of this function");
        break;
      }
      default: break;
      }
    }
    scopes_.pop_back();
  }

  void use(const Stmt &s, const Operand &o) {
    switch (o.kind) {
    case Operand::Kind::Register:
      if (!isSpecialRegister(o.text) && !declared(o.text))
        error(s, "register '" + std::string(o.text) + "' is not declared");
      break;
    case Operand::Kind::Symbol:
      if (!declared(o.text) && !labels_.count(o.text) && !globals_.count(o.text))
        error(s, "use of undefined symbol '" + std::string(o.text) + "'");
      break;
    default:
      for (const auto &e : o.elems) use(s, e);
    }
  }

  void instruction(const Instruction &in) {
    if (!in.guard.empty() && !isSpecialRegister(in.guard) && !declared(in.guard))
      error(in, "guard predicate '" + std::string(in.guard) + "' is not declared");
    auto base = in.base();
    if (base == "bra" && !in.operands.empty()) {
      const Operand &t = in.operands.back();
      if (t.kind == Operand::Kind::Symbol && !labels_.count(t.text))
        error(in, "branch target '" + std::string(t.text) + "' is not a label of this function");
    }
    for (const auto &o : in.operands) use(in, o);
  }

  const Module &m_;
  const Function &f_;
  const LineTable &lt_;
  const std::unordered_set<std::string_view> &globals_;
  std::vector<Diagnostic> &out_;
  std::unordered_set<std::string_view> labels_;
  std::vector<Scope> scopes_;
};

std::unordered_set<std::string_view> globalNames(const Module &m) {
  std::unordered_set<std::string_view> g;
  for (const auto &it : m.items) {
    if (it.kind == Item::Kind::Function) g.insert(it.function->name);
    else if (it.kind == Item::Kind::Decl)
      for (const auto &n : it.decl->names) g.insert(n.name);
    else if (it.kind == Item::Kind::Directive && it.directive->name == ".alias" && !it.directive->tokens.empty())
      g.insert(it.directive->tokens[0]);
    else if (it.kind == Item::Kind::Section)
      for (const auto &e : it.section->entries)
        if (!e.label.empty()) g.insert(e.label);
  }
  return g;
}

}  // namespace

bool isSpecialRegister(std::string_view n) {
  static const std::unordered_set<std::string_view> exact = {
      "%laneid", "%warpid", "%nwarpid", "%smid", "%nsmid", "%gridid", "%clock", "%clock_hi",
      "%clock64", "%globaltimer", "%globaltimer_lo", "%globaltimer_hi", "%lanemask_eq",
      "%lanemask_le", "%lanemask_lt", "%lanemask_ge", "%lanemask_gt", "%total_smem_size",
      "%aggr_smem_size", "%dynamic_smem_size", "%is_explicit_cluster", "%cluster_ctarank",
      "%cluster_nctarank", "%current_graph_exec", "%reserved_smem_offset_begin",
      "%reserved_smem_offset_end", "%reserved_smem_offset_cap", "%reserved_smem_offset_0",
      "%reserved_smem_offset_1"};
  if (exact.count(n)) return true;
  static const char *vec[] = {"%tid", "%ntid", "%ctaid", "%nctaid", "%clusterid", "%nclusterid",
                              "%cluster_ctaid", "%cluster_nctaid"};
  for (std::string_view v : vec) {
    if (n == v) return true;
    if (n.size() == v.size() + 2 && n.substr(0, v.size()) == v && n[v.size()] == '.' &&
        (n.back() == 'x' || n.back() == 'y' || n.back() == 'z' || n.back() == 'w'))
      return true;
  }
  for (std::string_view p : {"%envreg", "%pm"}) {
    if (n.size() > p.size() && n.substr(0, p.size()) == p) {
      auto rest = n.substr(p.size());
      if (rest.size() > 3 && rest.substr(rest.size() - 3) == "_64") rest.remove_suffix(3);
      bool digits = !rest.empty();
      for (char c : rest) digits &= std::isdigit(static_cast<unsigned char>(c)) != 0;
      if (digits) return true;
    }
  }
  return false;
}

std::vector<Diagnostic> verifyFunction(const Module &m, const Function &f) {
  std::vector<Diagnostic> out;
  const LineTable &lt = m.lines();
  auto g = globalNames(m);
  FunctionVerifier(m, f, lt, g, out).run();
  return out;
}

std::vector<Diagnostic> verifyModule(const Module &m) {
  std::vector<Diagnostic> out;
  const LineTable &lt = m.lines();
  auto g = globalNames(m);
  for (const auto &it : m.items)
    if (it.kind == Item::Kind::Function) FunctionVerifier(m, *it.function, lt, g, out).run();
  return out;
}

}  // namespace ptxopt
