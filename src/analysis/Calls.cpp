// Calls: what `ld.param` reads (see AffineAnalysis::paramLoad).
//
// What: the value of a register loaded from a parameter: a kernel
// parameter, a device function's argument, or a call's return value.
// Why: a return value read as a kernel parameter made a thread-dependent
// index look uniform (issue 15): the one wrong answer the analysis gave.
// Algorithm and refusals: below.
#include <algorithm>

#include "ptxopt/analysis/Affine.h"
#include "ptxopt/analysis/Semantics.h"

namespace ptxopt::analysis {

using ir::Instruction;
using ir::Operand;

// `ld.param` reads one of three things. A kernel's parameter: the same for
// every thread, a Param symbol. A device function's argument: whatever the
// caller passed, which may differ by thread, so unknown (Call) unless this
// analysis summarises a callee. A parameter declared in the body (the
// `retval0` of a call sequence): the value the callee returned, unknown
// (Call) unless the callee is a .func of the module with exactly one store
// to its return parameter, on every path to its exits, whose value is an
// affine function of its arguments and the special registers; that value,
// arguments replaced by what the caller stored into them, is the result.

struct AffineAnalysis::Callee {
  std::unique_ptr<CFG> cfg;
  std::unique_ptr<DominatorTree> dom;
  std::unique_ptr<LoopInfo> loops;
  std::unique_ptr<ReachingDefs> rd;
  std::unique_ptr<AffineAnalysis> aff;
};

namespace {

/// Base name and offset of a one-element `[name]` / `[name+off]` address.
bool paramAddress(const Operand &addr, std::string_view &name, int64_t &off) {
  if (addr.kind != Operand::Kind::Address || addr.elems.size() != 1) return false;
  const Operand &a = addr.elems[0];
  if (a.kind == Operand::Kind::Symbol) {
    name = a.text;
    off = 0;
    return true;
  }
  if (a.kind == Operand::Kind::Sum && a.elems[0].kind == Operand::Kind::Symbol) {
    auto o = a.elems[1].intValue();
    if (!o) return false;
    name = a.elems[0].text;
    off = a.text == "-" ? -*o : *o;
    return true;
  }
  return false;
}

}  // namespace

Value AffineAnalysis::paramLoad(uint32_t def, std::string_view name, int64_t off, std::string pname) {
  const ir::Function &f = cfg_.function();
  if (f.hasParam(name)) {
    if (!f.isEntry && !argsAsSymbols_)
      return Value::unknown("argument " + std::string(name) + " of device function " + std::string(f.name) +
                                " (may differ by thread)",
                            UnknownCause::Call);
    Symbol s{Symbol::Kind::Param};
    names_.push_back(std::move(pname));
    s.name = names_.back();
    return Value::of(Poly::symbol(symbolId(s)));
  }
  return callResult(def, name, off);
}

Value AffineAnalysis::callResult(uint32_t ld, std::string_view ret, int64_t off) {
  const auto &instrs = cfg_.instructions();
  const auto &blk = cfg_.blocks()[cfg_.blockOf(ld)];
  auto fail = [&](const std::string &why) {
    return Value::unknown("return value " + std::string(ret) + " of a call" + (why.empty() ? "" : " (" + why + ")"),
                          UnknownCause::Call);
  };
  // The call that wrote `ret`: the last one before the load in its block.
  uint32_t ci = ld;
  while (ci > blk.first && instrs[ci - 1]->base() != "call") --ci;
  if (ci == blk.first) return fail("no call before it in its block");
  --ci;
  const Instruction &call = *instrs[ci];
  if (!call.guard.empty()) return fail("guarded call");
  const Operand *rets = nullptr, *args = nullptr, *target = nullptr;
  for (const auto &o : call.operands) {
    if (o.kind == Operand::Kind::List && !target) rets = &o;
    else if (o.kind == Operand::Kind::Symbol && !target) target = &o;
    else if (o.kind == Operand::Kind::List && target && !args) args = &o;
  }
  if (!target || !rets || rets->elems.size() != 1 || rets->elems[0].text != ret) return fail("");
  const ir::Function *callee = nullptr;
  for (const auto &it : m_.items)
    if (it.kind == ir::Item::Kind::Function && it.function->name == target->text && it.function->body)
      callee = it.function.get();
  std::string who = "to " + std::string(target->text);
  if (!callee || callee->isEntry) return fail(who + ": no body in this module");
  if (!callee->returns || callee->returns->size() != 1 || callee->returns->front().names.size() != 1)
    return fail(who + ": return form");
  if (active_->count(callee->name)) return fail(who + ": recursive");
  std::string_view retName = callee->returns->front().names[0].name;

  auto &c = callees_[callee->name];
  if (!c) {
    c = std::make_shared<Callee>();
    c->cfg = std::make_unique<CFG>(*callee);
    c->dom = std::make_unique<DominatorTree>(*c->cfg, false);
    c->loops = std::make_unique<LoopInfo>(*c->cfg, *c->dom);
    c->rd = std::make_unique<ReachingDefs>(*c->cfg);
    c->aff = std::make_unique<AffineAnalysis>(m_, *c->cfg, *c->dom, *c->loops, *c->rd);
    c->aff->argsAsSymbols_ = true;
    c->aff->active_ = active_;
  }
  // Exactly one store to the return parameter at `off`, unguarded, on every path to an exit.
  const auto &cin = c->cfg->instructions();
  uint32_t store = UINT32_MAX;
  for (uint32_t i = 0; i < cin.size(); ++i) {
    const Instruction &in = *cin[i];
    if (in.base() != "st" || !in.hasModifier(".param") || in.operands.size() != 2) continue;
    std::string_view n;
    int64_t o;
    if (!paramAddress(in.operands[0], n, o) || n != retName) {
      if (n == retName) return fail(who + ": return value stored through an address form");
      continue;
    }
    if (o != off) continue;
    if (store != UINT32_MAX) return fail(who + ": stored more than once");
    store = i;
  }
  if (store == UINT32_MAX || !cin[store]->guard.empty()) return fail(who + ": no single unguarded store");
  for (uint32_t e : c->cfg->exits())
    if (c->cfg->blocks()[e].reachable && !c->dom->dominates(c->cfg->blockOf(store), e))
      return fail(who + ": not stored on every path");
  active_->insert(callee->name);
  Value rv = c->aff->operandValue(store, cin[store]->operands[1]);
  active_->erase(callee->name);
  if (!rv.known) return fail(who + ": " + rv.why);
  // Arguments: callee parameter i <- what the caller stored into the i-th argument before the call.
  std::vector<std::string_view> params;
  std::vector<Value> argv;
  size_t nargs = args ? args->elems.size() : 0;
  size_t np = 0;
  if (callee->params)
    for (const auto &d : *callee->params) np += d.names.size();
  if (np != nargs) return fail(who + ": argument count");
  if (callee->params)
    for (const auto &d : *callee->params)
      for (const auto &n : d.names) params.push_back(n.name);
  for (size_t i = 0; i < nargs; ++i) {
    const Operand &a = args->elems[i];
    Value v = Value::unknown("argument " + std::string(a.text) + " not found", UnknownCause::Call);
    if (a.kind == Operand::Kind::Symbol)
      for (uint32_t j = ci; j > blk.first; --j) {
        const Instruction &st = *instrs[j - 1];
        std::string_view n;
        int64_t o;
        if (st.base() == "st" && st.hasModifier(".param") && st.operands.size() == 2 &&
            paramAddress(st.operands[0], n, o) && n == a.text) {
          if (o == 0 && st.guard.empty()) v = operandValue(j - 1, st.operands[1]);
          break;
        }
      }
    argv.push_back(std::move(v));
  }
  Value out = mapFromCallee(*c->aff, rv, params, argv);
  if (!out.known) out.why = "return value of " + std::string(target->text) + ": " + out.why;
  return out;
}

Value AffineAnalysis::mapFromCallee(AffineAnalysis &callee, const Value &v, const std::vector<std::string_view> &params,
                                    const std::vector<Value> &args) {
  Value out = Value::of(Poly());
  out.signedWiden = v.signedWiden;
  out.unsignedWiden = v.unsignedWiden;
  for (const auto &[mono, c] : v.poly.terms()) {
    Value t = Value::of(Poly::constant(c));
    for (auto id : mono) {
      const Symbol &s = callee.symbols()[id];
      Value f;
      switch (s.kind) {
      case Symbol::Kind::Tid:
      case Symbol::Kind::Ctaid:
      case Symbol::Kind::Ntid:
      case Symbol::Kind::Nctaid:
      case Symbol::Kind::Global: f = Value::of(Poly::symbol(symbolId(s))); break;
      case Symbol::Kind::Param: {
        auto it = std::find(params.begin(), params.end(), s.name);
        if (it == params.end())
          return Value::unknown("argument " + std::string(s.name) + " read at an offset", UnknownCause::Call);
        f = args[static_cast<size_t>(it - params.begin())];
        break;
      }
      default: return Value::unknown("depends on " + callee.symbolName(id), UnknownCause::Call);
      }
      t = combine(t, f, Poly::mul);
      if (!t.known) return t;
    }
    out = combine(out, t, Poly::add);
    if (!out.known) return out;
  }
  return out;
}

}  // namespace ptxopt::analysis
