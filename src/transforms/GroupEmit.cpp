// group, step 4: the grouped clone's body (the overview is in Group.cpp):
// the replicas interleaved in the fast path with the unit-stride accesses
// as vectors, if-then regions predicated, and the per-replica slow path.
// With Plan::partial, border groups (some replicas fail the one bounds
// guard) run the fast path too, predicated per replica, and there is no
// slow path: the paper's Sobel at 1920 x 1080 in its 32 x 8 blocks (the
// block-merged k = 4 clone) ran 1.13x with the slow path and 1.21x without
// on an H100: the slow path's four replicas one after another are four
// memory round trips where the fast path has one, and at the image's left
// and right borders whole blocks took it (scripts/bench/sobel-small.sh).
#include <algorithm>
#include <functional>
#include <map>

#include "GroupPlan.h"

namespace ptxopt::transforms::group {

std::string partialWhy(const ir::Function &f, const Plan &p) {
  if (p.guards == 0) return "no bounds guard (the form measured has one)";
  if (p.guards > 1) return std::to_string(p.guards) + " bounds guards (one is handled)";
  if (p.regions || p.ifElseRegions) return "if-then or if/else regions";
  if (p.loopLatch) return "a grid-stride loop";
  if (!p.localNames.empty() || p.atomics || p.perReplica) return "local arrays, atomics, gathers or scatters";
  const auto &src = f.body->body;
  bool afterGuard = false;
  for (const auto &s : p.slots) {
    if (s.role == Slot::Role::Guard) afterGuard = true;
    // Scoped blocks hold plain arithmetic (planGroup): run for every replica.
    if (!afterGuard || s.role != Slot::Role::Instr || s.vector) continue;
    const auto &in = static_cast<const Instruction &>(*src[s.stmt]);
    // A replica that failed the guard runs the instructions after it on
    // whatever values it has: only what has no effect but its registers.
    if (auto mem = analysis::memAccess(in)) {
      if (mem->kind != analysis::MemAccess::Kind::Load && mem->kind != analysis::MemAccess::Kind::Store)
        return "an atomic or prefetch after the guard";
      if (!in.guard.empty()) return "a predicated memory access after the guard";
      continue;  // predicated on its replica passing the guard
    }
    std::string_view b = in.base();
    for (std::string_view x :
         {"tex", "tld4", "txq", "suld", "sust", "sured", "suq", "bar", "barrier", "membar", "fence", "mbarrier", "cp",
          "wgmma", "trap", "brkpt", "pmevent", "nanosleep", "vote", "shfl", "match", "redux", "activemask", "elect",
          "griddepcontrol", "tensormap", "multimem", "setmaxnreg", "alloca", "stackrestore", "stacksave", "call", "bra",
          "brx", "ret", "exit", "discard", "applypriority", "clusterlaunchcontrol"})
      if (b == x) return "'" + std::string(in.opcode) + "' after the guard";
  }
  return {};
}

namespace {

/// buildGrouped's steps (Group.cpp's step 4), one method each: the
/// declarations, the prologue, the fast path (one method per role of a
/// slot; the vector accesses), the grid-stride loop's remaining iterations,
/// the slow path, and the temporaries' declarations.
class GroupEmitter {
public:
  GroupEmitter(ir::Module &m, ir::Function &clone, const Plan &p)
      : m_(m), clone_(clone), p_(p), src_(clone.body->body), k_(p.k), e_{m, {}}, gtid_(p.k), partial_(p.partial),
        failOf_(p.k), allReplicas_(p.k >= 32 ? ~0u : (1u << p.k) - 1) {
    e_.prefix = "%ptxopt_g";
  }

  void run() {
    declarations();
    prologue();
    flush();  // the prologue
    fastPath();
    loopRemainder();
    slowPath();
    finish();
  }

private:
  /// The original's declarations, and one copy per replica.
  void declarations();
  /// The logical %tid.x and %ntid.x of each replica.
  void prologue();
  void fastPath();
  void fastScoped(const Slot &s);
  void fastInstr(const Slot &s);
  void fastLatch(const Slot &s);
  void fastGuard(const Slot &s);
  /// The grid-stride loop's remaining iterations, replica by replica.
  void loopRemainder();
  /// The replicas one after another, each with its guards.
  void slowPath();
  /// The temporaries' declarations; the body into the clone.
  void finish();

  void renameOp(Operand &o, unsigned r, bool &special16);
  /// Replica r of instruction `in`.
  std::unique_ptr<Instruction> replica(const Instruction &in, unsigned r);
  /// Replica r of nested block `b`: its instructions renamed as above; the
  /// names it declares stay (each copy is its own scope).
  std::unique_ptr<ir::Block> replicaBlock(const ir::Block &b, unsigned r);
  std::string rname(const Operand &o, unsigned r) const { return replicaName(p_, o.text, r); }
  /// Opcode of the vector access: the original's modifiers, then .vN and the type.
  std::string vectorOpcode(const Instruction &in, unsigned w, std::string &elemType, unsigned &count) const;
  /// Plan::partial: the predicate "some replica of set `mask` passes the guard".
  std::string passOf(unsigned mask);
  /// A vector store after the guard (element width w, replica 0's address
  /// `addr`): it runs when all replicas pass; when some fail, each passing
  /// replica stores its own element, at addr + r*w where addr is a register
  /// plus a constant (unit stride), else at its own address.
  void partialStore(const Instruction &in, const Operand &addr, unsigned w);
  /// The unit-stride access at slot `s` as one vector access of the k replicas.
  void emitVector(const Slot &s);
  void emitVectorLoad(const Slot &s, const Instruction &in, const std::string &opcode, const Operand &addr,
                      const std::vector<std::pair<std::string, bool>> &armPred, const std::string &anyArm);
  void emitVectorStore(const Slot &s, const Instruction &in, const std::string &opcode, unsigned count,
                       const Operand &addr);
  Operand vecOperand(const std::vector<std::string> &regs) {
    if (regs.size() == 1) return e_.op(regs[0]);
    Operand v{Operand::Kind::Vector, "", {}};
    for (const auto &r : regs) v.elems.push_back(e_.op(r));
    return v;
  }
  void emitRaw(const std::string &opcode, std::vector<Operand> ops) {
    auto c = std::make_unique<Instruction>();
    c->opcode = m_.intern(opcode);
    c->operands = std::move(ops);
    c->edited = true;
    e_.out.push_back(std::move(c));
  }
  /// A base register that `in` redefines: the chunks loaded through it are stale.
  void forgetDefs(const Instruction &in);
  void flush() {
    for (auto &st : e_.out) out_.push_back(std::move(st));
    e_.out.clear();
  }

  ir::Module &m_;
  ir::Function &clone_;
  const Plan &p_;
  std::vector<std::unique_ptr<Stmt>> &src_;
  const unsigned k_;
  Emitter e_;
  std::vector<std::unique_ptr<Stmt>> out_;
  std::string gntid_;               // the logical %ntid.x
  std::vector<std::string> gtid_;   // each replica's logical %tid.x
  // Loaded 16-byte chunks by (opcode, register, offset), until the next store.
  std::map<std::string, std::vector<std::string>> chunkCache_;
  // Plan::partial, after the guard: replica r's "fails the guard" predicate,
  // "some replica fails", and per set of replicas (a bit mask) "some replica
  // of the set passes", whose definitions go right after the guard (so that
  // a chunk loaded earlier can take a larger set when a later access reuses
  // it); the load of each cached chunk and the replicas it serves.
  const bool partial_;
  bool afterGuard_ = false;
  std::vector<std::string> failOf_;
  std::string anyFail_;
  std::vector<std::unique_ptr<Stmt>> setPreds_;
  size_t setPredsAt_ = 0;
  std::map<unsigned, std::string> passOfSet_;
  std::map<std::string, std::pair<Instruction *, unsigned>> chunkLoad_;
  const unsigned allReplicas_;
  const std::string slow_ = "$ptxopt_group_slow", loopRest_ = "$ptxopt_group_loop_rest";
};

void GroupEmitter::declarations() {
  for (const auto &s : p_.slots) {
    if (s.role != Slot::Role::Decl) continue;
    const auto &d = static_cast<const ir::Decl &>(*src_[s.stmt]);
    out_.push_back(d.clone());
    for (unsigned r = 1; r < k_; ++r) {
      auto c = std::make_unique<ir::Decl>(d);
      for (auto &n : c->names) {
        std::string nm(n.name);
        n.name = m_.intern(n.range ? nm + "_g" + std::to_string(r) + "_" : nm + "_g" + std::to_string(r));
      }
      c->edited = true;
      c->span = {};
      out_.push_back(std::move(c));
    }
  }
}

void GroupEmitter::prologue() {
  std::string tid = e_.reg32(), ntid = e_.reg32();
  gntid_ = e_.reg32();
  e_.ins("mov.u32", {tid, "%tid.x"});
  e_.ins("mov.u32", {ntid, "%ntid.x"});
  e_.ins("mul.lo.u32", {gntid_, ntid, std::to_string(k_)});
  for (unsigned r = 0; r < k_; ++r) {
    gtid_[r] = e_.reg32();
    e_.ins("mad.lo.u32", {gtid_[r], tid, std::to_string(k_), std::to_string(r)});
  }
}

void GroupEmitter::renameOp(Operand &o, unsigned r, bool &special16) {
  std::function<void(Operand &)> walk = [&](Operand &x) {
    if (x.kind == Operand::Kind::Register) {
      if (x.text == "%tid.x") {
        x.text = m_.intern(gtid_[r]);
        special16 = true;
      } else if (x.text == "%ntid.x") {
        x.text = m_.intern(gntid_);
        special16 = true;
      } else {
        x.text = m_.intern(replicaName(p_, x.text, r));
      }
    } else if (x.kind == Operand::Kind::Symbol && p_.localNames.count(std::string(x.text))) {
      x.text = m_.intern(replicaName(p_, x.text, r));  // the replica's own .local array
    }
    for (auto &el : x.elems) walk(el);
  };
  walk(o);
}

std::unique_ptr<Instruction> GroupEmitter::replica(const Instruction &in, unsigned r) {
  auto c = std::make_unique<Instruction>(in);
  c->span = {};
  c->edited = true;
  bool special = false;
  for (auto &o : c->operands) renameOp(o, r, special);
  if (!c->guard.empty()) c->guard = m_.intern(replicaName(p_, c->guard, r));
  if (special && c->base() == "mov" &&
      (c->hasModifier(".u16") || c->hasModifier(".b16") || c->hasModifier(".s16")))
    c->opcode = m_.intern("cvt.u16.u32");
  return c;
}

std::unique_ptr<ir::Block> GroupEmitter::replicaBlock(const ir::Block &b, unsigned r) {
  auto c = std::make_unique<ir::Block>(b);
  c->span = {};
  c->edited = true;
  for (auto &st : c->body) {
    if (st->kind == Stmt::Kind::Instruction) st = replica(static_cast<const Instruction &>(*st), r);
    else if (st->kind == Stmt::Kind::Block) st = replicaBlock(static_cast<const ir::Block &>(*st), r);
  }
  return c;
}

std::string GroupEmitter::vectorOpcode(const Instruction &in, unsigned w, std::string &elemType,
                                       unsigned &count) const {
  std::string type = typeModifier(in);
  unsigned V = k_ * w;
  if (w >= 4) {
    elemType = type;
    count = k_;
  } else {
    elemType = ".b32";
    count = V / 4;
  }
  std::string op(in.base());
  for (auto mod : in.modifiers())
    if (std::string(mod) != type) op += std::string(mod);
  if (count > 1) op += ".v" + std::to_string(count);
  return op + elemType;
}

std::string GroupEmitter::passOf(unsigned mask) {
  if (auto it = passOfSet_.find(mask); it != passOfSet_.end()) return it->second;
  std::swap(e_.out, setPreds_);  // defined after the guard
  std::string all;
  for (unsigned r = 0; r < k_; ++r) {
    if (!(mask >> r & 1)) continue;
    if (all.empty()) {
      all = failOf_[r];
    } else {
      std::string a = e_.regp();
      e_.ins("and.pred", {a, all, failOf_[r]});
      all = a;
    }
  }
  std::string pass = e_.regp();
  e_.ins("not.pred", {pass, all});
  std::swap(e_.out, setPreds_);
  return passOfSet_[mask] = pass;
}

void GroupEmitter::partialStore(const Instruction &in, const Operand &addr, unsigned w) {
  if (!partial_ || !afterGuard_) return;
  auto &vec = static_cast<Instruction &>(*e_.out.back());
  vec.guard = m_.intern(anyFail_);
  vec.guardNegated = true;
  const Operand *a0 = addr.kind == Operand::Kind::Address && addr.elems.size() == 1 ? &addr.elems[0] : nullptr;
  std::optional<int64_t> off;
  if (a0 && a0->kind == Operand::Kind::Register) off = 0;
  if (a0 && a0->kind == Operand::Kind::Sum && a0->elems[0].kind == Operand::Kind::Register && a0->elems[1].intValue())
    off = *a0->elems[1].intValue() * (a0->text == "-" ? -1 : 1);
  for (unsigned r = 0; r < k_; ++r) {
    std::string pass = passOf(1u << r), own = e_.regp();
    std::swap(e_.out, setPreds_);
    e_.ins("and.pred", {own, pass, anyFail_});
    std::swap(e_.out, setPreds_);
    auto c = replica(in, r);
    if (off) {
      const Operand &reg = a0->kind == Operand::Kind::Register ? *a0 : a0->elems[0];
      const int64_t at = *off + static_cast<int64_t>(r) * w;
      Operand x{Operand::Kind::Address, "", {}};
      if (at == 0) x.elems.push_back(reg);
      else x.elems.push_back(Operand{Operand::Kind::Sum, "+", {reg, e_.op(std::to_string(at))}});
      c->operands[0] = std::move(x);
    }
    c->guard = m_.intern(own);
    c->guardNegated = false;
    e_.out.push_back(std::move(c));
  }
}

void GroupEmitter::emitVector(const Slot &s) {
  const auto &in = static_cast<const Instruction &>(*src_[s.stmt]);
  std::string elemType;
  unsigned count = 0;
  std::string opcode = vectorOpcode(in, s.w, elemType, count);
  auto addr = replica(in, 0)->operands[s.load ? 1 : 0];
  // A load inside an if-then or if/else arm: the vector load runs when any
  // replica's arm runs (its aligned vector then holds a byte that replica
  // reads, so it lies in mapped memory; planGroup allows no misaligned
  // load here), each replica's unpacking only when its own arm runs.
  std::vector<std::pair<std::string, bool>> armPred;  // per replica: predicate, negated
  std::string anyArm;
  if (s.region >= 0) {
    const auto &br = static_cast<const Instruction &>(*src_[p_.slots[s.region].stmt]);
    const bool neg = s.regionTaken ? br.guardNegated : !br.guardNegated;
    for (unsigned r = 0; r < k_; ++r) {
      std::string g = replicaName(p_, br.guard, r);
      armPred.push_back({g, neg});
      if (neg) {
        std::string n = e_.regp();
        e_.ins("not.pred", {n, g});
        g = n;
      }
      if (anyArm.empty()) {
        anyArm = g;
      } else {
        std::string o = e_.regp();
        e_.ins("or.pred", {o, anyArm, g});
        anyArm = o;
      }
    }
  }
  if (!s.addrSlice.empty()) {
    // Replica 0's address, computed in the arm: its instructions again,
    // unpredicated, into temporaries (the arm itself stays predicated).
    std::map<std::string, std::string> tempOf;
    for (size_t at : s.addrSlice) {
      auto c = replica(static_cast<const Instruction &>(*src_[p_.slots[at].stmt]), 0);
      for (size_t x = 1; x < c->operands.size(); ++x) renameOperand(c->operands[x], tempOf, m_);
      const std::string d(c->operands[0].text);
      const std::string t = p_.regs.bits(d) == 64 ? e_.reg64() : e_.reg32();
      tempOf[d] = t;
      c->operands[0].text = m_.intern(t);
      e_.out.push_back(std::move(c));
    }
    renameOperand(addr, tempOf, m_);
  }
  if (s.load) {
    emitVectorLoad(s, in, opcode, addr, armPred, anyArm);
    return;
  }
  emitVectorStore(s, in, opcode, count, addr);
}

void GroupEmitter::emitVectorLoad(const Slot &s, const Instruction &in, const std::string &opcode,
                                  const Operand &addr,
                                  const std::vector<std::pair<std::string, bool>> &armPred,
                                  const std::string &anyArm) {
  bool sign = typeModifier(in)[1] == 's';
  const Operand &dst = in.operands[0];
  const unsigned dstBits = p_.regs.bits(dst.text);
  if (s.w >= 4 && dstBits == s.w * 8 && !s.misalign && s.region < 0) {  // straight into the replicas' registers
    std::vector<std::string> regs;
    for (unsigned r = 0; r < k_; ++r) regs.push_back(rname(dst, r));
    emitRaw(opcode, {vecOperand(regs), addr});
    if (partial_ && afterGuard_) static_cast<Instruction &>(*e_.out.back()).guard = m_.intern(passOf(allReplicas_));
    return;
  }
  // The k*w bytes as 32-bit words. When replica 0's element is
  // `misalign` bytes into an aligned vector, that vector and the next
  // (both hold bytes the replicas read, so both lie in mapped memory).
  const unsigned V = k_ * s.w, nwords = V / 4;
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
  // Replicas with a byte in chunk c (Plan::partial: the chunk is loaded
  // when one of them passes the guard, so it holds a byte the original
  // reads and lies in mapped memory).
  auto chunkMask = [&](unsigned c) {
    if (chunks.empty()) return allReplicas_;
    unsigned mask = 0;
    for (unsigned r = 0; r < k_; ++r) {
      const unsigned first = s.misalign + r * s.w, last = first + s.w - 1;
      if (first / V == c || last / V == c) mask |= 1u << r;
    }
    return mask;
  };
  unsigned chunkIndex = 0;
  auto loadChunk = [&](const Operand &at, const std::string &key) {
    const unsigned mask = chunkMask(chunkIndex++);
    auto hit = key.empty() ? chunkCache_.end() : chunkCache_.find(key);
    if (hit != chunkCache_.end()) {
      // Loaded after the guard (a load before it runs for every replica):
      // the earlier load now serves these replicas too.
      if (auto prev = chunkLoad_.find(key); partial_ && afterGuard_ && prev != chunkLoad_.end()) {
        prev->second.second |= mask;
        prev->second.first->guard = m_.intern(passOf(prev->second.second));
      }
      words.insert(words.end(), hit->second.begin(), hit->second.end());
      return;
    }
    std::vector<std::string> ws;
    for (unsigned j = 0; j < nwords; ++j) ws.push_back(e_.reg32());
    auto c = std::make_unique<Instruction>();
    c->opcode = m_.intern(wordOpcode);
    c->operands = {vecOperand(ws), at};
    c->edited = true;
    if (!anyArm.empty()) c->guard = m_.intern(anyArm);
    if (partial_ && afterGuard_) {
      c->guard = m_.intern(passOf(mask));
      if (!key.empty()) chunkLoad_[key] = {c.get(), mask};
    }
    e_.out.push_back(std::move(c));
    if (!key.empty() && anyArm.empty()) chunkCache_[key] = ws;  // a predicated chunk is not reused
    words.insert(words.end(), ws.begin(), ws.end());
  };
  if (chunks.empty()) {
    loadChunk(addr, "");
  } else {
    for (const auto &[reg, off] : chunks) {
      Operand at{Operand::Kind::Address, "", {}};
      if (off == 0) at.elems.push_back(e_.op(reg));
      else at.elems.push_back(Operand{Operand::Kind::Sum, "+", {e_.op(reg), e_.op(std::to_string(off))}});
      loadChunk(at, wordOpcode + " " + reg + " " + std::to_string(off));
    }
  }
  for (unsigned r = 0; r < k_; ++r) {
    const unsigned byte = s.misalign + r * s.w;
    const size_t from = e_.out.size();
    emitUnpack(e_, words, byte, s.w, sign, rname(dst, r), dstBits);
    if (!armPred.empty())
      for (size_t x = from; x < e_.out.size(); ++x) {
        auto &u = static_cast<Instruction &>(*e_.out[x]);
        u.guard = m_.intern(armPred[r].first);
        u.guardNegated = armPred[r].second;
      }
  }
}

void GroupEmitter::emitVectorStore(const Slot &s, const Instruction &in, const std::string &opcode, unsigned count,
                                   const Operand &addr) {
  chunkCache_.clear();  // a store: loaded chunks may be stale
  const Operand &val = in.operands[1];
  const bool immediate = val.kind == Operand::Kind::Immediate;
  std::string constant;  // a stored constant, in a register (the same for every replica)
  if (immediate && s.w == 8) {
    constant = e_.reg64();
    e_.ins("mov.b64", {constant, std::string(val.text)});
  } else if (immediate) {
    constant = e_.reg32();
    e_.ins("mov.b32", {constant, std::string(val.text)});
  }
  if (s.w >= 4) {
    std::vector<std::string> regs;
    for (unsigned r = 0; r < k_; ++r) regs.push_back(immediate ? constant : rname(val, r));
    emitRaw(opcode, {addr, vecOperand(regs)});
    partialStore(in, addr, s.w);
    return;
  }
  bool val16 = !immediate && p_.regs.bits(val.text) == 16;
  std::vector<std::string> u(k_);
  for (unsigned r = 0; r < k_; ++r) {
    if (immediate) {
      u[r] = constant;
    } else if (val16) {
      u[r] = e_.reg32();
      e_.ins("cvt.u32.u16", {u[r], rname(val, r)});
    } else {
      u[r] = rname(val, r);
    }
  }
  std::vector<std::string> words;
  for (unsigned j = 0; j < count; ++j) {
    std::string wd = e_.reg32();
    if (s.w == 2) {
      e_.ins("prmt.b32", {wd, u[2 * j], u[2 * j + 1], "21520"});  // 0x5410
    } else {
      std::string lo = e_.reg32(), hi = e_.reg32();
      e_.ins("prmt.b32", {lo, u[4 * j], u[4 * j + 1], "64"});       // 0x0040
      e_.ins("prmt.b32", {hi, u[4 * j + 2], u[4 * j + 3], "64"});
      e_.ins("prmt.b32", {wd, lo, hi, "21520"});
    }
    words.push_back(wd);
  }
  emitRaw(opcode, {addr, vecOperand(words)});
  partialStore(in, addr, s.w);
}

void GroupEmitter::forgetDefs(const Instruction &in) {
  for (auto d : analysis::defUse(in).defs) {
    std::string needle(1, ' ');
    needle.append(d).push_back(' ');
    std::erase_if(chunkCache_, [&](const auto &entry) { return entry.first.find(needle) != std::string::npos; });
  }
}

void GroupEmitter::fastPath() {
  for (const auto &s : p_.slots) {
    if (s.role == Slot::Role::Directive) {
      out_.push_back(src_[s.stmt]->clone());
      continue;
    }
    if (s.role == Slot::Role::Scoped) {
      fastScoped(s);
      continue;
    }
    if (s.role == Slot::Role::Instr) {
      fastInstr(s);
      continue;
    }
    if (s.role == Slot::Role::LoopLabel) {  // the grid-stride loop, all replicas together
      flush();
      chunkCache_.clear();  // the chunks of the previous iteration (or of before the loop) are stale
      e_.label(std::string(static_cast<const ir::Label &>(*src_[s.stmt]).name));
      flush();
      continue;
    }
    if (s.role == Slot::Role::LoopLatch) {
      fastLatch(s);
      continue;
    }
    if (s.role == Slot::Role::Guard) fastGuard(s);
  }
  out_.insert(out_.begin() + static_cast<long>(setPredsAt_), std::make_move_iterator(setPreds_.begin()),
              std::make_move_iterator(setPreds_.end()));
}

void GroupEmitter::fastScoped(const Slot &s) {
  const auto &b = static_cast<const ir::Block &>(*src_[s.stmt]);
  ir::forEachStmt(b, [&](const Stmt &st) {
    if (st.kind == Stmt::Kind::Instruction) forgetDefs(static_cast<const Instruction &>(st));
  });
  for (unsigned r = 0; r < k_; ++r) {
    auto c = replicaBlock(b, r);
    if (s.region >= 0) {  // if-conversion, as for an instruction (below), of each instruction inside
      const auto &br = static_cast<const Instruction &>(*src_[p_.slots[s.region].stmt]);
      ir::forEachStmt(*c, [&](Stmt &st) {
        if (st.kind != Stmt::Kind::Instruction) return;
        auto &in = static_cast<Instruction &>(st);
        in.guard = m_.intern(replicaName(p_, br.guard, r));
        in.guardNegated = s.regionTaken ? br.guardNegated : !br.guardNegated;
      });
    }
    out_.push_back(std::move(c));
  }
}

void GroupEmitter::fastInstr(const Slot &s) {
  const auto &in = static_cast<const Instruction &>(*src_[s.stmt]);
  if (s.vector) {
    emitVector(s);
  } else {
    if (auto mem = analysis::memAccess(in); mem && mem->kind != analysis::MemAccess::Kind::Load &&
                                             mem->kind != analysis::MemAccess::Kind::Prefetch)
      chunkCache_.clear();
    forgetDefs(in);
    const bool perReplicaPred = partial_ && afterGuard_ && analysis::memAccess(in).has_value();
    for (unsigned r = 0; r < k_; ++r) {
      auto c = replica(in, r);
      if (perReplicaPred) c->guard = m_.intern(passOf(1u << r));  // partialWhy: it had no guard
      if (s.region >= 0) {  // if-conversion: runs when the branch around it is not taken
        const auto &br = static_cast<const Instruction &>(*src_[p_.slots[s.region].stmt]);
        c->guard = m_.intern(replicaName(p_, br.guard, r));
        c->guardNegated = s.regionTaken ? br.guardNegated : !br.guardNegated;
      }
      e_.out.push_back(std::move(c));
    }
  }
  flush();
}

void GroupEmitter::fastLatch(const Slot &s) {
  // Again while every replica goes on; to the replicas' own remaining
  // iterations when some do; past the loop when none does.
  const auto &br = static_cast<const Instruction &>(*src_[s.stmt]);
  std::string all, any;
  for (unsigned r = 0; r < k_; ++r) {
    std::string g = replicaName(p_, br.guard, r);
    if (br.guardNegated) {
      std::string n = e_.regp();
      e_.ins("not.pred", {n, g});
      g = n;
    }
    if (all.empty()) {
      all = any = g;
    } else {
      std::string a = e_.regp(), o = e_.regp();
      e_.ins("and.pred", {a, all, g});
      e_.ins("or.pred", {o, any, g});
      all = a;
      any = o;
    }
  }
  e_.ins("bra", {std::string(analysis::branchTarget(br))}, all);
  e_.ins("bra", {loopRest_}, any);
  flush();
}

void GroupEmitter::fastGuard(const Slot &s) {
  const auto &in = static_cast<const Instruction &>(*src_[s.stmt]);
  std::string any;
  for (unsigned r = 0; r < k_; ++r) {
    std::string g = replicaName(p_, in.guard, r);
    if (in.guardNegated) {
      std::string n = e_.regp();
      e_.ins("not.pred", {n, g});
      g = n;
    }
    failOf_[r] = g;
    if (any.empty()) {
      any = g;
    } else {
      std::string acc = e_.regp();
      e_.ins("or.pred", {acc, any, g});
      any = acc;
    }
  }
  if (!partial_) {
    e_.ins("bra", {slow_}, any);
    flush();
    return;
  }
  // Border groups predicated: the group ends when every replica fails;
  // the predicates after the guard go here (setPredsAt).
  anyFail_ = any;
  std::string all = failOf_[0];
  for (unsigned r = 1; r < k_; ++r) {
    std::string a = e_.regp();
    e_.ins("and.pred", {a, all, failOf_[r]});
    all = a;
  }
  e_.ins("ret", {}, all);
  std::string anyPass = e_.regp();
  e_.ins("not.pred", {anyPass, all});
  passOfSet_[allReplicas_] = anyPass;
  flush();
  afterGuard_ = true;
  setPredsAt_ = out_.size();
}

void GroupEmitter::loopRemainder() {
  e_.ins("ret", {});
  // ---- the grid-stride loop's remaining iterations, replica by replica:
  // each goes on from its own counter while its own test holds.
  if (p_.loopLatch) {
    e_.label(loopRest_);
    const auto &br = static_cast<const Instruction &>(*src_[p_.slots[p_.loopLatch].stmt]);
    const std::string head(static_cast<const ir::Label &>(*src_[p_.slots[p_.loopLabel].stmt]).name);
    for (unsigned r = 0; r < k_; ++r) {
      const std::string next = "$ptxopt_group_loop_next" + std::to_string(r), again = head + "_rest_g" + std::to_string(r);
      auto done = replica(br, r);  // past the loop unless its test holds
      done->guardNegated = !done->guardNegated;
      done->operands = {e_.op(next)};
      e_.out.push_back(std::move(done));
      e_.label(again);
      for (size_t i = p_.loopLabel + 1; i < p_.loopLatch; ++i) {
        const Slot &s = p_.slots[i];
        if (s.role == Slot::Role::Instr) e_.out.push_back(replica(static_cast<const Instruction &>(*src_[s.stmt]), r));
        if (s.role == Slot::Role::Scoped) e_.out.push_back(replicaBlock(static_cast<const ir::Block &>(*src_[s.stmt]), r));
        if (s.role == Slot::Role::Directive) e_.out.push_back(src_[s.stmt]->clone());
      }
      auto back = replica(br, r);
      back->operands = {e_.op(again)};
      e_.out.push_back(std::move(back));
      e_.label(next);
    }
    e_.ins("ret", {});
  }
}

void GroupEmitter::slowPath() {
  // ---- slow path: the replicas one after another, each with its guards
  if (p_.guards && !partial_) {
    e_.label(slow_);
    for (unsigned r = 0; r < k_; ++r) {
      std::string skip = "$ptxopt_group_next" + std::to_string(r);
      for (const auto &s : p_.slots) {
        if (s.role == Slot::Role::Instr) e_.out.push_back(replica(static_cast<const Instruction &>(*src_[s.stmt]), r));
        if (s.role == Slot::Role::Scoped) e_.out.push_back(replicaBlock(static_cast<const ir::Block &>(*src_[s.stmt]), r));
        const std::string regionLabel = "_g" + std::to_string(r);
        if (s.role == Slot::Role::RegionBranch && s.toExit) {  // the rest of this replica is skipped
          auto g = replica(static_cast<const Instruction &>(*src_[s.stmt]), r);
          g->opcode = m_.intern("bra");
          g->operands = {e_.op(skip)};
          e_.out.push_back(std::move(g));
        } else if (s.role == Slot::Role::RegionBranch || s.role == Slot::Role::RegionJump ||
                   s.role == Slot::Role::LoopLatch) {
          const auto &br = static_cast<const Instruction &>(*src_[s.stmt]);
          auto g = replica(br, r);
          g->operands = {e_.op(std::string(analysis::branchTarget(br)) + regionLabel)};
          e_.out.push_back(std::move(g));
        }
        if (s.role == Slot::Role::RegionLabel || s.role == Slot::Role::LoopLabel)
          e_.label(std::string(static_cast<const ir::Label &>(*src_[s.stmt]).name) + regionLabel);
        if (s.role == Slot::Role::Guard) {
          auto g = replica(static_cast<const Instruction &>(*src_[s.stmt]), r);
          g->opcode = m_.intern("bra");
          g->operands = {e_.op(skip)};
          e_.out.push_back(std::move(g));
        }
      }
      e_.label(skip);
    }
    e_.ins("ret", {});
  }
}

void GroupEmitter::finish() {
  std::vector<std::unique_ptr<Stmt>> temps;
  temps.push_back(e_.decl(".b32", e_.prefix + "r", e_.r32));
  if (e_.r64) temps.push_back(e_.decl(".b64", e_.prefix + "rd", e_.r64));
  if (e_.pred) temps.push_back(e_.decl(".pred", e_.prefix + "p", e_.pred));
  // Declarations first, then the temporaries, then the code.
  size_t decls = 0;
  while (decls < out_.size() && out_[decls]->kind == Stmt::Kind::Decl) ++decls;
  out_.insert(out_.begin() + static_cast<long>(decls), std::make_move_iterator(temps.begin()),
              std::make_move_iterator(temps.end()));
  flush();
  clone_.body->body = std::move(out_);
  dropBlockShapeDirectives(clone_);
}

}  // namespace

/// Builds the grouped body of `clone` (a copy of the planned function).
void buildGrouped(ir::Module &m, ir::Function &clone, const Plan &p) { GroupEmitter(m, clone, p).run(); }

}  // namespace ptxopt::transforms::group
