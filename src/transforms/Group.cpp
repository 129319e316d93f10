// group: short-word grouping across threads (van den Braak et al., SAMOS
// 2010, section IV-B, extended to 16-byte vectors), on clones of kernels.
//
// What: k adjacent logical threads along %tid.x become one hardware thread,
// and their k unit-stride accesses to one array become one vector access of
// k*w bytes (w = 1, 2, 4 or 8 bytes per element; k*w = 4, 8 or 16):
// `ld.global.v4.b32` unpacked with `bfe`, stores packed with `prmt`.
// Why it pays: a kernel that moves 1 or 2 bytes per thread is limited by
// instructions and memory requests, not by DRAM; 16-byte accesses cut the
// requests by 16/w and the per-thread overhead (index arithmetic, address
// computation) by k. Measured on an H200: docs/BENCHMARKS.md.
// Algorithm:
//   1. Applicability: no inter-thread communication, no calls, no local
//      memory (the kernel is a set of independent logical threads); the
//      body is straight-line code, optionally cut by bounds guards
//      (`@%p bra EXIT`, `@%p ret`, EXIT holding only `ret`) and holding
//      if-then regions (`@%p bra L; <plain instructions>; L:`) and nested
//      `{ }` blocks of plain arithmetic (the inline asm of cuda_fp16.h and
//      cuda_bf16.h, which may declare registers of its own); no store
//      before the last guard; every global access is unit-stride along
//      %tid.x (stride = its width w), independent of it, or one the analysis
//      cannot express (a gather or scatter).
//   2. k = 16 / (largest w of a unit-stride access), halved while k times
//      the body's instructions exceed 1024 (few long threads leave small
//      launches latency-bound; measured on Sobel), or the `group-k` option.
//   3. Alignment: in each unit-stride access's address polynomial, %tid.x
//      and %ntid.x count k times; every term must be a multiple of V = k*w,
//      or hold one parameter (a runtime condition: the argument a multiple
//      of V / gcd(coefficient, V); pointers and pitches alike), or be the
//      constant term, whose remainder is a misalignment: such a load reads
//      the two aligned vectors around its elements; a store is refused.
//   4. The clone: replica m of the body reads %tid.x as k*%tid.x + m and
//      %ntid.x as k*%ntid.x, with its own registers. Fast path: the replicas
//      interleaved instruction by instruction (each keeps its own program
//      order), the k copies of a unit-stride access replaced by one vector
//      access, a nested block copied per replica like one instruction (each
//      copy its own scope: the names it declares stay), if-then regions
//      predicated per replica, gathers and scatters
//      per replica; after each guard, one branch to the slow path when any
//      replica's guard fails. Slow path: the k replicas one after another,
//      each with its own guards and branches: every n gives the original's
//      result.
//   5. Launch transform (manifest): the dimension that becomes block.x is
//      divided by k (and must be a multiple of k); the parameters of step 3
//      are checked at launch; the new block must keep 64 threads or more,
//      and 512 / k where the merged clone of step 6 comes next (original
//      blocks under 512 threads ran faster merged);
//      the launch must have 2^19 threads or more, 2^21 for a body with
//      misaligned loads or a long one (k halved in step 2): smaller
//      launches do not fill the GPU, and k times fewer threads doing k
//      times the work are latency-bound (measured: kGroupMinThreads below).
//      Kernels already cloned by coalesce are grouped too: the swap clone
//      (the transform composed), and the split clone rebuilt with S*k
//      logical blocks per hardware block of S threads.
//   6. Block-merged clone (originals, k >= 4): for launches whose block.x/k
//      falls under that (256-thread blocks of 8-, 16- and 32-bit kernels,
//      the common case), a second clone keeps the original's block of B
//      threads and runs k logical blocks of the group clone in it: thread t
//      is thread t % (B/k) of logical block ctaid.x*k + t/(B/k); the grid
//      is ceil(grid.x/k) blocks, the original grid.x comes as an extra .u32
//      parameter, and logical blocks at or past it return at once (no
//      barriers in a group clone, so an early return is safe). Manifest:
//      grid "ceil(grid.x/k)", extraArgs ["grid.x"], after the plain clone.
//      Launches must have 2^19 threads or more, 2^22 for a body with
//      misaligned loads or a long one: Sobel in 32 x 8 blocks ran 0.99-1.00x
//      at 1920x1080, 2.3x at 8192x8192.
// Refuses (remark): communication, calls, local memory, loops or other
// control flow, a nested block with a label, a branch, a memory access, a
// special register or a declaration that shadows one of the body's
// registers, a store before a guard, an access with another stride
// along %tid.x (k times less coalesced), a unit-stride access that cannot
// become a vector (already one, predicated, in a region: it would stay per
// replica, k times less coalesced), alignment it cannot prove, a
// misaligned store, registers of a width it cannot unpack into, and kernels
// without a unit-stride access of 1, 2, 4 or 8 bytes.
// Not done yet: grouping of the remap clone (its decoded indices are opaque
// to the analysis), arrays of structures (intra-thread grouping with
// unrolling is the pack pass).
#include <algorithm>
#include <numeric>

#include "CloneUtil.h"
#include "Pass.h"

namespace ptxopt::transforms {

using analysis::AccessInfo;
using ir::Instruction;
using ir::Operand;
using ir::Stmt;
using namespace clone;

namespace {

// One statement of the flattened body and its role.
struct Slot {
  // RegionBranch/RegionLabel: `@%p bra L` ... `L:` around an if-then region.
  // Scoped: a nested `{ }` block of plain arithmetic (the inline asm of
  // cuda_fp16.h and cuda_bf16.h), repeated per replica like an instruction.
  enum class Role { Decl, Directive, Instr, Scoped, Guard, Exit, RegionBranch, RegionLabel } role;
  size_t stmt;          // index in the body
  unsigned segment = 0; // for Instr, Scoped and Guard
  // Unit-stride access of w bytes, vectorized in the fast path.
  bool vector = false;
  bool load = false;
  unsigned w = 0;
  unsigned misalign = 0;  // replica 0's address mod k*w (loads only: two aligned vectors)
  int region = -1;        // slot of the branch around the if-then region holding this instruction
};

struct Plan {
  std::vector<Slot> slots;
  unsigned guards = 0;
  unsigned k = 0;
  unsigned perReplica = 0;  // gathers and scatters left to each replica
  unsigned regions = 0;     // if-then regions, predicated in the fast path
  bool longBody = false;    // 16-byte vectors would exceed kMaxFastPath (k halved)
  std::vector<Variant::AlignedParam> aligned;
  RegTypes regs;     // declared register types
  std::string why;   // refusal
  const Stmt *whyAt = nullptr;
};

bool isSpecial(std::string_view r) {
  return r.starts_with("%tid") || r.starts_with("%ntid") || r.starts_with("%ctaid") || r.starts_with("%nctaid") ||
         r.starts_with("%laneid") || r.starts_with("%warpid") || r.starts_with("%smid") || r.starts_with("%clock") ||
         r.starts_with("%globaltimer") || r.starts_with("%envreg") || r.starts_with("%lanemask") ||
         r.starts_with("%nwarpid") || r.starts_with("%nsmid") || r.starts_with("%gridid") ||
         r.starts_with("%dynamic_smem") || r.starts_with("%total_smem") || r.starts_with("%pm") ||
         r.starts_with("%cluster") || r.starts_with("%ncluster") || r.starts_with("%is_explicit") ||
         r.starts_with("%aggr_smem") || r.starts_with("%reserved");
}

/// Why nested block `b` cannot be repeated per replica like one instruction
/// ("" when it can): it may hold only .reg declarations of names the body
/// does not declare (each replica's copy is its own scope), directives,
/// nested blocks of the same kind, and instructions that fall through,
/// access no memory and read no special register. Adds its instructions to
/// `instrs`.
std::string scopedBlockWhy(const ir::Block &b, const RegTypes &outer, unsigned &instrs) {
  for (const auto &st : b.body) {
    switch (st->kind) {
    case Stmt::Kind::Label: return "a label";
    case Stmt::Kind::Directive: break;
    case Stmt::Kind::Block:
      if (auto why = scopedBlockWhy(static_cast<const ir::Block &>(*st), outer, instrs); !why.empty()) return why;
      break;
    case Stmt::Kind::Decl: {
      const auto &d = static_cast<const ir::Decl &>(*st);
      if (d.space() != ".reg") return "a " + std::string(d.space()) + " declaration";
      for (const auto &n : d.names) {
        std::string nm(n.name);
        if (!n.dims.empty()) return "a register array";
        if (n.range ? outer.range.count(nm) != 0 : outer.plain.count(nm) != 0 || !outer.type(nm).empty())
          return "a declaration of " + nm + ", which the body declares too";
      }
      break;
    }
    case Stmt::Kind::Instruction: {
      const auto &in = static_cast<const Instruction &>(*st);
      std::string_view base = in.base();
      if (analysis::flowOf(in) != analysis::Flow::Next || base == "bra" || base == "call" || base == "ret" ||
          base == "exit")
        return "control flow (" + std::string(in.opcode) + ")";
      if (analysis::memAccess(in)) return "a memory access (" + std::string(in.opcode) + ")";
      bool special = false;
      for (const auto &o : in.operands)
        analysis::forEachRegister(o, [&](const Operand &r) { special |= isSpecial(r.text); });
      if (special) return "a special register";
      ++instrs;
      break;
    }
    }
  }
  return "";
}

/// Name of register `r` in replica m (m = 0 keeps the name).
std::string replicaName(const Plan &p, std::string_view r, unsigned m) {
  std::string s(r);
  if (m == 0 || isSpecial(r)) return s;
  if (p.regs.plain.count(s)) return s + "_g" + std::to_string(m);
  size_t e = s.size();
  while (e > 0 && std::isdigit(static_cast<unsigned char>(s[e - 1]))) --e;
  if (e < s.size() && p.regs.range.count(s.substr(0, e)))
    return s.substr(0, e) + "_g" + std::to_string(m) + "_" + s.substr(e);
  return s;  // not declared in the body (cannot happen after verification)
}


/// Instructions per hardware thread in the fast path (the body times k)
/// above which k is halved (see planGroup).
constexpr unsigned kMaxFastPath = 1024;
/// Threads a group clone's block must keep (the manifest's minBlockThreads).
constexpr uint32_t kMinBlockThreads = 64;
/// Where a block-merged clone comes next, the plain clone takes only
/// original blocks of this many threads or more (its block: this / k): on an
/// H100 (scripts/bench-launch-floor.sh) the 32-bit guarded kernel (k = 4)
/// in 256-thread blocks ran 0.97-1.02x from 2^19 to 2^21 threads as the
/// plain clone (blocks of 64) and 1.05-1.23x as the merged one; in
/// 1024-thread blocks the plain clones of the 8-, 16- and 32-bit kernels ran
/// 1.03-1.09x at 2^19, the merged ones 0.97-1.01x.
constexpr uint32_t kPlainMinOriginalBlock = 512;
/// Threads a launch must have for a group clone (the manifest's
/// minLaunchThreads): with k times fewer threads, each doing k times the
/// work, a launch too small to fill the GPU is latency-bound and runs slower
/// than the original. Measured on an H100 (scripts/bench-launch-floor.sh,
/// docs/BENCHMARKS.md "Launch floor of the group clones"): the smallest
/// power of two from which on every run measured 1.03x or more. Light bodies
/// (8-bit k = 16, 16-bit k = 8, 32-bit k = 4): plain clone 0.94-1.06x below
/// 2^18 threads, 0.98-1.03x at 2^18, 1.03-1.09x at 2^19; merged clone
/// 0.91-1.06x below 2^18, 0.99-1.07x at 2^18, 1.06-1.17x at 2^19. Bodies
/// with misaligned loads or long ones (the Sobel filter, k = 8): plain
/// 0.84-0.99x up to 2^20, 1.01-1.13x between 2^20 and 2^21, 1.09-1.17x at
/// 2.1-2.5M; merged 0.77-1.01x up to 2.1M, 1.09-1.14x at 2^22.
constexpr uint32_t kGroupMinThreads = 1u << 19;
constexpr uint32_t kGroupHeavyMinThreads = 1u << 21;
constexpr uint32_t kMergedMinThreads = 1u << 19;
constexpr uint32_t kMergedHeavyMinThreads = 1u << 22;

/// Analyses kernel `f` (the source of the clone); fills `p` or sets p.why.
bool planGroup(PassContext &ctx, ir::Function &f, Plan &p, unsigned forcedK, bool gathers) {
  auto &fa = ctx.analyses.get(f);
  const auto &comm = fa.communication();
  if (!comm.empty()) {
    p.why = "threads communicate (" + std::string(analysis::kindName(comm.front().kind)) + ": " + comm.front().what + ")";
    p.whyAt = comm.front().stmt;
    return false;
  }
  auto &body = f.body->body;
  // Register types, and the shape of the body.
  for (size_t i = 0; i < body.size(); ++i) {
    const Stmt &s = *body[i];
    switch (s.kind) {
    case Stmt::Kind::Block:
      p.slots.push_back({Slot::Role::Scoped, i});  // checked below, once every declaration is known
      break;
    case Stmt::Kind::Decl: {
      const auto &d = static_cast<const ir::Decl &>(s);
      if (d.space() != ".reg") {
        p.why = "it declares a local variable (" + std::string(d.space()) + ")";
        return false;
      }
      for (const auto &n : d.names) {
        if (!n.dims.empty()) {
          p.why = "it declares a register array";
          return false;
        }
        (n.range ? p.regs.range[std::string(n.name)] : p.regs.plain[std::string(n.name)]) = std::string(d.type());
      }
      p.slots.push_back({Slot::Role::Decl, i});
      break;
    }
    case Stmt::Kind::Directive:
      p.slots.push_back({Slot::Role::Directive, i});
      break;
    case Stmt::Kind::Label:
      p.slots.push_back({Slot::Role::Exit, i});  // checked below: only before the final ret
      break;
    case Stmt::Kind::Instruction:
      p.slots.push_back({Slot::Role::Instr, i});
      break;
    }
  }
  unsigned scopedInstrs = 0;  // instructions inside nested blocks (for k, below)
  for (const auto &sl : p.slots)
    if (sl.role == Slot::Role::Scoped) {
      std::string why = scopedBlockWhy(static_cast<const ir::Block &>(*body[sl.stmt]), p.regs, scopedInstrs);
      if (!why.empty()) {
        p.why = "it has a nested { } block with " + why;
        p.whyAt = body[sl.stmt].get();
        return false;
      }
    }
  // The exit: trailing labels and one unguarded `ret` (directives between).
  size_t end = p.slots.size();
  auto instrAt = [&](const Slot &s) -> const Instruction & { return static_cast<const Instruction &>(*body[s.stmt]); };
  int lastInstr = -1;
  for (size_t i = 0; i < p.slots.size(); ++i)
    if (p.slots[i].role == Slot::Role::Instr) lastInstr = static_cast<int>(i);
  if (lastInstr < 0 || instrAt(p.slots[lastInstr]).opcode != "ret" || !instrAt(p.slots[lastInstr]).guard.empty()) {
    p.why = "the body does not end with `ret`";
    return false;
  }
  std::set<std::string_view> exitLabels;
  size_t cut = static_cast<size_t>(lastInstr);
  p.slots[cut].role = Slot::Role::Exit;
  for (size_t i = cut; i-- > 0;) {
    if (p.slots[i].role == Slot::Role::Exit) {
      exitLabels.insert(static_cast<const ir::Label &>(*body[p.slots[i].stmt]).name);
      cut = i;
    } else if (p.slots[i].role == Slot::Role::Directive) {
      continue;
    } else {
      break;
    }
  }
  for (size_t i = cut; i < end; ++i)
    if (p.slots[i].role != Slot::Role::Directive) p.slots[i].role = Slot::Role::Exit;
  // If-then regions: `@%p bra L; <plain instructions>; L:`, L the target of
  // that branch alone. The fast path predicates the region's instructions
  // with the branch's negated guard (if-conversion: an instruction that does
  // not run leaves its registers as the branch would have).
  std::map<std::string_view, int> branchesTo;
  for (size_t i = 0; i < cut; ++i)
    if (p.slots[i].role == Slot::Role::Instr && instrAt(p.slots[i]).base() == "bra")
      ++branchesTo[analysis::branchTarget(instrAt(p.slots[i]))];
  for (size_t i = 0; i < cut; ++i) {
    if (p.slots[i].role != Slot::Role::Instr) continue;
    const Instruction &br = instrAt(p.slots[i]);
    if (br.base() != "bra" || br.guard.empty()) continue;
    std::string_view target = analysis::branchTarget(br);
    if (exitLabels.count(target) || branchesTo[target] != 1) continue;
    size_t j = i + 1;
    bool plain = true;
    for (; j < cut; ++j) {
      const Slot &t = p.slots[j];
      if (t.role == Slot::Role::Directive) continue;
      if (t.role == Slot::Role::Exit) break;  // a label
      if (t.role == Slot::Role::Scoped) {  // predicated instruction by instruction: none may have a guard
        bool guarded = false;
        ir::forEachStmt(static_cast<const ir::Block &>(*body[t.stmt]), [&](const Stmt &st) {
          guarded |= st.kind == Stmt::Kind::Instruction && !static_cast<const Instruction &>(st).guard.empty();
        });
        if (guarded) {
          plain = false;
          break;
        }
        continue;
      }
      const Instruction &x = instrAt(t);
      if (t.role != Slot::Role::Instr || !x.guard.empty() || analysis::flowOf(x) != analysis::Flow::Next ||
          x.base() == "bra" || x.base() == "call" || x.base() == "ret" || x.base() == "exit") {
        plain = false;
        break;
      }
    }
    if (!plain || j >= cut || static_cast<const ir::Label &>(*body[p.slots[j].stmt]).name != target) continue;
    p.slots[i].role = Slot::Role::RegionBranch;
    p.slots[j].role = Slot::Role::RegionLabel;
    for (size_t t = i + 1; t < j; ++t) p.slots[t].region = static_cast<int>(i);
    ++p.regions;
    i = j;
  }
  // The main part: straight-line code, if-then regions and guards to the exit.
  unsigned segment = 0;
  bool storeSeen = false;
  std::map<const Stmt *, size_t> slotOf;
  for (size_t i = 0; i < cut; ++i) {
    Slot &s = p.slots[i];
    slotOf[body[s.stmt].get()] = i;
    if (s.role == Slot::Role::Exit) {
      p.why = "it has control flow other than bounds guards (label " +
              std::string(static_cast<const ir::Label &>(*body[s.stmt]).name) + ")";
      p.whyAt = body[s.stmt].get();
      return false;
    }
    if (s.role == Slot::Role::RegionBranch || s.role == Slot::Role::RegionLabel || s.role == Slot::Role::Scoped)
      s.segment = segment;
    if (s.role != Slot::Role::Instr) continue;
    const Instruction &in = instrAt(s);
    s.segment = segment;
    auto flow = analysis::flowOf(in);
    std::string_view base = in.base();
    if (base == "call") {
      p.why = "it calls a function";
      p.whyAt = &in;
      return false;
    }
    bool toExit = (base == "bra" && exitLabels.count(analysis::branchTarget(in))) || base == "ret" || base == "exit";
    if (flow != analysis::Flow::Next || base == "bra" || base == "ret" || base == "exit") {
      if (!toExit || (in.guard.empty() && base == "bra" && i + 1 != cut)) {
        p.why = "it has control flow other than bounds guards (" + std::string(in.opcode) + ")";
        p.whyAt = &in;
        return false;
      }
      if (in.guard.empty()) {  // `bra EXIT` / `ret` at the end of the main part
        if (i + 1 != cut) {
          p.why = "it returns before the end of the body";
          p.whyAt = &in;
          return false;
        }
        s.role = Slot::Role::Exit;
        continue;
      }
      if (storeSeen) {
        p.why = "a store comes before a bounds guard";
        p.whyAt = &in;
        return false;
      }
      s.role = Slot::Role::Guard;
      ++segment;
      ++p.guards;
      continue;
    }
    // Special registers the clone cannot give per logical thread.
    for (const auto &o : in.operands) {
      bool bad = false;
      analysis::forEachRegister(o, [&](const Operand &r) {
        bad |= r.text == "%tid" || r.text == "%ntid" || r.text.starts_with("%laneid") || r.text.starts_with("%warpid") ||
               r.text.starts_with("%lanemask");
      });
      if (bad) {
        p.why = "it reads the thread's vector index, lane or warp id";
        p.whyAt = &in;
        return false;
      }
    }
    if (auto mem = analysis::memAccess(in); mem && !plainMemoryOp(in)) {
      p.why = std::string(in.opcode) + " has an ordering or volatile qualifier (the slow path may repeat it)";
      p.whyAt = &in;
      return false;
    }
    if (auto mem = analysis::memAccess(in); mem && mem->kind == analysis::MemAccess::Kind::Store) storeSeen = true;
  }
  // Accesses: unit stride along %tid.x, or independent of it.
  unsigned maxW = 0;
  std::map<size_t, const AccessInfo *> accessOfSlot;
  for (const auto &a : fa.accesses()) {
    const Instruction *in = fa.cfg().instructions()[a.instr];
    auto it = slotOf.find(in);
    if (it == slotOf.end()) continue;  // in the exit part (none: only ret)
    if (a.mem.space == ".param" || a.mem.space == ".const") continue;
    if (a.mem.space != ".global" && !a.mem.space.empty()) {
      p.why = "it accesses " + std::string(a.mem.space) + " memory";
      p.whyAt = in;
      return false;
    }
    if (a.mem.kind != analysis::MemAccess::Kind::Load && a.mem.kind != analysis::MemAccess::Kind::Store) {
      p.why = std::string(in->opcode) + " is not a plain load or store";
      p.whyAt = in;
      return false;
    }
    if (a.verdict == AccessInfo::Verdict::Unknown) {
      // A gather or scatter (an address computed from data, a division...).
      // Each replica could keep its own access, as each logical thread had,
      // but neighbouring logical threads often touch neighbouring addresses
      // (a rotated image): after grouping, the lanes of a warp are k
      // elements apart and the access is up to k times less coalesced. The
      // rotations measured 0.57-0.93x on an H200 (docs/BENCHMARKS.md), so
      // this is opt-in (`--group-gathers`).
      if (!gathers) {
        p.why = "cannot analyse " + std::string(in->opcode) + " (" + a.reason +
                "): grouping could make it k times less coalesced (--group-gathers allows it)";
        p.whyAt = in;
        return false;
      }
      ++p.perReplica;
      continue;
    }
    std::optional<int64_t> stride;
    bool symbolic = false;
    for (const auto &st : a.strides)
      if (st.var == "%tid.x") {
        stride = st.constant;
        symbolic = !st.constant;
      }
    if (symbolic || (stride && *stride != 0 && *stride != static_cast<int64_t>(a.mem.bytes()))) {
      p.why = std::string(in->opcode) + " has stride " + (symbolic ? std::string("(symbolic)") : std::to_string(*stride)) +
              " bytes along %tid.x; grouping needs unit stride";
      p.whyAt = in;
      return false;
    }
    if (!stride || *stride == 0) continue;  // the same address for every replica: stays per replica
    unsigned w = a.mem.bytes();
    if (a.mem.vector != 1 || (w != 1 && w != 2 && w != 4 && w != 8) || !in->guard.empty() ||
        p.slots[it->second].region >= 0) {
      // It would stay per replica, and the lanes of a warp would then be k
      // elements apart: k times less coalesced than in the original.
      p.why = std::string(in->opcode) + " is unit-stride but cannot become a vector access (" +
              (a.mem.vector != 1 ? "already a vector" : !in->guard.empty() ? "predicated"
                                   : p.slots[it->second].region >= 0 ? "inside an if-then region" : "its width") +
              "): grouping would make it k times less coalesced";
      p.whyAt = in;
      return false;
    }
    Slot &s = p.slots[it->second];
    s.vector = true;
    s.load = a.mem.kind == analysis::MemAccess::Kind::Load;
    s.w = w;
    accessOfSlot[it->second] = &a;
    maxW = std::max(maxW, w);
  }
  if (!maxW) {
    p.why = "no unit-stride global access of 1, 2, 4 or 8 bytes along %tid.x";
    return false;
  }
  // k: 16-byte vectors for the widest access, halved while the fast path
  // would run more than kMaxFastPath instructions per hardware thread (the
  // body times k), as long as every vector stays at least 4 bytes. Few, long
  // threads leave a small launch latency-bound: Sobel (69 instructions) at
  // 1920x1080 ran 0.91x with k=16 and 1.12x with k=8 on an H200, and 3.08x
  // and 2.96x at 8192x8192; the matrix add (19 instructions) is fastest at 16.
  unsigned minW = 16, instrs = scopedInstrs;
  for (const auto &sl : p.slots) {
    if (sl.vector) minW = std::min(minW, sl.w);
    instrs += sl.role == Slot::Role::Instr || sl.role == Slot::Role::Guard;
  }
  p.k = 16 / maxW;
  p.longBody = p.k * instrs > kMaxFastPath;
  while (!forcedK && p.k / 2 >= 2 && (p.k / 2) * minW >= 4 && p.k * instrs > kMaxFastPath) p.k /= 2;
  if (forcedK) p.k = forcedK;
  // Alignment of replica 0's address, and the registers the unpacking needs.
  auto &aff = fa.affine();
  for (auto &[slotIndex, a] : accessOfSlot) {
    Slot &s = p.slots[slotIndex];
    const Instruction &in = instrAt(s);
    const int64_t V = static_cast<int64_t>(p.k) * s.w;
    if (V != 4 && V != 8 && V != 16) {
      p.why = "k=" + std::to_string(p.k) + " gives " + std::to_string(V) + "-byte accesses for " + std::string(in.opcode) +
              " (4, 8 or 16 needed)";
      p.whyAt = &in;
      return false;
    }
    if (!a->address.known) {
      p.why = "cannot express the address of " + std::string(in.opcode);
      p.whyAt = &in;
      return false;
    }
    // Each term a multiple of V (with %tid.x and %ntid.x counting k times),
    // or one parameter the runtime checks; the constant term's remainder is
    // a misalignment (below).
    int64_t misalign = 0;
    auto scaleByK = [&](const analysis::Symbol &sym) -> int64_t {
      return (sym.kind == analysis::Symbol::Kind::Tid || sym.kind == analysis::Symbol::Kind::Ntid) && sym.dim == 0
                 ? p.k
                 : 1;
    };
    if (!vectorAlignment(a->address.poly, aff, f, V, scaleByK, p.aligned, misalign)) {
      p.why = "cannot prove that " + std::string(in.opcode) + " at " + aff.str(a->address.poly) + " is " +
              std::to_string(V) + "-byte aligned for k=" + std::to_string(p.k);
      p.whyAt = &in;
      return false;
    }
    if (misalign) {
      if (!s.load || s.w > 4 || misalign % s.w != 0) {
        p.why = std::string(in.opcode) + " at " + aff.str(a->address.poly) + " is " + std::to_string(misalign) +
                " bytes off a " + std::to_string(V) + "-byte boundary (" +
                (s.load ? "not a whole number of elements" : "a store cannot be split without touching its neighbours") + ")";
        p.whyAt = &in;
        return false;
      }
      const Operand &addr = in.operands[1];
      bool simple = addr.kind == Operand::Kind::Address && addr.elems.size() == 1 &&
                    (addr.elems[0].kind == Operand::Kind::Register ||
                     (addr.elems[0].kind == Operand::Kind::Sum && addr.elems[0].elems[0].kind == Operand::Kind::Register &&
                      addr.elems[0].elems[1].intValue()));
      if (!simple) {
        p.why = std::string(in.opcode) + " is misaligned and its address is not [register] or [register+offset]";
        p.whyAt = &in;
        return false;
      }
      s.misalign = static_cast<unsigned>(misalign);
    }
    // The register the value goes to or comes from.
    const Operand &data = s.load ? in.operands[0] : in.operands[1];
    if (!s.load && data.kind == Operand::Kind::Immediate && data.intValue()) continue;  // a constant stored
    if (data.kind != Operand::Kind::Register) {
      p.why = std::string(in.opcode) + " has a non-register data operand";
      p.whyAt = &in;
      return false;
    }
    unsigned bits = p.regs.bits(data.text);
    bool ok = s.w == 8   ? bits == 64
              : s.load   ? (bits == 16 && s.w < 4) || bits == 32 || bits == 64
              : s.w == 4 ? bits == 32
                         : bits == 16 || bits == 32;
    if (!ok) {
      p.why = std::string(in.opcode) + " uses register " + std::string(data.text) + " of " + std::to_string(bits) +
              " bits";
      p.whyAt = &in;
      return false;
    }
  }
  std::sort(p.aligned.begin(), p.aligned.end(),
            [](const Variant::AlignedParam &a, const Variant::AlignedParam &b) { return a.index < b.index; });
  return true;
}

/// Builds the grouped body of `clone` (a copy of the planned function).
void buildGrouped(ir::Module &m, ir::Function &clone, const Plan &p) {
  auto &src = clone.body->body;
  const unsigned k = p.k;
  Emitter e{m, {}};
  e.prefix = "%ptxopt_g";
  std::vector<std::unique_ptr<Stmt>> out;
  // Declarations: the original's, and one copy per replica.
  for (const auto &s : p.slots) {
    if (s.role != Slot::Role::Decl) continue;
    const auto &d = static_cast<const ir::Decl &>(*src[s.stmt]);
    out.push_back(d.clone());
    for (unsigned r = 1; r < k; ++r) {
      auto c = std::make_unique<ir::Decl>(d);
      for (auto &n : c->names) {
        std::string nm(n.name);
        n.name = m.intern(n.range ? nm + "_g" + std::to_string(r) + "_" : nm + "_g" + std::to_string(r));
      }
      c->edited = true;
      c->span = {};
      out.push_back(std::move(c));
    }
  }
  // Prologue: the logical %tid.x and %ntid.x of each replica.
  std::string tid = e.reg32(), ntid = e.reg32(), gntid = e.reg32();
  std::vector<std::string> gtid(k);
  e.ins("mov.u32", {tid, "%tid.x"});
  e.ins("mov.u32", {ntid, "%ntid.x"});
  e.ins("mul.lo.u32", {gntid, ntid, std::to_string(k)});
  for (unsigned r = 0; r < k; ++r) {
    gtid[r] = e.reg32();
    e.ins("mad.lo.u32", {gtid[r], tid, std::to_string(k), std::to_string(r)});
  }
  // Replica r of instruction `in`.
  auto renameOp = [&](Operand &o, unsigned r, bool &special16) {
    std::function<void(Operand &)> walk = [&](Operand &x) {
      if (x.kind == Operand::Kind::Register) {
        if (x.text == "%tid.x") {
          x.text = m.intern(gtid[r]);
          special16 = true;
        } else if (x.text == "%ntid.x") {
          x.text = m.intern(gntid);
          special16 = true;
        } else {
          x.text = m.intern(replicaName(p, x.text, r));
        }
      }
      for (auto &el : x.elems) walk(el);
    };
    walk(o);
  };
  auto replica = [&](const Instruction &in, unsigned r) {
    auto c = std::make_unique<Instruction>(in);
    c->span = {};
    c->edited = true;
    bool special = false;
    for (auto &o : c->operands) renameOp(o, r, special);
    if (!c->guard.empty()) c->guard = m.intern(replicaName(p, c->guard, r));
    if (special && c->base() == "mov" &&
        (c->hasModifier(".u16") || c->hasModifier(".b16") || c->hasModifier(".s16")))
      c->opcode = m.intern("cvt.u16.u32");
    return c;
  };
  // Replica r of nested block `b`: its instructions renamed as above; the
  // names it declares stay (each copy is its own scope).
  std::function<std::unique_ptr<ir::Block>(const ir::Block &, unsigned)> replicaBlock = [&](const ir::Block &b,
                                                                                            unsigned r) {
    auto c = std::make_unique<ir::Block>(b);
    c->span = {};
    c->edited = true;
    for (auto &st : c->body) {
      if (st->kind == Stmt::Kind::Instruction) st = replica(static_cast<const Instruction &>(*st), r);
      else if (st->kind == Stmt::Kind::Block) st = replicaBlock(static_cast<const ir::Block &>(*st), r);
    }
    return c;
  };
  auto rname = [&](const Operand &o, unsigned r) { return replicaName(p, o.text, r); };
  // Opcode of the vector access: the original's modifiers, then .vN and the type.
  auto vectorOpcode = [&](const Instruction &in, unsigned w, std::string &elemType, unsigned &count) {
    std::string type = typeModifier(in);
    unsigned V = k * w;
    if (w >= 4) {
      elemType = type;
      count = k;
    } else {
      elemType = ".b32";
      count = V / 4;
    }
    std::string op(in.base());
    for (auto mod : in.modifiers())
      if (std::string(mod) != type) op += std::string(mod);
    if (count > 1) op += ".v" + std::to_string(count);
    return op + elemType;
  };
  // Loaded 16-byte chunks by (opcode, register, offset), until the next store.
  std::map<std::string, std::vector<std::string>> chunkCache;
  auto emitVector = [&](const Slot &s) {
    const auto &in = static_cast<const Instruction &>(*src[s.stmt]);
    std::string elemType;
    unsigned count = 0;
    std::string opcode = vectorOpcode(in, s.w, elemType, count);
    bool sign = typeModifier(in)[1] == 's';
    auto addr = replica(in, 0)->operands[s.load ? 1 : 0];
    auto vecOperand = [&](const std::vector<std::string> &regs) {
      if (regs.size() == 1) return e.op(regs[0]);
      Operand v{Operand::Kind::Vector, "", {}};
      for (const auto &r : regs) v.elems.push_back(e.op(r));
      return v;
    };
    auto emitRaw = [&](std::vector<Operand> ops) {
      auto c = std::make_unique<Instruction>();
      c->opcode = m.intern(opcode);
      c->operands = std::move(ops);
      c->edited = true;
      e.out.push_back(std::move(c));
    };
    if (s.load) {
      const Operand &dst = in.operands[0];
      const unsigned dstBits = p.regs.bits(dst.text);
      if (s.w >= 4 && dstBits == s.w * 8 && !s.misalign) {  // straight into the replicas' registers
        std::vector<std::string> regs;
        for (unsigned r = 0; r < k; ++r) regs.push_back(rname(dst, r));
        emitRaw({vecOperand(regs), addr});
        return;
      }
      // The k*w bytes as 32-bit words. When replica 0's element is
      // `misalign` bytes into an aligned vector, that vector and the next
      // (both hold bytes the replicas read, so both lie in mapped memory).
      const unsigned V = k * s.w, nwords = V / 4;
      std::string wordOpcode(in.base());
      for (auto mod : in.modifiers())
        if (std::string(mod) != typeModifier(in)) wordOpcode += std::string(mod);
      if (nwords > 1) wordOpcode += ".v" + std::to_string(nwords);
      wordOpcode += ".b32";
      // The aligned chunks, as (register, byte offset): [reg+off-misalign]
      // and, when misaligned, the next one. A chunk already loaded since the
      // last store is reused (Sobel's left, centre and right neighbours share
      // the middle chunk).
      const Operand &a0 = addr.elems.empty() ? addr : addr.elems[0];
      const bool simpleAddr = addr.kind == Operand::Kind::Address && addr.elems.size() == 1 &&
                              (a0.kind == Operand::Kind::Register ||
                               (a0.kind == Operand::Kind::Sum && a0.elems[0].kind == Operand::Kind::Register &&
                                a0.elems[1].intValue()));
      std::vector<std::pair<std::string, int64_t>> chunks;
      if (simpleAddr) {
        std::string reg(a0.kind == Operand::Kind::Register ? a0.text : a0.elems[0].text);
        int64_t off = a0.kind == Operand::Kind::Register ? 0 : *a0.elems[1].intValue() * (a0.text == "-" ? -1 : 1);
        chunks.push_back({reg, off - static_cast<int64_t>(s.misalign)});
        if (s.misalign) chunks.push_back({reg, off - static_cast<int64_t>(s.misalign) + V});
      }
      std::vector<std::string> words;
      auto loadChunk = [&](const Operand &at, const std::string &key) {
        auto hit = key.empty() ? chunkCache.end() : chunkCache.find(key);
        if (hit != chunkCache.end()) {
          words.insert(words.end(), hit->second.begin(), hit->second.end());
          return;
        }
        std::vector<std::string> ws;
        for (unsigned j = 0; j < nwords; ++j) ws.push_back(e.reg32());
        auto c = std::make_unique<Instruction>();
        c->opcode = m.intern(wordOpcode);
        c->operands = {vecOperand(ws), at};
        c->edited = true;
        e.out.push_back(std::move(c));
        if (!key.empty()) chunkCache[key] = ws;
        words.insert(words.end(), ws.begin(), ws.end());
      };
      if (chunks.empty()) {
        loadChunk(addr, "");
      } else {
        for (const auto &[reg, off] : chunks) {
          Operand at{Operand::Kind::Address, "", {}};
          if (off == 0) at.elems.push_back(e.op(reg));
          else at.elems.push_back(Operand{Operand::Kind::Sum, "+", {e.op(reg), e.op(std::to_string(off))}});
          loadChunk(at, wordOpcode + " " + reg + " " + std::to_string(off));
        }
      }
      for (unsigned r = 0; r < k; ++r) {
        const unsigned byte = s.misalign + r * s.w;
        emitUnpack(e, words, byte, s.w, sign, rname(dst, r), dstBits);
      }
      return;
    }
    chunkCache.clear();  // a store: loaded chunks may be stale
    const Operand &val = in.operands[1];
    const bool immediate = val.kind == Operand::Kind::Immediate;
    std::string constant;  // a stored constant, in a register (the same for every replica)
    if (immediate && s.w == 8) {
      constant = e.reg64();
      e.ins("mov.b64", {constant, std::string(val.text)});
    } else if (immediate) {
      constant = e.reg32();
      e.ins("mov.b32", {constant, std::string(val.text)});
    }
    if (s.w >= 4) {
      std::vector<std::string> regs;
      for (unsigned r = 0; r < k; ++r) regs.push_back(immediate ? constant : rname(val, r));
      emitRaw({addr, vecOperand(regs)});
      return;
    }
    bool val16 = !immediate && p.regs.bits(val.text) == 16;
    std::vector<std::string> u(k);
    for (unsigned r = 0; r < k; ++r) {
      if (immediate) {
        u[r] = constant;
      } else if (val16) {
        u[r] = e.reg32();
        e.ins("cvt.u32.u16", {u[r], rname(val, r)});
      } else {
        u[r] = rname(val, r);
      }
    }
    std::vector<std::string> words;
    for (unsigned j = 0; j < count; ++j) {
      std::string wd = e.reg32();
      if (s.w == 2) {
        e.ins("prmt.b32", {wd, u[2 * j], u[2 * j + 1], "21520"});  // 0x5410
      } else {
        std::string lo = e.reg32(), hi = e.reg32();
        e.ins("prmt.b32", {lo, u[4 * j], u[4 * j + 1], "64"});       // 0x0040
        e.ins("prmt.b32", {hi, u[4 * j + 2], u[4 * j + 3], "64"});
        e.ins("prmt.b32", {wd, lo, hi, "21520"});
      }
      words.push_back(wd);
    }
    emitRaw({addr, vecOperand(words)});
  };
  // A base register that `in` redefines: the chunks loaded through it are stale.
  auto forgetDefs = [&](const Instruction &in) {
    for (auto d : analysis::defUse(in).defs) {
      std::string needle(1, ' ');
      needle.append(d).push_back(' ');
      std::erase_if(chunkCache, [&](const auto &entry) { return entry.first.find(needle) != std::string::npos; });
    }
  };
  auto flush = [&] {
    for (auto &st : e.out) out.push_back(std::move(st));
    e.out.clear();
  };
  flush();  // the prologue
  const std::string slow = "$ptxopt_group_slow";
  // ---- fast path
  for (const auto &s : p.slots) {
    if (s.role == Slot::Role::Directive) {
      out.push_back(src[s.stmt]->clone());
      continue;
    }
    if (s.role == Slot::Role::Scoped) {
      const auto &b = static_cast<const ir::Block &>(*src[s.stmt]);
      ir::forEachStmt(b, [&](const Stmt &st) {
        if (st.kind == Stmt::Kind::Instruction) forgetDefs(static_cast<const Instruction &>(st));
      });
      for (unsigned r = 0; r < k; ++r) {
        auto c = replicaBlock(b, r);
        if (s.region >= 0) {  // if-conversion, as for an instruction (below), of each instruction inside
          const auto &br = static_cast<const Instruction &>(*src[p.slots[s.region].stmt]);
          ir::forEachStmt(*c, [&](Stmt &st) {
            if (st.kind != Stmt::Kind::Instruction) return;
            auto &in = static_cast<Instruction &>(st);
            in.guard = m.intern(replicaName(p, br.guard, r));
            in.guardNegated = !br.guardNegated;
          });
        }
        out.push_back(std::move(c));
      }
      continue;
    }
    if (s.role == Slot::Role::Instr) {
      const auto &in = static_cast<const Instruction &>(*src[s.stmt]);
      if (s.vector) {
        emitVector(s);
      } else {
        if (auto mem = analysis::memAccess(in); mem && mem->kind != analysis::MemAccess::Kind::Load &&
                                                 mem->kind != analysis::MemAccess::Kind::Prefetch)
          chunkCache.clear();
        forgetDefs(in);
        for (unsigned r = 0; r < k; ++r) {
          auto c = replica(in, r);
          if (s.region >= 0) {  // if-conversion: runs when the branch around it is not taken
            const auto &br = static_cast<const Instruction &>(*src[p.slots[s.region].stmt]);
            c->guard = m.intern(replicaName(p, br.guard, r));
            c->guardNegated = !br.guardNegated;
          }
          e.out.push_back(std::move(c));
        }
      }
      flush();
      continue;
    }
    if (s.role == Slot::Role::Guard) {
      const auto &in = static_cast<const Instruction &>(*src[s.stmt]);
      std::string any;
      for (unsigned r = 0; r < k; ++r) {
        std::string g = replicaName(p, in.guard, r);
        if (in.guardNegated) {
          std::string n = e.regp();
          e.ins("not.pred", {n, g});
          g = n;
        }
        if (any.empty()) {
          any = g;
        } else {
          std::string acc = e.regp();
          e.ins("or.pred", {acc, any, g});
          any = acc;
        }
      }
      e.ins("bra", {slow}, any);
      flush();
    }
  }
  e.ins("ret", {});
  // ---- slow path: the replicas one after another, each with its guards
  if (p.guards) {
    e.label(slow);
    for (unsigned r = 0; r < k; ++r) {
      std::string skip = "$ptxopt_group_next" + std::to_string(r);
      for (const auto &s : p.slots) {
        if (s.role == Slot::Role::Instr) e.out.push_back(replica(static_cast<const Instruction &>(*src[s.stmt]), r));
        if (s.role == Slot::Role::Scoped) e.out.push_back(replicaBlock(static_cast<const ir::Block &>(*src[s.stmt]), r));
        const std::string regionLabel = "_g" + std::to_string(r);
        if (s.role == Slot::Role::RegionBranch) {
          const auto &br = static_cast<const Instruction &>(*src[s.stmt]);
          auto g = replica(br, r);
          g->operands = {e.op(std::string(analysis::branchTarget(br)) + regionLabel)};
          e.out.push_back(std::move(g));
        }
        if (s.role == Slot::Role::RegionLabel)
          e.label(std::string(static_cast<const ir::Label &>(*src[s.stmt]).name) + regionLabel);
        if (s.role == Slot::Role::Guard) {
          auto g = replica(static_cast<const Instruction &>(*src[s.stmt]), r);
          g->opcode = m.intern("bra");
          g->operands = {e.op(skip)};
          e.out.push_back(std::move(g));
        }
      }
      e.label(skip);
    }
    e.ins("ret", {});
  }
  std::vector<std::unique_ptr<Stmt>> temps;
  temps.push_back(e.decl(".b32", e.prefix + "r", e.r32));
  if (e.r64) temps.push_back(e.decl(".b64", e.prefix + "rd", e.r64));
  if (e.pred) temps.push_back(e.decl(".pred", e.prefix + "p", e.pred));
  // Declarations first, then the temporaries, then the code.
  size_t decls = 0;
  while (decls < out.size() && out[decls]->kind == Stmt::Kind::Decl) ++decls;
  out.insert(out.begin() + static_cast<long>(decls), std::make_move_iterator(temps.begin()),
             std::make_move_iterator(temps.end()));
  flush();
  clone.body->body = std::move(out);
  dropBlockShapeDirectives(clone);
}

/// The launch transform of the grouped clone: `base`'s, with the dimension
/// that becomes block.x divided by k.
bool composeVariant(const Variant &base, const Plan &p, const std::string &name, Variant &v, std::string &why) {
  v = base;
  v.name = name;
  v.pass = "group";
  // Blocks of fewer than 64 threads cannot fill an SM (32 resident blocks):
  // the examples' Sobel, launched with 32 x 8 blocks, ran 0.75x grouped by
  // 16 into 2 x 8 blocks. Such launches take the next variant.
  v.minBlockThreads = std::max<uint32_t>(base.minBlockThreads, kMinBlockThreads);
  v.kind = base.kind == "identity" || base.kind.empty() ? "group" : base.kind + "+group";
  DimSource &bx = v.block[0];
  if (bx.from == DimSource::From::Const) {
    if (bx.value % p.k) {
      why = "block.x " + std::to_string(bx.value) + " is not a multiple of k=" + std::to_string(p.k);
      return false;
    }
    bx.value /= p.k;
  } else {
    bx.divide *= p.k;
    auto &mult = bx.from == DimSource::From::Block ? v.blockMultiple[bx.dim] : v.gridMultiple[bx.dim];
    mult = std::lcm(mult, bx.divide);
  }
  for (const auto &ap : p.aligned) {
    bool found = false;
    for (auto &x : v.alignedParams)
      if (x.index == ap.index) {
        x.bytes = std::max(x.bytes, ap.bytes);
        found = true;
      }
    if (!found) v.alignedParams.push_back(ap);
  }
  return true;
}

/// The block-merged form of group clone `g` (built for blocks of B/k
/// threads): hardware blocks keep the original's B threads and each runs k
/// logical blocks of the group clone, so launches whose B/k would fall under
/// kMinBlockThreads (the common 256-thread blocks of 8- and 16-bit kernels)
/// still get 16-byte accesses. In a hardware block of B threads, thread t
/// runs group-clone thread t % (B/k) of logical block ctaid.x*k + t / (B/k);
/// the grid is ceil(grid.x / k) blocks, and logical blocks at or past the
/// original grid.x, which the clone receives as an extra .u32 parameter,
/// return at once (group clones have no barriers). Refused (nullopt) when
/// `g` reads %tid/%ctaid/%ntid/%nctaid as vectors or cluster registers.
std::optional<std::string> mergeBlocks(ir::Module &m, ir::Function &g, unsigned k) {
  std::optional<std::string> refused;
  ir::forEachStmt(*g.body, [&](const Stmt &st) {
    if (st.kind != Stmt::Kind::Instruction) return;
    for (const auto &op : static_cast<const Instruction &>(st).operands)
      analysis::forEachRegister(op, [&](const Operand &r) {
        if (r.text == "%tid" || r.text == "%ntid" || r.text == "%ctaid" || r.text == "%nctaid" ||
            r.text.starts_with("%cluster") || r.text.starts_with("%ncluster") || r.text.starts_with("%is_explicit"))
          refused = "it reads " + std::string(r.text);
      });
  });
  if (refused || !g.params) return refused ? refused : std::optional<std::string>("it has no parameter list");
  // The original grid.x, after the original's parameters.
  const std::string gridParam = std::string(g.name) + "_param_ptxopt_grid_x";
  ir::Decl d;
  d.attrs = {m.intern(".param"), m.intern(".u32")};
  d.names.push_back({m.intern(gridParam), {}, {}});
  d.semicolon = false;
  d.edited = true;
  g.params->push_back(std::move(d));
  g.edited = true;
  Emitter e{m, {}};
  e.prefix = "%ptxopt_m";
  std::string t = e.reg32(), n = e.reg32(), c = e.reg32(), ln = e.reg32(), q = e.reg32(), qn = e.reg32(),
              lt = e.reg32(), lc = e.reg32(), gx = e.reg32(), past = e.regp();
  e.ins("mov.u32", {t, "%tid.x"});
  e.ins("mov.u32", {n, "%ntid.x"});
  e.ins("mov.u32", {c, "%ctaid.x"});
  e.ins("div.u32", {ln, n, std::to_string(k)});    // threads of a logical block (launch condition: B % k == 0)
  e.ins("div.u32", {q, t, ln});                    // which logical block of the k
  e.ins("mul.lo.u32", {qn, q, ln});
  e.ins("sub.u32", {lt, t, qn});                   // thread in it
  e.ins("mad.lo.u32", {lc, c, std::to_string(k), q});
  e.ins("ld.param.u32", {gx, "[" + gridParam + "]"});
  e.ins("setp.ge.u32", {past, lc, gx});
  e.ins("ret", {}, past);
  replaceSpecialReads(*g.body, {{"%tid.x", lt}, {"%ctaid.x", lc}, {"%ntid.x", ln}, {"%nctaid.x", gx}}, m);
  insertPrologue(g, e, false);  // the .b32 temporaries and the code
  auto &body = g.body->body;
  body.insert(body.begin() + static_cast<long>(prologueAt(*g.body)), e.decl(".pred", e.prefix + "p", e.pred));
  return std::nullopt;
}

/// The launch of the block-merged clone: the group clone's `v` with the
/// original block and ceil(grid.x / k) blocks, the original grid.x as an
/// extra argument; blocks must still divide by k.
Variant mergedVariant(const Variant &v, const std::string &name, unsigned k, bool heavy) {
  Variant r = v;
  r.name = name;
  r.kind = "group-merged";
  r.block[0] = DimSource{DimSource::From::Block, 0};
  r.grid[0] = DimSource{DimSource::From::Grid, 0, k, 0, true};
  r.blockMultiple[0] = std::lcm(r.blockMultiple[0], k);
  r.extraArgs = {DimSource{DimSource::From::Grid, 0}};
  r.minLaunchThreads = std::max(v.minLaunchThreads, heavy ? kMergedHeavyMinThreads : kMergedMinThreads);
  return r;
}

/// "at least 524288 threads in the launch (...)": the remark's text for minLaunchThreads.
std::string launchFloor(uint32_t threads, bool heavy) {
  return "at least " + std::to_string(threads) + " threads in the launch (smaller ones are latency-bound" +
         (heavy ? ", more so with misaligned loads or a long body)" : ")");
}

/// "grid.x % 4096 == 0, block.x % 16 == 0": the divisibility conditions of `v`.
std::string multiples(const Variant &v) {
  std::string out;
  for (int d = 0; d < 3; ++d) {
    if (v.gridMultiple[d] > 1)
      out += std::string(out.empty() ? "" : ", ") + "grid." + "xyz"[d] + " % " + std::to_string(v.gridMultiple[d]) + " == 0";
    if (v.blockMultiple[d] > 1)
      out += std::string(out.empty() ? "" : ", ") + "block." + "xyz"[d] + " % " + std::to_string(v.blockMultiple[d]) + " == 0";
    if (v.gridMin[d] > 1)
      out += std::string(out.empty() ? "" : ", ") + "grid." + "xyz"[d] + " >= " + std::to_string(v.gridMin[d]);
  }
  return out.empty() ? "none on the shape" : out;
}

unsigned forcedK(PassContext &ctx) {
  auto it = ctx.options.find("group-k");
  if (it == ctx.options.end()) return 0;
  return static_cast<unsigned>(std::stoul(it->second));
}

}  // namespace

void runGroup(PassContext &ctx) {
  ir::Module &m = ctx.module;
  unsigned fk = forcedK(ctx);
  // Kernels, and clones made by earlier passes that keep hardware %tid.x as
  // the unit-stride index (swap, split); not remap clones or group clones.
  std::vector<ir::Function *> work;
  for (auto *f : m.kernels()) {
    std::string_view n = f->name;
    auto pos = n.find("__ptxopt_");
    if (pos == std::string_view::npos) work.push_back(f);
    else if ((n.substr(pos).starts_with("__ptxopt_swap") || n.substr(pos).starts_with("__ptxopt_split")) &&
             n.find("_group") == std::string_view::npos)
      work.push_back(f);
  }
  for (ir::Function *f : work) {
    ctx.count("kernels");
    const std::string name(f->name);
    auto known = ctx.baseOf(*f);
    if (!known) {
      ctx.remark(Remark::Kind::Missed, *f, "", "not grouped: a __ptxopt_ clone the manifest does not list");
      continue;
    }
    ir::Function *original = known->original;
    const bool isClone = known->isClone;
    Plan plan;
    if (!planGroup(ctx, *f, plan, fk, ctx.options.count("group-gathers") != 0)) {
      ctx.count("refused");
      if (!isClone && known->variantCount) {
        // coalesce made clones: the original is not unit-stride along
        // %tid.x by construction; the clones are tried next.
        ctx.remark(Remark::Kind::Note, *original, "", "the original is not grouped (" + plan.why + "); its coalesce clones are tried");
        continue;
      }
      ctx.remark(Remark::Kind::Missed, *original,
                 plan.whyAt ? locationOf(m, ctx.analyses.get(*f), plan.whyAt) : std::string(),
                 (isClone ? "clone " + name + ": " : "") + "not grouped: " + plan.why);
      continue;
    }
    // One group clone per variant that launches `f` (a shared split clone
    // has two, which share the group clone too); each variant inserted
    // moves the later ones down by one.
    std::vector<size_t> indices = isClone ? known->indices : std::vector<size_t>{0};
    size_t inserted = 0;
    for (size_t n = 0; n < indices.size(); ++n) {
      const size_t baseIndex = indices[n] + inserted;
      Variant base = isClone ? ctx.entry(*original).variants[baseIndex] : known->variant;  // identity for an original
      // Source of the clone: `f`, or for a split clone a new one with S*k
      // logical blocks per hardware block (so hardware blocks keep S threads).
      std::unique_ptr<ir::Function> source;
      std::string cloneName;
      if (base.kind == "split") {
        uint32_t S = base.block[0].value;
        auto [fresh, var] = makeSplitClone(m, *original, S * plan.k, base.gridMin[0]);
        source = std::move(fresh);
        base = var;
        cloneName = std::string(source->name) + "_group" + std::to_string(plan.k);
        source->name = m.intern(cloneName);
      } else {
        cloneName = name + (isClone ? "_group" : "__ptxopt_group") + std::to_string(plan.k);
        source = ir::cloneFunction(*f, cloneName, "_pg", m);
      }
      Variant v;
      std::string why;
      if (!composeVariant(base, plan, cloneName, v, why)) {
        ctx.remark(Remark::Kind::Missed, *original, "", "not grouped (" + name + "): " + why);
        continue;
      }
      buildGrouped(m, *source, plan);
      unsigned vectors = 0, misaligned = 0;
      for (const auto &sl : plan.slots) {
        vectors += sl.vector;
        misaligned += sl.misalign != 0;
      }
      const bool heavy = plan.longBody || misaligned != 0;
      v.minLaunchThreads = std::max(base.minLaunchThreads, heavy ? kGroupHeavyMinThreads : kGroupMinThreads);
      // For an original: also the block-merged form, for launches whose
      // blocks are too small to divide by k (after the plain one, which
      // needs no index arithmetic).
      std::unique_ptr<ir::Function> merged;
      Variant mv;
      if (!isClone && plan.k >= 4 && v.block[0].from == DimSource::From::Block && v.block[0].dim == 0 &&
          v.grid[0].from == DimSource::From::Grid && v.grid[0].dim == 0 && v.grid[0].divide == 1) {
        const std::string mergedName = cloneName + "_merged";
        merged = ir::cloneFunction(*source, mergedName, "_pm", m);
        if (auto why = mergeBlocks(m, *merged, plan.k)) {
          ctx.remark(Remark::Kind::Note, *original, "", "no block-merged group clone: " + *why);
          merged.reset();
        } else {
          mv = mergedVariant(v, mergedName, plan.k, heavy);  // keeps the 64-thread minimum
          v.minBlockThreads = std::max(v.minBlockThreads, kPlainMinOriginalBlock / plan.k);
        }
      }
      int at = m.itemIndex(f);
      // Preferred over the clone it was made from.
      if (!ctx.addClone(*original, std::move(source), v, at,
                        isClone ? std::optional<size_t>(baseIndex) : std::nullopt))
        continue;
      ++inserted;
      std::string conds;
      for (const auto &ap : plan.aligned)
        conds += ", param " + std::to_string(ap.index) + " % " + std::to_string(ap.bytes) + " == 0";
      ctx.remark(Remark::Kind::Applied, *original, "",
                 cloneName + ": " + std::to_string(plan.k) + " logical threads per thread, " + std::to_string(vectors) +
                     " vector access(es)" + (misaligned ? " (" + std::to_string(misaligned) + " misaligned: two aligned loads)" : "") +
                     (plan.perReplica ? ", " + std::to_string(plan.perReplica) + " gather/scatter access(es) per thread" : "") +
                     (plan.guards ? ", " + std::to_string(plan.guards) + " bounds guard(s) with a per-thread slow path" : "") +
                     (plan.regions ? ", " + std::to_string(plan.regions) + " if-then region(s) predicated" : "") +
                     "; launch conditions: " + multiples(v) + conds + ", " + launchFloor(v.minLaunchThreads, heavy));
      if (merged && ctx.addClone(*original, std::move(merged), mv, at)) {
        ++inserted;
        ctx.remark(Remark::Kind::Applied, *original, "",
                   mv.name + ": the same with blocks of the original size, each running " + std::to_string(plan.k) +
                       " logical blocks (for launches whose block.x / " + std::to_string(plan.k) +
                       " is under " + std::to_string(v.minBlockThreads) + " threads); launch conditions: " +
                       multiples(mv) + conds + ", " + launchFloor(mv.minLaunchThreads, heavy));
      }
    }
  }
}

}  // namespace ptxopt::transforms
