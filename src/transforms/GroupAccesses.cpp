// group, steps 2 and 3 (the overview is in Group.cpp): every global access
// unit-stride along %tid.x (a vector access of the k replicas),
// independent of it, or a gather; k from the widest access and the
// body's length; the alignment of replica 0's addresses (runtime
// conditions on parameters) and the registers the unpacking needs.
#include <algorithm>
#include <numeric>

#include "GroupPlanner.h"

namespace ptxopt::transforms::group {

bool Planner::classifyAccesses() {
  // Accesses: unit stride along %tid.x, or independent of it.
  for (const auto &a : fa_.accesses())
    if (!classifyAccess(a)) return false;
  if (!maxW_) {
    p_.why = "no unit-stride global access of 1, 2, 4 or 8 bytes along %tid.x";
    return false;
  }
  return true;
}

bool Planner::classifyAccess(const AccessInfo &a) {
  const Instruction *in = fa_.cfg().instructions()[a.instr];
  auto it = slotOf_.find(in);
  if (it == slotOf_.end()) return true;  // in the exit part (none: only ret)
  if (a.mem.space == ".param" || a.mem.space == ".const") return true;
  if (a.mem.space == ".local" && !p_.localNames.empty()) {
    // Each replica's addresses come from its own copy of the depot (its
    // own %SPL): private, per replica. Stores to it may come before a
    // guard: the slow path replays the replica from the start, writing
    // the same values again into memory no other thread reads.
    return true;
  }
  if (a.mem.space != ".global" && !a.mem.space.empty()) {
    p_.why = "it accesses " + std::string(a.mem.space) + " memory";
    p_.whyAt = in;
    return false;
  }
  if (deadAtomic(in) && !ctx_.options.group.atomics) {
    // Not communication, but each replica's atomic is its own request:
    // k of them per hardware thread, one after another, ran a counting
    // kernel at 0.15x on an H100 (gpu-diff `count_above`).
    p_.why = std::string(in->opcode) + ": an atomic with an unused result stays per logical thread, which "
             "measured 0.15x (--group-atomics allows it)";
    p_.whyAt = in;
    return false;
  }
  if (deadAtomic(in)) {
    // Stays per replica. A data-dependent address (a histogram) follows
    // the gathers' rule; a unit stride along %tid.x would spread the
    // lanes of a warp k elements apart.
    if (a.verdict == AccessInfo::Verdict::Unknown && !gathers_) {
      p_.why = "cannot analyse " + std::string(in->opcode) + " (" + a.reason +
               "): grouping could make it k times less coalesced (--group-gathers allows it)";
      p_.whyAt = in;
      return false;
    }
    for (const auto &st : a.strides)
      if (st.var == "%tid.x" && !(st.constant && *st.constant == 0)) {
        p_.why = std::string(in->opcode) + " depends on %tid.x: an atomic stays per logical thread, and grouping "
                 "would make it k times less coalesced";
        p_.whyAt = in;
        return false;
      }
    return true;
  }
  if (a.mem.kind != analysis::MemAccess::Kind::Load && a.mem.kind != analysis::MemAccess::Kind::Store) {
    p_.why = std::string(in->opcode) + " is not a plain load or store";
    p_.whyAt = in;
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
    if (!gathers_) {
      p_.why = "cannot analyse " + std::string(in->opcode) + " (" + a.reason +
               "): grouping could make it k times less coalesced (--group-gathers allows it)";
      p_.whyAt = in;
      p_.refusedForGathers = true;
      return false;
    }
    ++p_.perReplica;
    return true;
  }
  std::optional<int64_t> stride;
  bool symbolic = false;
  for (const auto &st : a.strides)
    if (st.var == "%tid.x") {
      stride = st.constant;
      symbolic = !st.constant;
    }
  if (symbolic || (stride && *stride != 0 && *stride != static_cast<int64_t>(a.mem.bytes()))) {
    p_.why = std::string(in->opcode) + " has stride " + (symbolic ? std::string("(symbolic)") : std::to_string(*stride)) +
             " bytes along %tid.x; grouping needs unit stride";
    p_.whyAt = in;
    return false;
  }
  if (!stride || *stride == 0) return true;  // the same address for every replica: stays per replica
  unsigned w = a.mem.bytes();
  // A load inside an if-then or if/else arm becomes one vector load
  // predicated on any replica's arm (aligned only: checked below).
  const bool regionLoad = p_.slots[it->second].region >= 0 && a.mem.kind == analysis::MemAccess::Kind::Load &&
                          w <= 4 && !p_.slots[p_.slots[it->second].region].toExit;
  if (a.mem.vector != 1 || (w != 1 && w != 2 && w != 4 && w != 8) || !in->guard.empty() ||
      (p_.slots[it->second].region >= 0 && !regionLoad)) {
    // It would stay per replica, and the lanes of a warp would then be k
    // elements apart: k times less coalesced than in the original.
    p_.why = std::string(in->opcode) + " is unit-stride but cannot become a vector access (" +
             (a.mem.vector != 1 ? "already a vector" : !in->guard.empty() ? "predicated"
                                  : p_.slots[it->second].region >= 0
                                      ? (p_.slots[p_.slots[it->second].region].toExit
                                             ? "after a bounds guard that follows a store: predicated"
                                             : "inside an if-then region")
                                      : "its width") +
             "): grouping would make it k times less coalesced";
    p_.whyAt = in;
    return false;
  }
  if (regionLoad && !addressSlice(it->second, *in)) return false;
  Slot &s = p_.slots[it->second];
  s.vector = true;
  s.load = a.mem.kind == analysis::MemAccess::Kind::Load;
  s.w = w;
  accessOfSlot_[it->second] = &a;
  maxW_ = std::max(maxW_, w);
  return true;
}

bool Planner::addressSlice(size_t at, const Instruction &in) {
  // The address of replica 0's element, computed in the arm: the
  // instructions of the arm it depends on, re-run unpredicated (plain
  // arithmetic on 32- or 64-bit registers, each defining its first
  // operand alone).
  const Slot &ls = p_.slots[at];
  std::set<std::string> needed;
  analysis::forEachRegister(in.operands[1], [&](const Operand &r) { needed.insert(std::string(r.text)); });
  std::vector<size_t> slice;
  std::string sliceWhy;
  for (size_t t = at; t-- > static_cast<size_t>(ls.region) + 1 && sliceWhy.empty();) {
    const Slot &q = p_.slots[t];
    if (q.region != ls.region || q.regionTaken != ls.regionTaken) continue;
    if (q.role == Slot::Role::Scoped) {
      ir::forEachStmt(static_cast<const ir::Block &>(*body_[q.stmt]), [&](const Stmt &st) {
        if (st.kind == Stmt::Kind::Instruction)
          for (auto d : analysis::defUse(static_cast<const Instruction &>(st)).defs)
            if (needed.count(std::string(d))) sliceWhy = "a nested block";
      });
      continue;
    }
    if (q.role != Slot::Role::Instr) continue;
    const Instruction &x = instrAt(q);
    auto du = analysis::defUse(x);
    bool defines = false;
    for (auto d : du.defs) defines |= needed.count(std::string(d)) != 0;
    if (!defines) continue;
    unsigned bits = x.operands.empty() ? 0 : p_.regs.bits(x.operands[0].text);
    if (du.defs.size() != 1 || x.operands.empty() || x.operands[0].kind != Operand::Kind::Register ||
        du.defs[0] != x.operands[0].text || analysis::memAccess(x) || (bits != 32 && bits != 64))
      sliceWhy = std::string(x.opcode);
    for (auto u : du.uses) needed.insert(std::string(u));
    slice.push_back(t);
  }
  if (!sliceWhy.empty()) {
    p_.why = std::string(in.opcode) + " is unit-stride inside a region, but its address is computed there by " +
             sliceWhy + ", which cannot run for every replica";
    p_.whyAt = &in;
    return false;
  }
  std::reverse(slice.begin(), slice.end());
  p_.slots[at].addrSlice = slice;
  return true;
}

bool Planner::chooseK() {
  // k: 16-byte vectors for the widest access, halved while the fast path
  // would run more than kMaxFastPath instructions per hardware thread (the
  // body times k), as long as every vector stays at least 4 bytes. Few, long
  // threads leave a small launch latency-bound: Sobel (69 instructions) at
  // 1920x1080 ran 0.91x with k=16 and 1.12x with k=8 on an H200, and 3.08x
  // and 2.96x at 8192x8192; the matrix add (19 instructions) is fastest at 16.
  unsigned minW = 16, instrs = scopedInstrs_;
  for (const auto &sl : p_.slots) {
    if (sl.vector) minW = std::min(minW, sl.w);
    instrs += sl.role == Slot::Role::Instr || sl.role == Slot::Role::Guard;
  }
  // 64-bit elements: k = 2 (two per 16-byte vector) measured no faster
  // (daxpy 0.99-1.02x at 2M-33M elements on an H100,
  // docs/results/2026-11-25/family-h100-2026-11-25-before.md); a clone that does not
  // pay still costs the program its load and the launch hook.
  if (maxW_ >= 8 && !forcedK_) {
    p_.why = "its widest unit-stride access is 8 bytes: two logical threads per 16-byte vector measured no faster "
             "(--group-k=2 forces it)";
    return false;
  }
  // Grid-stride loops over 32-bit data (every unit-stride access 4 bytes
  // wide): the form was built for 8- and 16-bit data (#18), whose clones
  // measured 1.73-2.05x; at 32 bits k = 4 saves the least, nothing measured
  // it, and its clones cost ptxas time in every program that has such a
  // kernel, though they rarely run: grid-stride kernels are mostly launched
  // with grids sized to the device (the family harness's fillRandom: 1024 x
  // 256 = 2^18 threads, under the 2^21 floor below), and the family's
  // fillRandom<float> and <int> clones never ran (docs/BENCHMARKS.md).
  if (p_.loopLatch && minW >= 4 && !forcedK_) {
    p_.why = "a grid-stride loop whose unit-stride accesses are all 4 bytes or wider: grouped only over 8- or 16-bit "
             "data (--group-k=4 forces it)";
    p_.whyAt = &instrAt(p_.slots[p_.loopLatch]);
    return false;
  }
  // Grid-stride loops whose body is mostly arithmetic: grouping saves
  // memory instructions and requests, not arithmetic (each element's stays),
  // while the clone holds the body 3k times (the vectorized loop, each
  // replica's remaining iterations, the slow path). The loops measured
  // faster grouped have one unit-stride access per 3.7 and 4.5 instructions
  // of the body (gs_add_u8 2.05x, gs_clamp_u16 1.73x, H100); the family
  // harness's fillRandom<char> and make_mask, a 64-bit hash and one store in
  // 24 instructions, got 1900-line clones (ptxas 82 -> 822 ms on
  // bench/family/elementwise.cu with the 32-bit ones above) that never ran.
  if (p_.loopLatch && !forcedK_) {
    unsigned loopInstrs = 0, loopVectors = 0;
    for (size_t j = p_.loopLabel + 1; j <= p_.loopLatch; ++j) {
      loopInstrs += p_.slots[j].role == Slot::Role::Instr || p_.slots[j].role == Slot::Role::LoopLatch;
      loopVectors += p_.slots[j].vector;
    }
    if (loopVectors * kGridStrideInstrsPerAccess < loopInstrs) {
      p_.why = "a grid-stride loop of " + std::to_string(loopInstrs) + " instructions with " +
               std::to_string(loopVectors) + " unit-stride access(es): grouped only with one access per " +
               std::to_string(kGridStrideInstrsPerAccess) +
               " instructions or more (grouping saves memory instructions, the clone holds the body 3k times; "
               "--group-k forces it)";
      p_.whyAt = &instrAt(p_.slots[p_.loopLatch]);
      return false;
    }
  }
  p_.k = 16 / maxW_;
  p_.longBody = p_.k * instrs > kMaxFastPath;
  while (!forcedK_ && p_.k / 2 >= 2 && (p_.k / 2) * minW >= 4 && p_.k * instrs > kMaxFastPath) p_.k /= 2;
  if (forcedK_) p_.k = forcedK_;
  return true;
}

bool Planner::checkAlignment() {
  // Alignment of replica 0's address, and the registers the unpacking needs.
  for (auto &[slotIndex, a] : accessOfSlot_)
    if (!checkAlignment(slotIndex, a)) return false;
  return true;
}

bool Planner::checkAlignment(size_t slotIndex, const AccessInfo *a) {
  auto &aff = fa_.affine();
  Slot &s = p_.slots[slotIndex];
  const Instruction &in = instrAt(s);
  const int64_t V = static_cast<int64_t>(p_.k) * s.w;
  if (V != 4 && V != 8 && V != 16) {
    p_.why = "k=" + std::to_string(p_.k) + " gives " + std::to_string(V) + "-byte accesses for " + std::string(in.opcode) +
             " (4, 8 or 16 needed)";
    p_.whyAt = &in;
    return false;
  }
  if (!a->address.known) {
    p_.why = "cannot express the address of " + std::string(in.opcode);
    p_.whyAt = &in;
    return false;
  }
  // Each term a multiple of V (with %tid.x and %ntid.x counting k times),
  // or one parameter the runtime checks; the constant term's remainder is
  // a misalignment (below).
  int64_t misalign = 0;
  auto scaleByK = [&](const analysis::Symbol &sym) -> int64_t {
    return (sym.kind == analysis::Symbol::Kind::Tid || sym.kind == analysis::Symbol::Kind::Ntid) && sym.dim == 0
               ? p_.k
               : 1;
  };
  if (!vectorAlignment(a->address.poly, aff, f_, V, scaleByK, p_.aligned, misalign)) {
    p_.why = "cannot prove that " + std::string(in.opcode) + " at " + aff.str(a->address.poly) + " is " +
             std::to_string(V) + "-byte aligned for k=" + std::to_string(p_.k);
    p_.whyAt = &in;
    return false;
  }
  if (misalign && s.region >= 0) {
    // The second aligned vector may hold no byte a running replica reads
    // (the right border of the last row): it could lie past the buffer.
    p_.why = std::string(in.opcode) + " at " + aff.str(a->address.poly) + " is " + std::to_string(misalign) +
             " bytes off a " + std::to_string(V) + "-byte boundary inside a region (its second vector may lie " +
             "past what the running replicas read)";
    p_.whyAt = &in;
    return false;
  }
  if (misalign) {
    if (!s.load || s.w > 4 || misalign % s.w != 0) {
      p_.why = std::string(in.opcode) + " at " + aff.str(a->address.poly) + " is " + std::to_string(misalign) +
               " bytes off a " + std::to_string(V) + "-byte boundary (" +
               (s.load ? "not a whole number of elements" : "a store cannot be split without touching its neighbours") + ")";
      p_.whyAt = &in;
      return false;
    }
    const Operand &addr = in.operands[1];
    bool simple = addr.kind == Operand::Kind::Address && addr.elems.size() == 1 &&
                  (addr.elems[0].kind == Operand::Kind::Register ||
                   (addr.elems[0].kind == Operand::Kind::Sum && addr.elems[0].elems[0].kind == Operand::Kind::Register &&
                    addr.elems[0].elems[1].intValue()));
    if (!simple) {
      p_.why = std::string(in.opcode) + " is misaligned and its address is not [register] or [register+offset]";
      p_.whyAt = &in;
      return false;
    }
    s.misalign = static_cast<unsigned>(misalign);
  }
  // The register the value goes to or comes from.
  const Operand &data = s.load ? in.operands[0] : in.operands[1];
  if (!s.load && data.kind == Operand::Kind::Immediate && data.intValue()) return true;  // a constant stored
  if (data.kind != Operand::Kind::Register) {
    p_.why = std::string(in.opcode) + " has a non-register data operand";
    p_.whyAt = &in;
    return false;
  }
  unsigned bits = p_.regs.bits(data.text);
  bool ok = s.w == 8   ? bits == 64
            : s.load   ? (bits == 16 && s.w < 4) || bits == 32 || bits == 64
            : s.w == 4 ? bits == 32
                       : bits == 16 || bits == 32;
  if (!ok) {
    p_.why = std::string(in.opcode) + " uses register " + std::string(data.text) + " of " + std::to_string(bits) +
             " bits";
    p_.whyAt = &in;
    return false;
  }
  return true;
}

}  // namespace ptxopt::transforms::group
