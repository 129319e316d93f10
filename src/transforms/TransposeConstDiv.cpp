// transpose, compile-time radices: nvcc's divisions by constants.
//
// What: a flat transpose or permute whose sizes are compile-time constants
// (`#define W 8192`, template arguments: `i / W`, `i % W`, `(i / HW) % C`)
// is the flat form of TransposeFlat.cpp with constant radices, but nvcc
// never writes those divisions as `div`: by a power of two it shifts and
// masks (`shr`, `and`; for a signed index with a rounding bias, `shr.s32
// x, 31; shr.u32; add; shr.s32`, its remainder `x - (c & -2^k)`), by any
// other constant it multiplies by a magic number and shifts (`mul.wide.u32`
// + `shr.u64` + `cvt`, `mul.hi.u32` + `shr`, or for a signed index
// `mul.hi.s32` + `shr.s32` + its sign bit added). None of these is a
// division to the flat form ("shr.s32 is not exact" to the affine
// analysis), so such kernels ran the original silently.
// Why it pays: the same tiles as the flat form with parameters.
// Algorithm: foldConstDivisions copies the kernel (not emitted) and, from
// the flat index onwards (the index, then every quotient and remainder
// folded from it), rewrites each idiom into the division it computes:
// `div.u32 q, x, d`, `rem.s32 r, x, 2^k`... The magic numbers are not
// trusted: d is recovered from the multiplier m and the total shift s as
// ceil(2^s / m) and the identity proved for every x of the width
// (unsigned, Granlund and Montgomery: 2^s <= m*d <= 2^s + 2^(s-N); signed,
// with the sign bit added: 2^s < m*d <= 2^s + 2^(s-N+1)); a multiplier
// that holds only on a range nvcc knew is left. A mask is read as a
// remainder where it is 2^k - 1, (2^k - 1) << s after a shl by s, or the
// biased -2^k on the bits the remainder's uses read (nvcc trims the mask
// to the bits a later shl keeps). Every intermediate register must be
// read by the idiom alone, and each value an idiom divides written once
// (the division is placed at the idiom's last instruction: it must read
// the value the first one read); the rewritten instructions then give
// every reader the same values as the kernel's, for every input (a
// remainder under a trimmed mask may differ in bits no reader keeps). One rewrite holds where
// the clones run rather than for every input: a `size_t` index that a
// constant bound keeps under 2^32 nvcc narrows (`cvt.u32.u64 n, i`) before
// multiplying, and the quotient of n is written as the 64-bit index's
// (`div.u64 t, i, d`, its 32-bit copies narrowed from it): n equals i
// wherever the launch has fewer than 2^32 threads, and every flat clone's
// conditions ask fewer than 2^31. An `or` of a product by 2^k and a
// remainder by at most 2^k (nvcc's last digit of a permute) is an `add`.
// The flat form is looked for on the copy (Transpose.cpp, runKernel), its
// radices constants (Radix::constant).
// Refuses: nothing here; an idiom that does not check out is left as it
// is, and the kernel stays without the flat form.
#include <algorithm>
#include <bit>
#include <map>
#include <set>
#include <tuple>

#include "Pass.h"
#include "Transpose.h"

namespace ptxopt::transforms::transpose {

using ir::Operand;

using u128 = unsigned __int128;

/// d where floor(x * m / 2^s) == x / d for every unsigned x of `bits`
/// bits (d >= 2; m of up to 65 bits: nvcc's add form; `bits` may be under
/// the type's width where x is known to be smaller), else 0. (m*d < 2^s + m:
/// no overflow.)
uint64_t unsignedDivisor(u128 m, unsigned s, unsigned bits) {
  if (m == 0 || m >> 66 || bits == 0 || s < bits || s > 126) return 0;
  const u128 two = u128(1) << s, d = (two + m - 1) / m;
  if (d < 2 || d >> bits) return 0;
  const u128 e = m * d - two;
  return e <= (u128(1) << (s - bits)) ? uint64_t(d) : 0;
}

/// d where floor(x * m / 2^s) + (x < 0) == x / d (rounded toward zero) for
/// every signed x of `bits` bits (m > 0, d >= 2), else 0. `negative`: the
/// multiplier is -m, and floor(x * -m / 2^s) + (x > 0) == x / -d.
/// (m*d = 2^s + e: the error x*e / (d*2^s) of a positive x is under 1/d
/// for e <= 2^(s-bits+1), that of a negative one at most 1/d and above 0
/// for 0 < e; negated, the two swap: e < 2^(s-bits+1).)
uint64_t signedDivisor(u128 m, unsigned s, unsigned bits, bool negative) {
  if (m == 0 || m >> bits || s < bits || s > 126) return 0;
  const u128 two = u128(1) << s, d = (two + m - 1) / m;
  if (d < 2 || d >> (bits - 1)) return 0;
  const u128 e = m * d - two, bound = u128(1) << (s - bits + 1);
  return e > 0 && (negative ? e < bound : e <= bound) ? uint64_t(d) : 0;
}

namespace {

/// The kernel's top-level statements with their registers' writes and
/// reads, and what the fold drops and rewrites.
struct Folder {
  ir::Module &m;
  std::vector<std::unique_ptr<ir::Stmt>> &b;
  std::map<std::string, int> defs;
  std::map<std::string, std::vector<size_t>> useAt;  // register -> statements reading it (once per operand)
  std::map<std::string, size_t> defAt;               // register written once -> its statement
  std::vector<bool> drop;
  std::set<std::string> index;  // the flat index and what was folded from it
  // A 32-bit register that is the low half of a 64-bit member of index
  // (`cvt.u32.u64 n, i`, or a quotient's): n -> i. Equal to it where the
  // flat clones run (fewer than 2^31 threads, the conditions of every one).
  std::map<std::string, std::string> narrow;
  // A member of index known to be under 2^k (a shr by the width - k of a
  // wider value: nvcc's pre-shift before a multiplier that holds for the
  // narrower range only): register -> k.
  std::map<std::string, unsigned> under;
  unsigned widthOf(const std::string &x, unsigned bits) const {
    auto u = under.find(x);
    return u == under.end() ? bits : std::min(bits, u->second);
  }
  bool changed = false;

  Folder(ir::Module &mod, std::vector<std::unique_ptr<ir::Stmt>> &body) : m(mod), b(body), drop(body.size()) {
    for (size_t j = 0; j < b.size(); ++j)
      if (const ir::Instruction *in = asInstruction(*b[j])) {
        const auto du = analysis::defUse(*in);
        for (auto u : du.uses) useAt[std::string(u)].push_back(j);
        for (auto d : du.defs) {
          ++defs[std::string(d)];
          defAt[std::string(d)] = j;
        }
      }
  }
  const ir::Instruction *at(size_t j) const { return asInstruction(*b[j]); }
  /// Whether `reg` is written once (a division moved to an idiom's last
  /// instruction reads x there: x must hold the same value all along).
  bool once(const std::string &reg) const {
    auto d = defs.find(reg);
    return d != defs.end() && d->second == 1;
  }
  /// The one unguarded instruction reading `reg`, where `reg` is written
  /// once and read once.
  const ir::Instruction *soleUser(const std::string &reg, size_t &where) const {
    auto d = defs.find(reg);
    auto u = useAt.find(reg);
    if (d == defs.end() || d->second != 1 || u == useAt.end() || u->second.size() != 1) return nullptr;
    where = u->second[0];
    const ir::Instruction *in = at(where);
    return in && in->guard.empty() ? in : nullptr;
  }
  /// Every instruction reading `reg` (written once), unguarded; false where
  /// one is not.
  bool users(const std::string &reg, std::vector<size_t> &out) const {
    auto d = defs.find(reg);
    auto u = useAt.find(reg);
    if (d == defs.end() || d->second != 1 || u == useAt.end()) return false;
    out = u->second;
    std::set<size_t> seen;
    for (size_t j : out) {
      const ir::Instruction *in = at(j);
      if (!in || !in->guard.empty() || !seen.insert(j).second) return false;  // read twice by one instruction
    }
    return true;
  }
  static std::optional<uint64_t> imm(const ir::Instruction &in, size_t k) {
    if (in.operands.size() <= k) return std::nullopt;
    auto v = in.operands[k].intValue();
    return v ? std::optional<uint64_t>(uint64_t(*v)) : std::nullopt;
  }
  static bool is(const ir::Instruction &in, const char *opcode, size_t ops) {
    return in.opcode == opcode && in.guard.empty() && in.operands.size() == ops && in.operands[0].isReg();
  }
  static bool reads(const ir::Instruction &in, size_t k, const std::string &reg) {
    return in.operands.size() > k && in.operands[k].isReg() && in.operands[k].text == reg;
  }
  /// A pre-shift: q (a div.u of y by 2^k, from nvcc's shr before a
  /// multiplier for an even divisor) -> {y, 2^k}.
  std::map<std::string, std::pair<std::string, uint64_t>> preshift;

  /// Statement j becomes `opcode dst, x, d` (dst its own destination); x /
  /// d of a pre-shift x = y / 2^k read by the idiom alone is y / (d * 2^k)
  /// (unsigned: floor(floor(y / a) / b) = floor(y / (a * b))), the shift
  /// dropped, so the flat form sees the radix and not its factor 2^k.
  void rewrite(size_t j, const std::string &opcode, std::string x, uint64_t d) {
    if (auto p = preshift.find(x); p != preshift.end() && opcode.starts_with("div.u")) {
      std::vector<size_t> xu;
      auto xd = defAt.find(x);
      if (users(x, xu) && xu.size() == 1 && xd != defAt.end() && d <= UINT64_MAX / p->second.second &&
          d * p->second.second < (uint64_t(1) << 31)) {
        drop[xd->second] = true;
        d *= p->second.second;
        x = p->second.first;
      }
    }
    const Operand dst = at(j)->operands[0];
    b[j] = makeInstr(m, opcode, {dst, Operand::reg(m.intern(x)), Operand::imm(m.intern(std::to_string(d)))});
    if (once(std::string(dst.text))) index.insert(std::string(dst.text));
    changed = true;
  }

  // ---- the idioms, each at the instruction reading x (a member of index)

  /// mul.wide.u32 t, x, m; shr.u64 t2, t, s; cvt.u32.u64 q, t2 -> div.u32 q, x, d
  /// mul.hi.u32 t, x, m; shr.u32 q, t, s -> div.u32 (mul.hi.u64 + shr.u64: div.u64)
  /// A multiplier of 33 bits (m + 2^32), t = x * m >> 32 as either: sub v,
  /// x, t; shr.u32 w, v, 1; add u, w, t (floor((x + t) / 2)); shr.u32 q, u, s.
  bool magicUnsigned(size_t j, const ir::Instruction &in, const std::string &x) {
    const bool wide = in.opcode == "mul.wide.u32", hi32 = in.opcode == "mul.hi.u32", hi64 = in.opcode == "mul.hi.u64";
    if (!(wide || hi32 || hi64) || !in.guard.empty() || in.operands.size() != 3 || !reads(in, 1, x)) return false;
    auto mul = imm(in, 2);
    if (!mul) return false;
    const unsigned bits = hi64 ? 64 : 32;
    const std::string ty = hi64 ? "64" : "32";
    u128 mag = bits == 32 ? uint64_t(uint32_t(*mul)) : *mul;
    std::vector<size_t> dropped{j};
    // t = floor(x * m / 2^shift) in a register of x's width, the statements making it.
    std::string t = regAt(in, 0);
    unsigned shift = bits;
    if (wide && narrow.count(x) && narrowed(j, t, mag, narrow.at(x))) return true;
    if (wide && shared(j, t, mag, x)) return true;
    if (wide) {
      size_t s1, s2;
      const ir::Instruction *shr = soleUser(t, s1);
      if (!shr || !is(*shr, "shr.u64", 3) || !reads(*shr, 1, t)) return false;
      auto s = imm(*shr, 2);
      const ir::Instruction *cvt = soleUser(regAt(*shr, 0), s2);
      if (!s || *s >= 64 || !cvt || !is(*cvt, "cvt.u32.u64", 2) || !reads(*cvt, 1, regAt(*shr, 0))) return false;
      shift = unsigned(*s);
      dropped.push_back(s1);
      if (uint64_t d = unsignedDivisor(mag, shift, widthOf(x, bits))) {  // q = t
        for (size_t k : dropped) drop[k] = true;
        rewrite(s2, "div.u32", x, d);
        return true;
      }
      if (shift != 32) return false;
      dropped.push_back(s2);
      t = regAt(*cvt, 0);
    } else if (std::vector<size_t> su; users(t, su) && !su.empty() && std::all_of(su.begin(), su.end(), [&](size_t u) {
                 return is(*at(u), ("shr.u" + ty).c_str(), 3) && reads(*at(u), 1, t);
               })) {  // each q = t >> s (several quotients from one product)
      std::vector<std::pair<size_t, uint64_t>> quots;
      for (size_t u : su) {
        auto s = imm(*at(u), 2);
        const uint64_t d = s && *s < bits ? unsignedDivisor(mag, bits + unsigned(*s), widthOf(x, bits)) : 0;
        if (!d) return false;
        quots.push_back({u, d});
      }
      drop[j] = true;
      for (auto [u, d] : quots) rewrite(u, "div.u" + ty, x, d);
      return true;
    }
    // The 33-bit multiplier's form.
    std::vector<size_t> tu;
    if (!users(t, tu) || tu.size() != 2) return false;
    size_t subAt = tu[0], addAt = tu[1];
    if (!is(*at(subAt), ("sub.s" + ty).c_str(), 3) && !is(*at(subAt), ("sub.u" + ty).c_str(), 3)) std::swap(subAt, addAt);
    const ir::Instruction &sub = *at(subAt), &add = *at(addAt);
    if ((!is(sub, ("sub.s" + ty).c_str(), 3) && !is(sub, ("sub.u" + ty).c_str(), 3)) || !reads(sub, 1, x) ||
        !reads(sub, 2, t))
      return false;
    size_t halfAt, addUse;
    const ir::Instruction *half = soleUser(regAt(sub, 0), halfAt);
    if (!half || !is(*half, ("shr.u" + ty).c_str(), 3) || !reads(*half, 1, regAt(sub, 0)) || imm(*half, 2) != 1 ||
        !soleUser(regAt(*half, 0), addUse) || addUse != addAt)
      return false;
    if ((!is(add, ("add.s" + ty).c_str(), 3) && !is(add, ("add.u" + ty).c_str(), 3)) ||
        !((reads(add, 1, regAt(*half, 0)) && reads(add, 2, t)) || (reads(add, 2, regAt(*half, 0)) && reads(add, 1, t))))
      return false;
    size_t qAt;
    const ir::Instruction *shr = soleUser(regAt(add, 0), qAt);
    auto s = shr ? imm(*shr, 2) : std::nullopt;
    if (!shr || !is(*shr, ("shr.u" + ty).c_str(), 3) || !reads(*shr, 1, regAt(add, 0)) || !s || *s >= bits) return false;
    const uint64_t d = unsignedDivisor(mag + (u128(1) << bits), bits + 1 + unsigned(*s), widthOf(x, bits));
    if (!d) return false;
    for (size_t k : dropped) drop[k] = true;
    drop[subAt] = drop[halfAt] = drop[addAt] = true;
    if (wide && narrow.count(x)) {  // the 64-bit index's quotient in the mul.wide's register, narrowed
      const Operand t64 = in.operands[0], q = at(qAt)->operands[0];
      b[j] = makeInstr(m, "div.u64", {t64, Operand::reg(m.intern(narrow.at(x))), Operand::imm(m.intern(std::to_string(d)))});
      b[qAt] = makeInstr(m, "cvt.u32.u64", {q, t64});
      drop[j] = false;
      if (once(std::string(t64.text)) && once(std::string(q.text))) {
        index.insert(std::string(t64.text));
        index.insert(std::string(q.text));
        narrow[std::string(q.text)] = std::string(t64.text);
      }
      changed = true;
      return true;
    }
    rewrite(qAt, "div.u" + ty, x, d);
    return true;
  }

  /// One mul.wide.u32 t, x, m read by several shr.u64 t2, t, s, each t2 by
  /// its cvt.u32.u64 q alone (a quotient and a quotient's quotient from one
  /// product): each q -> div.u32 q, x, d.
  bool shared(size_t j, const std::string &t, u128 mag, const std::string &x) {
    std::vector<size_t> tu;
    if (!users(t, tu) || tu.size() < 2) return false;
    std::vector<std::tuple<size_t, size_t, uint64_t>> quots;  // shr, cvt, d
    for (size_t u : tu) {
      const ir::Instruction &v = *at(u);
      auto s = imm(v, 2);
      size_t c;
      const ir::Instruction *cvt = is(v, "shr.u64", 3) && reads(v, 1, t) ? soleUser(regAt(v, 0), c) : nullptr;
      if (!s || *s >= 64 || !cvt || !is(*cvt, "cvt.u32.u64", 2) || !reads(*cvt, 1, regAt(v, 0))) return false;
      const uint64_t d = unsignedDivisor(mag, unsigned(*s), widthOf(x, 32));
      if (!d) return false;
      quots.push_back({u, c, d});
    }
    drop[j] = true;
    for (auto [u, c, d] : quots) {
      drop[u] = true;
      rewrite(c, "div.u32", x, d);
    }
    return true;
  }

  /// x the low half of the 64-bit index i (narrow): mul.wide.u32 t, x, m
  /// read by shr.u64 t2, t, s alone, each t2 (read by anything: its cvt
  /// to 32 bits, 64-bit digits) -> div.u64 t2, i, d. nvcc narrows a
  /// `size_t` index a constant bound keeps under 2^32 before its magic
  /// multiplications.
  bool narrowed(size_t j, const std::string &t, u128 mag, const std::string &wideIndex) {
    std::vector<size_t> tu;
    if (!users(t, tu) || tu.empty()) return false;
    std::vector<std::pair<size_t, uint64_t>> quots;
    for (size_t u : tu) {
      const ir::Instruction &v = *at(u);
      auto s = imm(v, 2);
      if (!is(v, "shr.u64", 3) || !reads(v, 1, t) || !s || *s >= 64) return false;
      const uint64_t d = unsignedDivisor(mag, unsigned(*s), 32);
      if (!d) return false;
      quots.push_back({u, d});
    }
    drop[j] = true;
    for (auto [u, d] : quots) {
      const std::string t2 = regAt(*at(u), 0);
      rewrite(u, "div.u64", wideIndex, d);
      // Its 32-bit copies (cvt.u32.u64) are low halves of it.
      if (std::vector<size_t> cu; users(t2, cu))
        for (size_t c : cu)
          if (is(*at(c), "cvt.u32.u64", 2) && reads(*at(c), 1, t2) && once(regAt(*at(c), 0)) && once(t2)) {
            index.insert(regAt(*at(c), 0));
            narrow[regAt(*at(c), 0)] = t2;
          }
    }
    return true;
  }

  /// `or d, a, b` where a's low k bits are zero (a product by 2^k: shl,
  /// mul.lo or mul.wide by an immediate multiple of it) and b is a
  /// remainder by a power of two up to 2^k: the bits do not overlap, so it
  /// is `add d, a, b` (nvcc writes the last digit of a permute's index so);
  /// and `bfi d, a, b, k, width - k` with such a b: `mad.lo d, a, 2^k, b`.
  void disjointBits() {
    auto zeros = [&](const std::string &r) -> unsigned {  // known low zero bits of r's one definition
      auto d = defAt.find(r);
      if (d == defAt.end() || defs[r] != 1 || drop[d->second]) return 0;
      const ir::Instruction *in = at(d->second);
      auto v = in ? imm(*in, 2) : std::nullopt;
      if (!in || !v || *v == 0 || in->operands.size() != 3) return 0;
      if (in->opcode.starts_with("shl.b")) return unsigned(*v);
      if (in->opcode.starts_with("mul.lo.") || in->opcode.starts_with("mul.wide.")) return unsigned(std::countr_zero(*v));
      return 0;
    };
    auto below = [&](const std::string &r) -> unsigned {  // k where r < 2^k is known (a rem.u by 2^k)
      auto d = defAt.find(r);
      if (d == defAt.end() || defs[r] != 1 || drop[d->second]) return 64;
      const ir::Instruction *in = at(d->second);
      auto v = in ? imm(*in, 2) : std::nullopt;
      if (!in || !v || !in->opcode.starts_with("rem.u") || std::popcount(*v) != 1) return 64;
      return unsigned(std::countr_zero(*v));
    };
    for (size_t j = 0; j < b.size(); ++j) {
      const ir::Instruction *in = at(j);
      // bfi d, a, c, pos, len with pos + len the width and c < 2^pos: a
      // shifted over c, mad.lo d, a, 2^pos, c (the same bits mod 2^width).
      if (!drop[j] && in && in->guard.empty() && (in->opcode == "bfi.b32" || in->opcode == "bfi.b64") &&
          in->operands.size() == 5 && in->operands[1].isReg() && in->operands[2].isReg()) {
        const unsigned bits = in->opcode == "bfi.b64" ? 64 : 32;
        auto pos = imm(*in, 3), len = imm(*in, 4);
        if (pos && len && *pos > 0 && *pos < bits && *pos + *len == bits && below(regAt(*in, 2)) <= *pos) {
          const Operand d = in->operands[0], a = in->operands[1], c = in->operands[2];
          b[j] = makeInstr(m, bits == 64 ? "mad.lo.u64" : "mad.lo.u32",
                           {d, a, Operand::imm(m.intern(std::to_string(uint64_t(1) << *pos))), c});
          changed = true;
        }
        continue;
      }
      if (drop[j] || !in || !in->guard.empty() || !in->opcode.starts_with("or.b") || in->operands.size() != 3 ||
          !in->operands[1].isReg() || !in->operands[2].isReg())
        continue;
      const std::string a = regAt(*in, 1), c = regAt(*in, 2);
      if (below(c) <= zeros(a) || below(a) <= zeros(c)) {
        const Operand d = in->operands[0], x = in->operands[1], y = in->operands[2];
        b[j] = makeInstr(m, "add.s" + std::string(in->opcode.substr(4)), {d, x, y});
        changed = true;
      }
    }
  }

  /// mul.hi.s32 t, x, m; shr.u32 g, t, 31; and per quotient shr.s32 h, t, s;
  /// add.s32 q, h, g -> div.s32 q, x, d (64 bits alike). A multiplier of
  /// 2^31 or more is nvcc's `add.s32 t2, t, x` after the mul.hi (t2 =
  /// floor(x * (m + 2^32) / 2^32)); a negative one without it divides by
  /// -d (`36 - i / 40` as i / -40 + 36), and so does a positive one with
  /// `sub.s32 t2, t, x`: div.s32 h, x, d; neg.s32 q, h.
  bool magicSigned(size_t j, const ir::Instruction &in, const std::string &x) {
    const bool b64 = in.opcode == "mul.hi.s64";
    if ((in.opcode != "mul.hi.s32" && !b64) || !in.guard.empty() || in.operands.size() != 3 || !reads(in, 1, x))
      return false;
    auto mul = imm(in, 2);
    const unsigned bits = b64 ? 64 : 32;
    if (!mul) return false;
    const std::string ty = b64 ? "64" : "32";
    const int64_t ms = b64 ? int64_t(*mul) : int64_t(int32_t(uint32_t(*mul)));
    std::string t = regAt(in, 0);
    std::vector<size_t> dropped{j};
    u128 mag = ms > 0 ? u128(uint64_t(ms)) : u128(uint64_t(-(ms + 1))) + 1;  // |m|
    bool negative = ms < 0;
    size_t addAt;
    const ir::Instruction *a = soleUser(t, addAt);
    if (a && negative && is(*a, ("add.s" + ty).c_str(), 3) &&
        ((reads(*a, 1, t) && reads(*a, 2, x)) || (reads(*a, 2, t) && reads(*a, 1, x)))) {
      mag = (u128(1) << bits) - mag;  // m + 2^bits
      negative = false;
      t = regAt(*a, 0);
      dropped.push_back(addAt);
    } else if (a && !negative && is(*a, ("sub.s" + ty).c_str(), 3) && reads(*a, 1, t) && reads(*a, 2, x)) {
      mag = (u128(1) << bits) - mag;  // -(m - 2^bits): a negative divisor
      negative = true;
      t = regAt(*a, 0);
      dropped.push_back(addAt);
    }
    if (ms == 0) return false;
    std::vector<size_t> tu;
    if (!users(t, tu)) return false;
    // The sign bit g = t >> (bits-1), logical.
    std::string g;
    size_t gAt = 0;
    for (size_t u : tu) {
      const ir::Instruction &v = *at(u);
      if (is(v, ("shr.u" + ty).c_str(), 3) && reads(v, 1, t) && imm(v, 2) == bits - 1) {
        if (!g.empty()) return false;
        g = regAt(v, 0);
        gAt = u;
      }
    }
    std::vector<size_t> gu;
    if (g.empty() || !users(g, gu)) return false;
    dropped.push_back(gAt);
    // Each add q = h + g (h = t >> s, arithmetic, read by that add alone; or t itself).
    struct Quot {
      size_t add, shr;  // shr: npos where the add reads t
      uint64_t d;
    };
    std::vector<Quot> qs;
    std::set<size_t> seen{gAt};
    for (size_t u : gu) {
      const ir::Instruction &a = *at(u);
      if (!is(a, ("add.s" + ty).c_str(), 3) || !a.operands[1].isReg() || !a.operands[2].isReg()) return false;
      const std::string h = regAt(a, 1) == g ? regAt(a, 2) : regAt(a, 1);
      if (h == g) return false;
      uint64_t s = 0;
      size_t hAt = std::string::npos, hu;
      if (h != t) {
        auto d = defAt.find(h);
        const ir::Instruction *sh = d == defAt.end() ? nullptr : at(d->second);
        if (!sh || !is(*sh, ("shr.s" + ty).c_str(), 3) || !reads(*sh, 1, t) || !soleUser(h, hu) || hu != u) return false;
        auto sv = imm(*sh, 2);
        if (!sv || *sv >= bits) return false;
        s = *sv;
        hAt = d->second;
        seen.insert(hAt);
      } else if (negative) {
        return false;  // -x / d needs a register for x / d: the shift's
      }
      const uint64_t d = signedDivisor(mag, unsigned(s) + bits, bits, negative);
      if (!d) return false;
      qs.push_back({u, hAt, d});
    }
    // t read by the sign bit and the quotients' shifts (or adds) only.
    for (const Quot &q : qs)
      if (q.shr == std::string::npos) seen.insert(q.add);
    for (size_t u : tu)
      if (!seen.count(u)) return false;
    if (qs.empty()) return false;
    for (size_t k : dropped) drop[k] = true;
    for (const Quot &q : qs) {
      if (!negative) {
        if (q.shr != std::string::npos) drop[q.shr] = true;
        rewrite(q.add, "div.s" + ty, x, q.d);
        continue;
      }
      const Operand h = at(q.shr)->operands[0], dst = at(q.add)->operands[0];
      rewrite(q.shr, "div.s" + ty, x, q.d);
      b[q.add] = makeInstr(m, "neg.s" + ty, {dst, h});
      index.erase(std::string(h.text));  // -q: not a quotient the flat form reads
    }
    return true;
  }

  /// The bits of `reg`'s value its readers use: where every one is a shl
  /// by an immediate, the low (bits - least shift) ones; else all.
  uint64_t demanded(const std::string &reg, unsigned bits) const {
    const uint64_t all = bits == 64 ? ~uint64_t(0) : (uint64_t(1) << bits) - 1;
    std::vector<size_t> us;
    if (!users(reg, us)) return all;
    uint64_t least = bits;
    for (size_t u : us) {
      const ir::Instruction &v = *at(u);
      auto s = imm(v, 2);
      if (!v.opcode.starts_with("shl.b") || v.operands.size() != 3 || !reads(v, 1, reg) || !s || *s >= bits) return all;
      least = std::min<uint64_t>(least, *s);
    }
    const unsigned keep = bits - unsigned(least);
    return keep >= 64 ? all : (uint64_t(1) << keep) - 1;
  }

  /// shr.s32 a, x, 31; shr.u32 b, a, 32-k; add.s32 c, x, b; then each
  /// shr.s32 q, c, k -> div.s32 q, x, 2^k, and each and.b32 y, c, -2^k;
  /// sub.s32 r, x, y -> rem.s32 r, x, 2^k (64 bits alike).
  bool powerSigned(size_t j, const ir::Instruction &in, const std::string &x) {
    const bool b64 = in.opcode == "shr.s64";
    if ((in.opcode != "shr.s32" && !b64) || !in.guard.empty() || in.operands.size() != 3 || !reads(in, 1, x)) return false;
    const unsigned bits = b64 ? 64 : 32;
    const std::string ty = b64 ? "64" : "32";
    if (imm(in, 2) != bits - 1) return false;
    size_t bAt, cAt;
    const ir::Instruction *sb = soleUser(regAt(in, 0), bAt);
    if (!sb || !is(*sb, ("shr.u" + ty).c_str(), 3) || !reads(*sb, 1, regAt(in, 0))) return false;
    auto bs = imm(*sb, 2);
    if (!bs || *bs < 2 || *bs >= bits) return false;  // k = bits - 1 would divide by the type's minimum
    const unsigned k = bits - unsigned(*bs);
    const ir::Instruction *add = soleUser(regAt(*sb, 0), cAt);
    if (!add || !is(*add, ("add.s" + ty).c_str(), 3) || !add->operands[1].isReg() || !add->operands[2].isReg())
      return false;
    const std::string bias = regAt(*sb, 0), c = regAt(*add, 0);
    if (!((regAt(*add, 1) == x && regAt(*add, 2) == bias) || (regAt(*add, 2) == x && regAt(*add, 1) == bias)))
      return false;
    std::vector<size_t> cu;
    if (!users(c, cu) || cu.empty()) return false;
    const uint64_t all = b64 ? ~uint64_t(0) : 0xffffffffull, low = (uint64_t(1) << k) - 1;
    std::vector<std::pair<size_t, size_t>> rems;  // (the and, the sub)
    std::vector<size_t> divs;
    for (size_t u : cu) {
      const ir::Instruction &v = *at(u);
      if (is(v, ("shr.s" + ty).c_str(), 3) && reads(v, 1, c) && imm(v, 2) == k) {
        divs.push_back(u);
        continue;
      }
      size_t sAt;
      auto mask = imm(v, 2);
      if (!is(v, ("and.b" + ty).c_str(), 3) || !reads(v, 1, c) || !mask) return false;
      const ir::Instruction *sub = soleUser(regAt(v, 0), sAt);
      if (!sub || !is(*sub, ("sub.s" + ty).c_str(), 3) || !reads(*sub, 1, x) || !reads(*sub, 2, regAt(v, 0)))
        return false;
      if (((*mask ^ (all & ~low)) & demanded(regAt(*sub, 0), bits) & all) != 0) return false;
      rems.push_back({u, sAt});
    }
    drop[j] = drop[bAt] = drop[cAt] = true;
    for (size_t u : divs) rewrite(u, "div.s" + ty, x, uint64_t(1) << k);
    for (auto [andAt, subAt] : rems) {
      drop[andAt] = true;
      rewrite(subAt, "rem.s" + ty, x, uint64_t(1) << k);
    }
    return true;
  }

  /// shr.u32 q, x, k -> div.u32 q, x, 2^k; and.b32 r, x, 2^k - 1 -> rem.u32
  /// r, x, 2^k; shl.b32 t, x, s; and.b32 r, t, (2^k - 1) << s -> rem.u32 t,
  /// x, 2^k; shl.b32 r, t, s (64 bits alike).
  bool powerUnsigned(size_t j, const ir::Instruction &in, const std::string &x) {
    if (!in.guard.empty() || in.operands.size() != 3 || !reads(in, 1, x) || !in.operands[0].isReg()) return false;
    const bool b64 = in.opcode.ends_with("64");
    const unsigned bits = b64 ? 64 : 32;
    const std::string ty = b64 ? "64" : "32";
    auto v = imm(in, 2);
    if (!v) return false;
    const uint64_t all = b64 ? ~uint64_t(0) : 0xffffffffull, val = *v & all;
    if (in.opcode == "shr.u" + ty) {
      if (val == 0 || val >= bits) return false;
      const std::string q = regAt(in, 0);
      rewrite(j, "div.u" + ty, x, uint64_t(1) << val);
      if (once(q)) {
        under[q] = widthOf(x, bits) - unsigned(val);
        preshift[q] = {x, uint64_t(1) << val};
      }
      return true;
    }
    auto lowMask = [&](uint64_t mask) -> unsigned {  // k where mask == 2^k - 1 (0 < k < bits), else 0
      if (mask == 0 || (mask & (mask + 1)) != 0) return 0;
      const unsigned k = unsigned(std::popcount(mask));
      return k < bits ? k : 0;
    };
    if (in.opcode == "and.b" + ty) {
      if (const unsigned k = lowMask(val)) {
        rewrite(j, "rem.u" + ty, x, uint64_t(1) << k);
        return true;
      }
      return false;
    }
    if (in.opcode != "shl.b" + ty || val == 0 || val >= bits) return false;
    size_t aAt;
    const ir::Instruction *a = soleUser(regAt(in, 0), aAt);
    auto mask = a ? imm(*a, 2) : std::nullopt;
    if (!a || !is(*a, ("and.b" + ty).c_str(), 3) || !reads(*a, 1, regAt(in, 0)) || !mask) return false;
    const unsigned k = lowMask((*mask & all) >> val);
    if (!k || (((uint64_t(1) << k) - 1) << val & all) != (*mask & all)) return false;
    const Operand t = in.operands[0], r = a->operands[0];
    b[j] = makeInstr(m, "rem.u" + ty, {t, Operand::reg(m.intern(x)), Operand::imm(m.intern(std::to_string(uint64_t(1) << k)))});
    b[aAt] = makeInstr(m, "shl.b" + ty, {r, t, Operand::imm(m.intern(std::to_string(val)))});
    changed = true;
    return true;
  }

  /// A 32-bit index widened (`cvt.s64.s32 w, r`: `(long long)i < n`) and
  /// narrowed back (`cvt.u32.u64 n, w`) before nvcc divides it: n is r,
  /// for every value, so the copy reads r where it read n, and r is the
  /// index the idioms divide.
  void unwiden(const std::string &flatIndex) {
    auto d = defAt.find(flatIndex);
    const ir::Instruction *w = d == defAt.end() || !once(flatIndex) ? nullptr : at(d->second);
    if (!w || !(is(*w, "cvt.s64.s32", 2) || is(*w, "cvt.u64.u32", 2)) || !w->operands[1].isReg() ||
        !once(regAt(*w, 1)))
      return;
    const std::string r = regAt(*w, 1);
    index.insert(r);
    for (size_t j = 0; j < b.size(); ++j) {
      const ir::Instruction *in = at(j);
      if (!in || !is(*in, "cvt.u32.u64", 2) || !reads(*in, 1, flatIndex) || !once(regAt(*in, 0))) continue;
      const std::string n = regAt(*in, 0);
      for (size_t u : useAt[n]) {
        auto &user = static_cast<ir::Instruction &>(*b[u]);
        for (size_t o = 1; o < user.operands.size(); ++o)
          if (user.operands[o].isReg() && user.operands[o].text == n) user.operands[o] = Operand::reg(m.intern(r));
        user.edited = true;
        useAt[r].push_back(u);
      }
      useAt[n].clear();
      changed = true;
    }
  }

  /// The flat index's range: `mul.wide.u32 %ctaid.x, %ntid.x` + `%tid.x`
  /// is under 2^41 (grid.x under 2^31, blocks of at most 1024 threads:
  /// nvcc's multipliers for it hold for that range only), a 32-bit value
  /// zero-extended under 2^32.
  void indexRange(const std::string &flatIndex) {
    auto d = defAt.find(flatIndex);
    const ir::Instruction *in = d == defAt.end() || !once(flatIndex) ? nullptr : at(d->second);
    if (!in) return;
    if (is(*in, "cvt.u64.u32", 2)) {
      under[flatIndex] = 32;
      return;
    }
    if (!(is(*in, "add.s64", 3) || is(*in, "add.u64", 3)) || !in->operands[1].isReg() || !in->operands[2].isReg()) return;
    auto def = [&](const std::string &r) -> const ir::Instruction * {
      auto e = defAt.find(r);
      return e == defAt.end() || !once(r) ? nullptr : at(e->second);
    };
    auto special = [&](const Operand &o, const char *sreg) {
      const ir::Instruction *mv = o.isReg() ? def(std::string(o.text)) : nullptr;
      return mv && mv->opcode.starts_with("mov.") && mv->operands.size() == 2 && mv->operands[1].isReg() &&
             mv->operands[1].text == sreg;
    };
    const ir::Instruction *a = def(regAt(*in, 1)), *c = def(regAt(*in, 2));
    if (a && a->opcode == "cvt.u64.u32") std::swap(a, c);
    if (!a || !c || !is(*a, "mul.wide.u32", 3) || !is(*c, "cvt.u64.u32", 2) || !special(c->operands[1], "%tid.x") ||
        !((special(a->operands[1], "%ctaid.x") && special(a->operands[2], "%ntid.x")) ||
          (special(a->operands[1], "%ntid.x") && special(a->operands[2], "%ctaid.x"))))
      return;
    under[flatIndex] = 41;  // (2^31 - 1) * 1024 + 1023 < 2^41
  }

  void run(const std::string &flatIndex) {
    index.insert(flatIndex);
    indexRange(flatIndex);
    unwiden(flatIndex);
    for (size_t j = 0; j < b.size(); ++j) {
      const ir::Instruction *in = at(j);
      if (drop[j] || !in) continue;
      if (is(*in, "cvt.u32.u64", 2) && reads(*in, 1, flatIndex) && once(regAt(*in, 0))) {
        index.insert(regAt(*in, 0));
        narrow[regAt(*in, 0)] = flatIndex;
        continue;
      }
      if (in->operands.size() != 3 || !in->operands[1].isReg()) continue;
      const std::string x(in->operands[1].text);
      if (!index.count(x) || !once(x)) continue;
      magicUnsigned(j, *in, x) || magicSigned(j, *in, x) || powerSigned(j, *in, x) || powerUnsigned(j, *in, x);
    }
    if (changed) disjointBits();
  }
};

}  // namespace

std::unique_ptr<ir::Function> foldConstDivisions(ir::Module &m, const ir::Function &k, const std::string &flatIndex) {
  if (!k.body || flatIndex.empty()) return nullptr;
  auto g = cloneBody(k, std::string(k.name) + "__ptxopt_constdiv", "_cd", m);
  auto &b = g->body->body;
  Folder f(m, b);
  f.run(flatIndex);
  if (!f.changed) return nullptr;
  keepUndropped(*g, f.drop);
  return g;
}

}  // namespace ptxopt::transforms::transpose
