// Inter-thread communication facts.
//
// What: for one kernel (or function), the list of statements through which
// its threads can observe or depend on each other, or on where they sit in
// the machine: shared memory, barriers, warp collectives, lane/warp
// identity, cluster registers and distributed shared memory, asynchronous
// copies, atomics, fences, texture/surface access, timers, and calls or
// branches the analysis cannot see through.
//
// Why: the optimizer regroups threads (swaps the roles of threadIdx and
// blockIdx, merges adjacent threads into one). That only preserves the
// program's meaning when every thread computes on its own, from its indices
// and global memory alone. Each fact names a statement that breaks this
// assumption, so a pass can refuse (and say why) or handle it specifically.
//
// Algorithm: one pre-order walk over the function body (nested `{ }` scopes
// included). Each statement is matched against static tables:
//   - declarations: a `.shared` (or `.shared::cluster`) state space;
//   - opcodes, by prefix at '.' boundaries ("bar" matches "bar.sync" but not
//     "barrier"; "bar.warp.sync" is excluded from Barrier and is WarpLevel);
//   - modifiers: a `.shared` / `.shared::cta` / `.shared::cluster` state space
//     (SharedMemory; `::cluster` is also ClusterRegister), and the ordering
//     qualifiers `.volatile .relaxed .acquire .release .mmio` and the cache
//     operator `.cv` of ld/st (Fence);
//   - operands (recursively, guard included): special registers such as
//     %laneid or %clock64 (and %reserved_smem_offset_*, shared-memory
//     addresses), and names of `.shared` variables (module-level, static or
//     `.extern` dynamic, and the function's own);
//   - kernel parameters declared `.ptr .shared` (pointers into shared memory);
//   - `call`: an indirect call (register target) or a call to a function
//     with no body in the module is UnknownCall; a call to a defined function
//     is followed, and the callee's facts are reported right after the call,
//     with `function` set to the callee. Each function is visited once per
//     query (a callee called twice is reported at its first call only), which
//     makes recursion safe and keeps facts unique.
// A statement gets at most one fact per kind; its facts are emitted in Kind
// order, and `what` is the first reason found (opcode before operands).
//
// Limits: purely syntactic, and conservative only as far as the tables go. A
// generic-address ld/st that happens to point into shared memory is not
// flagged itself (the cvta.shared or shared-variable use that made the
// address is); `.calltargets` lists are not used to resolve indirect calls;
// %smid, %nsmid, %gridid and %envreg* are not reported (they describe the
// hardware placement or launch, not other threads).
#include "ptxopt/analysis/Communication.h"

#include <algorithm>
#include <array>
#include <bitset>
#include <unordered_set>

namespace ptxopt::analysis {

using Kind = CommFact::Kind;
using namespace ir;

namespace {

constexpr size_t kNumKinds = static_cast<size_t>(Kind::Timer) + 1;

/// `opcode` starts with `prefix` at a '.' boundary.
bool opcodeHasPrefix(std::string_view opcode, std::string_view prefix) {
  // The second letter first: most rules of the opcode's first letter differ there.
  return opcode.size() >= prefix.size() && (prefix.size() < 2 || opcode[1] == prefix[1]) && opcode.starts_with(prefix) &&
         (opcode.size() == prefix.size() || opcode[prefix.size()] == '.');
}

struct OpcodeRule {
  std::string_view prefix;
  Kind kind;
  std::string_view unless = {};  // a longer prefix that does not get this kind
};

constexpr OpcodeRule kOpcodeRules[] = {
    // Barriers (bar.warp.sync only synchronizes a warp: WarpLevel below).
    {"bar", Kind::Barrier, "bar.warp"},
    {"barrier", Kind::Barrier},
    {"mbarrier", Kind::Barrier},
    // Warp and warpgroup collectives.
    {"bar.warp", Kind::WarpLevel},
    {"shfl", Kind::WarpLevel},
    {"vote", Kind::WarpLevel},
    {"match", Kind::WarpLevel},
    {"redux", Kind::WarpLevel},
    {"activemask", Kind::WarpLevel},
    {"elect", Kind::WarpLevel},
    {"wmma", Kind::WarpLevel},
    {"mma", Kind::WarpLevel},
    {"ldmatrix", Kind::WarpLevel},
    {"stmatrix", Kind::WarpLevel},
    {"movmatrix", Kind::WarpLevel},
    {"wgmma", Kind::WarpLevel},
    {"tcgen05", Kind::WarpLevel},
    {"setmaxnreg", Kind::WarpLevel},
    // Distributed shared memory and cluster ranks.
    {"mapa", Kind::SharedMemory},
    {"mapa", Kind::ClusterRegister},
    {"getctarank", Kind::ClusterRegister},
    // Asynchronous copies (TMA included) and dependent-grid control.
    {"cp.async", Kind::AsyncCopy},
    {"cp.reduce.async", Kind::AsyncCopy},
    {"st.async", Kind::AsyncCopy},
    {"red.async", Kind::AsyncCopy},
    {"griddepcontrol", Kind::AsyncCopy},
    // Atomics and reductions, whatever the state space.
    {"atom", Kind::AtomicOrReduction},
    {"red", Kind::AtomicOrReduction},
    {"multimem.red", Kind::AtomicOrReduction},
    {"multimem.ld_reduce", Kind::AtomicOrReduction},
    // Memory ordering.
    {"membar", Kind::Fence},
    {"fence", Kind::Fence},
    // Control flow the analysis cannot follow.
    {"brx", Kind::IndirectBranch},
    // Textures and surfaces.
    {"tex", Kind::TextureSurface},
    {"tld4", Kind::TextureSurface},
    {"txq", Kind::TextureSurface},
    {"suld", Kind::TextureSurface},
    {"sust", Kind::TextureSurface},
    {"sured", Kind::TextureSurface},
    {"suq", Kind::TextureSurface},
    {"istypep", Kind::TextureSurface},
    // Timing.
    {"nanosleep", Kind::Timer},
};

/// The rules whose prefix starts with the opcode's first letter (the
/// finder asks for every instruction; most match none).
const std::vector<const OpcodeRule *> &opcodeRulesFor(std::string_view opcode) {
  static const auto byLetter = [] {
    std::array<std::vector<const OpcodeRule *>, 256> t;
    for (const auto &r : kOpcodeRules) t[static_cast<unsigned char>(r.prefix[0])].push_back(&r);
    return t;
  }();
  static const std::vector<const OpcodeRule *> none;
  return opcode.empty() ? none : byLetter[static_cast<unsigned char>(opcode[0])];
}

struct RegisterRule {
  std::string_view name;  // without the ".x" component suffix
  Kind kind;
  bool prefix = false;    // matches any register starting with `name`
};

constexpr RegisterRule kRegisterRules[] = {
    {"%laneid", Kind::LaneIdentity},
    {"%warpid", Kind::LaneIdentity},
    {"%nwarpid", Kind::LaneIdentity},
    {"%lanemask_eq", Kind::LaneIdentity},
    {"%lanemask_le", Kind::LaneIdentity},
    {"%lanemask_lt", Kind::LaneIdentity},
    {"%lanemask_ge", Kind::LaneIdentity},
    {"%lanemask_gt", Kind::LaneIdentity},
    {"%clusterid", Kind::ClusterRegister},
    {"%nclusterid", Kind::ClusterRegister},
    {"%cluster_ctaid", Kind::ClusterRegister},
    {"%cluster_nctaid", Kind::ClusterRegister},
    {"%cluster_ctarank", Kind::ClusterRegister},
    {"%cluster_nctarank", Kind::ClusterRegister},
    {"%is_explicit_cluster", Kind::ClusterRegister},
    {"%clock", Kind::Timer},
    {"%clock_hi", Kind::Timer},
    {"%clock64", Kind::Timer},
    {"%globaltimer", Kind::Timer},
    {"%globaltimer_lo", Kind::Timer},
    {"%globaltimer_hi", Kind::Timer},
    // %reserved_smem_offset_begin/_end/_cap/_<n>: addresses in shared memory.
    {"%reserved_smem_offset", Kind::SharedMemory, true},
};

/// Memory-ordering qualifiers of ld/st: the access synchronizes with, or is
/// observed by, other threads (spin-wait flags, release/acquire handoffs);
/// and the cache operator `.cv` (`__ldcv`: fetch again on every read, what
/// a poll of a flag another block writes uses).
constexpr std::string_view kOrderingModifiers[] = {".volatile", ".relaxed", ".acquire",
                                                   ".release", ".mmio",     ".cv"};

bool isSharedSpace(std::string_view s) { return s == ".shared" || s.starts_with(".shared::"); }

std::string declText(const Decl &d) {
  std::string s;
  for (auto a : d.attrs) {
    if (!s.empty()) s += ' ';
    s += a;
  }
  for (size_t i = 0; i < d.names.size(); ++i) {
    s += i ? ", " : " ";
    const Declarator &n = d.names[i];
    s += n.name;
    if (n.range) s.append("<").append(std::to_string(*n.range)).append(">");
    for (const auto &dim : n.dims)
      s.append("[").append(dim ? std::to_string(*dim) : "").append("]");
  }
  return s;
}

const Function *definedFunction(const Module &m, std::string_view name) {
  for (const auto &it : m.items)
    if (it.kind == Item::Kind::Function && it.function->name == name && it.function->body)
      return it.function.get();
  return nullptr;
}

/// The kinds found for one statement, with the first reason for each.
struct StmtKinds {
  // Most statements have no fact: nothing is built for them.
  std::bitset<kNumKinds> has;
  std::vector<std::pair<Kind, std::string>> what;  // in order of discovery
  void add(Kind k, std::string_view w) {
    auto i = static_cast<size_t>(k);
    if (has[i]) return;
    has[i] = true;
    what.emplace_back(k, std::string(w));
  }
};

/// Names of shared variables. Most names an instruction uses are registers
/// (%r12): when no shared variable's name starts with '%', those are not
/// looked up.
struct Names {
  std::unordered_set<std::string_view> set;
  bool percent = false;  // some name starts with '%'
  void insert(std::string_view n) {
    set.insert(n);
    percent |= n.starts_with('%');
  }
  bool count(std::string_view n) const { return (percent || !n.starts_with('%')) && set.count(n); }
};

class Finder {
public:
  explicit Finder(const Module &m) : m_(m) {
    for (const auto &it : m.items)
      if (it.kind == Item::Kind::Decl && isSharedSpace(it.decl->space()))
        for (const auto &n : it.decl->names) moduleShared_.insert(n.name);
  }

  void visit(const Function &f) {
    if (!visited_.insert(&f).second || !f.body) return;
    // Names that denote shared memory here: module-level and own `.shared`
    // variables. Local, so that visiting a callee mid-walk leaves it intact.
    Names shared = moduleShared_;
    forEachStmt(*f.body, [&](const Stmt &s) {
      if (s.kind == Stmt::Kind::Decl) {
        auto &d = static_cast<const Decl &>(s);
        if (isSharedSpace(d.space()))
          for (const auto &n : d.names) shared.insert(n.name);
      }
    });

    if (f.params)
      for (const Decl &p : *f.params) {
        // `.param .u64 .ptr .shared .align 4 p`: a pointer into shared memory.
        bool sharedPtr = false;
        for (auto a : p.attrs) sharedPtr |= isSharedSpace(a);
        StmtKinds k;
        if (sharedPtr && p.hasAttr(".ptr")) k.add(Kind::SharedMemory, declText(p));
        emit(f, p, k, UINT32_MAX);
      }

    uint32_t instrs = 0;  // instructions so far: the next one's index in the CFG (which walks in this order)
    forEachStmt(*f.body, [&](const Stmt &s) {
      StmtKinds k;
      const Function *callee = nullptr;
      uint32_t index = UINT32_MAX;
      if (s.kind == Stmt::Kind::Decl) {
        auto &d = static_cast<const Decl &>(s);
        if (isSharedSpace(d.space())) k.add(Kind::SharedMemory, declText(d));
        if (d.space() == ".shared::cluster") k.add(Kind::ClusterRegister, declText(d));
      } else if (s.kind == Stmt::Kind::Instruction) {
        index = instrs++;
        callee = instruction(static_cast<const Instruction &>(s), shared, k);
      }
      emit(f, s, k, index);
      if (callee) visit(*callee);  // its facts follow the call's own
    });
  }

  std::vector<CommFact> take() { return std::move(out_); }

private:
  void emit(const Function &f, const Stmt &s, StmtKinds &k, uint32_t instr) {
    if (k.what.empty()) return;
    std::sort(k.what.begin(), k.what.end(), [](const auto &a, const auto &b) { return a.first < b.first; });  // Kind order
    for (auto &[kind, what] : k.what) out_.push_back({kind, &f, &s, std::move(what), instr});
  }

  /// Adds the kinds of `i` to `k`; returns a defined callee still to visit.
  const Function *instruction(const Instruction &i, const Names &shared, StmtKinds &k) {
    for (const OpcodeRule *r : opcodeRulesFor(i.opcode))
      if (opcodeHasPrefix(i.opcode, r->prefix) && (r->unless.empty() || !opcodeHasPrefix(i.opcode, r->unless)))
        k.add(r->kind, i.opcode);
    // The modifiers, without a vector of them (one instruction after
    // another); the ordering qualifiers of ld/st in the same pass (a Fence's
    // reason is the opcode whichever finds it, so the order does not matter).
    const std::string_view base = i.base();
    const bool ldst = base == "ld" || base == "st";
    for (size_t pos = i.opcode.find('.'); pos != std::string_view::npos;) {
      size_t next = i.opcode.find('.', pos + 1);
      std::string_view mod = i.opcode.substr(pos, next == std::string_view::npos ? std::string_view::npos : next - pos);
      if (isSharedSpace(mod)) {
        k.add(Kind::SharedMemory, i.opcode);
        if (mod == ".shared::cluster") k.add(Kind::ClusterRegister, i.opcode);
      }
      if (ldst)
        for (auto m : kOrderingModifiers)
          if (mod == m) k.add(Kind::Fence, i.opcode);
      pos = next;
    }
    if (!i.guard.empty()) name(i.guard, shared, k);
    for (const auto &o : i.operands) operand(o, shared, k);

    if (base != "call") return nullptr;
    for (const auto &o : i.operands) {
      if (o.kind == Operand::Kind::List) continue;  // (retval), (params)
      std::string w = std::string(i.opcode) + " " + std::string(o.text);
      if (o.kind != Operand::Kind::Symbol) {
        k.add(Kind::UnknownCall, w);  // indirect: call %rd, ..., prototype
        return nullptr;
      }
      const Function *callee = definedFunction(m_, o.text);
      if (!callee) k.add(Kind::UnknownCall, w);
      return callee;
    }
    return nullptr;
  }

  static void operand(const Operand &o, const Names &shared, StmtKinds &k) {
    if (o.kind == Operand::Kind::Register || o.kind == Operand::Kind::Symbol)
      name(o.text, shared, k);
    for (const auto &e : o.elems) operand(e, shared, k);
  }

  /// A register or symbol name used by an instruction.
  static void name(std::string_view n, const Names &shared, StmtKinds &k) {
    if (shared.count(n)) k.add(Kind::SharedMemory, n);
    if (!n.starts_with('%')) return;
    // Most names are ordinary registers (%r12, %rd3): no rule has their
    // letter after '%', or their rules' names are longer (asked before the
    // '.' is looked for: the base is never longer than the name).
    static const auto minLength = [] {
      std::array<size_t, 256> m{};
      for (const auto &r : kRegisterRules) {
        size_t &x = m[static_cast<unsigned char>(r.name[1])];
        x = x ? std::min(x, r.name.size()) : r.name.size();
      }
      return m;
    }();
    if (n.size() < 2) return;
    size_t min = minLength[static_cast<unsigned char>(n[1])];
    if (!min || n.size() < min) return;
    std::string_view base = n.substr(0, n.find('.'));  // "%clusterid" of "%clusterid.x"
    if (base.size() < min) return;
    for (const auto &r : kRegisterRules)
      if (r.prefix ? base.starts_with(r.name) : base == r.name) k.add(r.kind, n);
  }

  const Module &m_;
  Names moduleShared_;
  std::unordered_set<const Function *> visited_;
  std::vector<CommFact> out_;
};

}  // namespace

const char *kindName(Kind k) {
  switch (k) {
  case Kind::SharedMemory: return "shared-memory";
  case Kind::Barrier: return "barrier";
  case Kind::WarpLevel: return "warp-level";
  case Kind::LaneIdentity: return "lane-identity";
  case Kind::ClusterRegister: return "cluster-register";
  case Kind::AsyncCopy: return "async-copy";
  case Kind::AtomicOrReduction: return "atomic";
  case Kind::Fence: return "fence";
  case Kind::UnknownCall: return "unknown-call";
  case Kind::IndirectBranch: return "indirect-branch";
  case Kind::TextureSurface: return "texture-surface";
  case Kind::Timer: return "timer";
  }
  return "?";
}

std::vector<CommFact> findCommunication(const Module &m, const Function &f) {
  Finder finder(m);
  finder.visit(f);
  return finder.take();
}

}  // namespace ptxopt::analysis
