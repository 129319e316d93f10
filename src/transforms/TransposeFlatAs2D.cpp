// transpose, the flat form's 2-D kernel (split from TransposeFlat.cpp):
// flatAs2D writes a kernel of the flat form (findFlatForm, TransposeFlat.cpp)
// as the 2-D kernel it is, not emitted, for the transpose pass's checks and
// the tiled clone to run on.
// What: one split (i = Q*w + R): each `div i, w` a copy of Q, each `rem i,
// w` a copy of R; two splits: the batch on %ctaid.z; the digits form
// (digitsAs2D): i = ((d3*W2 + d2)*W1 + d1)*W0 + d0, every division a copy
// of a quotient and every remainder its digits (TransposeFlat.cpp's
// opening comment says which digit goes on which index, and why the 2-D
// kernel computes what the original computes for its flat index).
// Why: the affine analysis cannot read `/` and `%`; the 2-D kernel is one it
// can, so the pass's checks and planKernel run on it unchanged.
// Algorithm: a copy of the kernel (cloneBody), the instructions of the index
// and of each division replaced back to front (statement indices hold);
// wide (64-bit) indices: the values 32-bit, zero-extended (Values2D).
// Refuses: nothing (findFlatForm decided).
#include "Pass.h"
#include "Transpose.h"

namespace ptxopt::transforms::transpose {

using ir::Operand;
using namespace clone;

namespace {

/// The registers and the index arithmetic of flatAs2D's kernels: values in
/// the index's width (%ptxopt_f2r, or %ptxopt_f2d of 64 bits when wide) and
/// the special registers' 32-bit copies. Wide, every value the form adds
/// (Q, M, R, the radices) is a 32-bit one zero-extended: where the clone's
/// tiles run each is under 2^31 (the launch's threads, the radices: the
/// clone's prologue checks them), and ptxas then multiplies 32-bit halves.
struct Values2D {
  ir::Module &m;
  const FlatForm &f;
  int n32 = 0, n64 = 0;
  Operand r32() { return Operand::reg(m.intern("%ptxopt_f2r" + std::to_string(n32++))); }
  Operand r64() { return Operand::reg(m.intern("%ptxopt_f2d" + std::to_string(n64++))); }
  Operand val() { return f.wide ? r64() : r32(); }
  std::string mov() const { return f.wide ? "mov.b64" : "mov.b32"; }
  /// `to` = the special register `sreg` (widened when wide).
  void special(std::vector<std::unique_ptr<ir::Stmt>> &seq, const Operand &to, const char *sreg) {
    if (!f.wide) {
      seq.push_back(makeInstr(m, "mov.u32", {to, Operand::reg(m.intern(sreg))}));
      return;
    }
    const Operand t = r32();
    seq.push_back(makeInstr(m, "mov.u32", {t, Operand::reg(m.intern(sreg))}));
    seq.push_back(makeInstr(m, "cvt.u64.u32", {to, t}));
  }
  /// `to` = a * b + c (32-bit registers; wide: in 32 bits, zero-extended).
  void mad(std::vector<std::unique_ptr<ir::Stmt>> &seq, const Operand &to, const Operand &a, const Operand &b,
           const Operand &c, const std::string &op) {
    if (!f.wide) {
      seq.push_back(makeInstr(m, op, {to, a, b, c}));
      return;
    }
    const Operand t = r32();
    seq.push_back(makeInstr(m, "mad.lo.u32", {t, a, b, c}));
    seq.push_back(makeInstr(m, "cvt.u64.u32", {to, t}));
  }
  /// `to` = %ctaid.y * %ntid.y + %tid.y (into sy, ny, ty first).
  void index(std::vector<std::unique_ptr<ir::Stmt>> &seq, const Operand &to, const Operand &sy, const Operand &ny,
             const Operand &ty, const std::string &op) {
    seq.push_back(makeInstr(m, "mov.u32", {sy, Operand::reg(m.intern("%ctaid.y"))}));
    seq.push_back(makeInstr(m, "mov.u32", {ny, Operand::reg(m.intern("%ntid.y"))}));
    seq.push_back(makeInstr(m, "mov.u32", {ty, Operand::reg(m.intern("%tid.y"))}));
    mad(seq, to, sy, ny, ty, op);
  }
  /// R = the kernel's own index written to `r`: its mad (32 bits); wide,
  /// from the special registers' copies, or the widening cvt of a 32-bit
  /// index as an unsigned one.
  void rest(std::vector<std::unique_ptr<ir::Stmt>> &seq, const Operand &r, const ir::Instruction &in) {
    if (f.wide && !f.sreg[0].empty()) {
      mad(seq, r, Operand::reg(m.intern(f.sreg[0])), Operand::reg(m.intern(f.sreg[1])),
          Operand::reg(m.intern(f.sreg[2])), "");
      return;
    }
    std::vector<Operand> ops{r};
    ops.insert(ops.end(), in.operands.begin() + 1, in.operands.end());
    const std::string op(in.opcode);
    seq.push_back(makeInstr(m, f.wide && op == "cvt.s64.s32" ? "cvt.u64.u32" : op, std::move(ops)));
  }
  /// A radix into `w` where it is not a register of the kernel's own: its
  /// factors (wide: each a 32-bit value zero-extended) multiplied (mul.lo
  /// of `type`).
  void radix(std::vector<std::unique_ptr<ir::Stmt>> &seq, const Radix &x, const Operand &w, const std::string &type) {
    if (x.constant || (!f.wide && x.regs.size() == 1 && x.ext[0].empty())) return;
    std::vector<Operand> fac;
    for (size_t h = 0; h < x.regs.size(); ++h) {
      Operand v = Operand::reg(m.intern(x.regs[h]));
      if (f.wide) {
        if (x.bytes[h] == 8) {
          const Operand t = r32();
          Operand at{Operand::Kind::Address, {}, {Operand::sym(m.intern(x.names[h]))}};
          seq.push_back(makeInstr(m, "ld.param.u32", {t, at}));
          v = t;
        }
        const Operand t = x.regs.size() == 1 ? w : r64();
        seq.push_back(makeInstr(m, "cvt.u64.u32", {t, v}));
        v = t;
      } else if (!x.ext[h].empty()) {
        const Operand t = x.regs.size() == 1 ? w : r64();
        seq.push_back(makeInstr(m, x.ext[h], {t, v}));
        v = t;
      }
      fac.push_back(v);
    }
    for (size_t h = 1; h < fac.size(); ++h)
      seq.push_back(makeInstr(m, "mul.lo" + type, {w, h == 1 ? fac[0] : w, fac[h]}));
  }
  void declare(ir::Function &g) {
    Emitter e{m, {}};
    auto &b = g.body->body;
    b.insert(b.begin() + static_cast<long>(prologueAt(*g.body)), e.decl(".b32", "%ptxopt_f2r", unsigned(n32)));
    if (n64) b.insert(b.begin() + static_cast<long>(prologueAt(*g.body)), e.decl(".b64", "%ptxopt_f2d", unsigned(n64)));
    g.edited = true;
    g.body->edited = true;
  }
};

/// flatAs2D of the digits form: at the index's mad, R = %ctaid.x * %ntid.x
/// + %tid.x (digit 0), M = %ctaid.y * %ntid.y + %tid.y (the partner digit);
/// with three radices the other digit under d3 on %ctaid.z and d3 on
/// %nctaid.z (values the same for a block that the affine analysis keeps
/// as symbols; the tiled clone renames both), with two the top digit d2 on
/// %ctaid.z (the batch, as for two splits); a product radix computed there
/// (mul.lo of its factors); then each quotient from the top, Q(k) =
/// Q(k+1) * W(k) + d(k), and i = Q1 * W0 + d0; each division a copy of its
/// quotient, each remainder its digits.
std::unique_ptr<ir::Function> digitsAs2D(ir::Module &m, const ir::Function &k, const FlatForm &f) {
  auto g = cloneBody(k, std::string(k.name) + "__ptxopt_flat2d", "_f2", m);
  auto &b = g->body->body;
  const int n = f.radices;
  Values2D v{m, f};
  const Operand sy = v.r32(), ny = v.r32(), ty = v.r32(), mid = v.val(), r = v.val(), lo = v.val(), top = v.val();
  Operand d[4] = {r, mid, top, top};
  if (n == 3) {
    d[1] = f.partner == 1 ? mid : lo;
    d[2] = f.partner == 2 ? mid : lo;
  }
  Operand q[4], w[3];
  q[n] = top;
  for (int i = n - 1; i >= 1; --i) q[i] = v.val();
  for (int j = 0; j < n; ++j)  // a constant, a parameter's register, or one for the product of its factors (or its widening)
    w[j] = f.radix[j].constant ? Operand::imm(m.intern(f.radix[j].names[0]))
           : !f.wide && f.radix[j].regs.size() == 1 && f.radix[j].ext[0].empty()
               ? Operand::reg(m.intern(f.radix[j].regs[0]))
               : v.val();
  auto at = f.digitOf;
  at[f.mad] = {-1, -1};
  // Back to front, so that the earlier instructions' statement indices hold.
  for (auto it = at.rbegin(); it != at.rend(); ++it) {
    const size_t pos = stmtOfInstr(*g->body, it->first);
    auto &in = static_cast<ir::Instruction &>(*b[pos]);
    const Operand dst = in.operands[0];
    // .s32 or .u32 (wide: .s64 or .u64; the index's own instruction may be a cvt)
    const std::string type = f.wide && it->first == f.mad ? ".s64" : std::string(in.opcode.substr(in.opcode.size() - 4));
    const std::string mad = it->first == f.mad && !f.wide ? std::string(in.opcode) : "mad.lo" + type;
    std::vector<std::unique_ptr<ir::Stmt>> seq;
    const auto [from, to] = it->second;
    if (it->first == f.mad) {
      for (int j = 0; j < n; ++j) v.radix(seq, f.radix[j], w[j], type);
      v.index(seq, mid, sy, ny, ty, mad);
      if (n == 3) v.special(seq, lo, "%ctaid.z");
      v.special(seq, top, n == 3 ? "%nctaid.z" : "%ctaid.z");
      v.rest(seq, r, in);
      for (int i = n - 1; i >= 1; --i) seq.push_back(makeInstr(m, mad, {q[i], q[i + 1], w[i], d[i]}));
      seq.push_back(makeInstr(m, mad, {dst, q[1], w[0], d[0]}));
    } else if (to < 0) {  // i / (W0 * .. * W(from-1))
      seq.push_back(makeInstr(m, v.mov(), {dst, q[from]}));
    } else if (to - from == 1) {  // one digit
      seq.push_back(makeInstr(m, v.mov(), {dst, d[from]}));
    } else {  // digits from..to-1: d(to-1) * W(to-2) + d(to-2) ...
      Operand x = d[to - 1];
      for (int j = to - 2; j >= from; --j) {
        const Operand t = j == from ? dst : v.val();
        seq.push_back(makeInstr(m, mad, {t, x, w[j], d[j]}));
        x = t;
      }
    }
    b.erase(b.begin() + static_cast<long>(pos));
    b.insert(b.begin() + static_cast<long>(pos), std::make_move_iterator(seq.begin()), std::make_move_iterator(seq.end()));
  }
  v.declare(*g);
  return g;
}

}  // namespace

std::unique_ptr<ir::Function> flatAs2D(ir::Module &m, const ir::Function &k, const FlatForm &f) {
  if (f.radices) return digitsAs2D(m, k, f);
  auto g = cloneBody(k, std::string(k.name) + "__ptxopt_flat2d", "_f2", m);
  auto &b = g->body->body;
  Values2D v{m, f};
  // %ctaid.y, %ntid.y, %tid.y; Q, R; two splits: the middle index M, the
  // batch B (%ctaid.z); w and w2 as the index's width.
  const Operand sy = v.r32(), ny = v.r32(), ty = v.r32(), q = v.val(), r = v.val(), mid = v.val(), batch = v.val();
  auto widthOf = [&](const Radix &x) {
    return x.constant                     ? Operand::imm(m.intern(x.names[0]))
           : !f.wide && x.ext[0].empty() ? Operand::reg(m.intern(x.regs[0]))
                                         : v.val();
  };
  const Operand w = widthOf(f.w), w2 = f.twoSplits() ? widthOf(f.w2) : Operand{};
  std::map<uint32_t, Operand> becomes;  // instruction -> the register it copies
  for (uint32_t n : f.divs) becomes[n] = q;
  for (uint32_t n : f.rems) becomes[n] = r;
  for (uint32_t n : f.toMiddle) becomes[n] = mid;
  for (uint32_t n : f.toBatch) becomes[n] = batch;
  becomes[f.mad] = Operand{};
  // Back to front, so that the earlier instructions' statement indices hold.
  for (auto it = becomes.rbegin(); it != becomes.rend(); ++it) {
    const size_t at = stmtOfInstr(*g->body, it->first);
    auto &in = static_cast<ir::Instruction &>(*b[at]);
    if (it->first != f.mad) {
      b[at] = makeInstr(m, v.mov(), {in.operands[0], it->second});
      continue;
    }
    const std::string op = f.wide ? "mad.lo.s64" : std::string(in.opcode);
    std::vector<std::unique_ptr<ir::Stmt>> seq;
    v.radix(seq, f.w, w, ".s64");
    if (f.twoSplits()) {
      v.radix(seq, f.w2, w2, ".s64");
      v.index(seq, mid, sy, ny, ty, op);
      v.special(seq, batch, "%ctaid.z");
      seq.push_back(makeInstr(m, op, {q, batch, w2, mid}));
    } else {
      v.index(seq, q, sy, ny, ty, op);
    }
    v.rest(seq, r, in);
    seq.push_back(makeInstr(m, op, {in.operands[0], q, w, r}));
    b.erase(b.begin() + static_cast<long>(at));
    b.insert(b.begin() + static_cast<long>(at), std::make_move_iterator(seq.begin()), std::make_move_iterator(seq.end()));
  }
  v.declare(*g);
  return g;
}

}  // namespace ptxopt::transforms::transpose
