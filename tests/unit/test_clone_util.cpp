#include "Helpers.h"

#include "transforms/CloneUtil.h"

using namespace ptxopt;
using namespace ptxopt::transforms::clone;

TEST_CASE("clone utilities: parameters by name, base and offset, alignment conditions", "[clone]") {
  auto m = parseOk(std::string(kHeader) +
                   ".visible .entry k(.param .u64 a, .param .u32 n)\n{\n\t.reg .b64 %rd<3>;\n\t.reg .f32 %f<2>;\n"
                   "\tld.param.u64 %rd1, [a];\n\tld.global.f32 %f1, [%rd1+-8];\n\tld.global.f32 %f1, [%rd1];\n\tret;\n}\n");
  const ir::Function &k = *m->kernels()[0];
  CHECK(paramIndex(k, "a") == 0);
  CHECK(paramIndex(k, "n") == 1);
  CHECK(paramIndex(k, "x") == -1);
  auto op = [&](size_t i, size_t o) -> const ir::Operand & {
    return static_cast<const ir::Instruction &>(*k.body->body[i]).operands[o];
  };
  size_t first = 0;
  while (k.body->body[first]->kind == ir::Stmt::Kind::Decl) ++first;
  std::string reg;
  int64_t off = 1;
  CHECK(baseAndOffset(op(first + 1, 1), reg, off));
  CHECK(reg == "%rd1");
  CHECK(off == -8);
  CHECK(baseAndOffset(op(first + 2, 1), reg, off));
  CHECK(off == 0);
  CHECK_FALSE(baseAndOffset(op(first, 1), reg, off));  // [a]: a parameter, not a register
  CHECK_FALSE(baseAndOffset(op(first + 1, 0), reg, off));  // not an address

  std::vector<Variant::AlignedParam> conds;
  requireAligned(conds, {2, 4});
  requireAligned(conds, {0, 16});
  requireAligned(conds, {2, 16});
  requireAligned(conds, {0, 8});
  REQUIRE(conds.size() == 2);
  CHECK(conds[0] == Variant::AlignedParam{2, 16});
  CHECK(conds[1] == Variant::AlignedParam{0, 16});
}

namespace {

/// The body of kernel k after peelRotatedLoops, one statement per line; `n`
/// gets how many loops it rewrote.
std::string peeled(const std::string &body, size_t &n) {
  auto m = parseOk(std::string(kHeader) +
                   ".visible .entry k(.param .u64 a)\n{\n\t.reg .pred %p<4>;\n\t.reg .b32 %r<8>;\n"
                   "\t.reg .f32 %f<8>;\n\t.reg .b64 %rd<4>;\n" + body + "\tret;\n}\n");
  ir::Function &k = *m->kernels()[0];
  n = peelRotatedLoops(k, *m);
  std::string out;
  for (const auto &st : k.body->body)
    if (st->kind != ir::Stmt::Kind::Decl) out += printStmt(*st) + "\n";
  return out;
}

// nvcc's rotated loop: entered at H, left before the back edge to B.
const char *kRotated = "\tmov.u32 %r1, 0;\n\tbra.uni H;\nB:\n\tadd.s32 %r1, %r1, 4;\nH:\n"
                       "\tadd.s32 %r2, %r2, %r1;\n\tsetp.eq.s32 %p1, %r1, 2044;\n\t@%p1 bra X;\n\tbra.uni B;\nX:\n";

}  // namespace

TEST_CASE("peelRotatedLoops: H (B H)* becomes H, then a single-block loop B H", "[clone]") {
  size_t n = 0;
  const std::string out = peeled(kRotated, n);
  CHECK(n == 1);
  CHECK(out == "mov.u32 %r1, 0;\n"
               "add.s32 %r2, %r2, %r1;\nsetp.eq.s32 %p1, %r1, 2044;\n@%p1 bra X;\n"
               "B:\nadd.s32 %r1, %r1, 4;\nadd.s32 %r2, %r2, %r1;\nsetp.eq.s32 %p1, %r1, 2044;\n@!%p1 bra B;\n"
               "X:\nret;\n");
}

TEST_CASE("peelRotatedLoops: what stays as it is", "[clone]") {
  size_t n = 1;
  const std::string rotated = kRotated;
  auto with = [&](const std::string &from, const std::string &to) {
    std::string s = rotated;
    s.replace(s.find(from), from.size(), to);
    return s;
  };
  const std::string kept[] = {
      // B is also the target of another branch; H is too
      rotated + "\t@%p2 bra B;\n",
      rotated + "\t@%p2 bra H;\n",
      // a branch inside <b>; no back edge (B falls into H only)
      with("\tadd.s32 %r1, %r1, 4;\n", "\t@%p2 bra X;\n\tadd.s32 %r1, %r1, 4;\n"),
      with("\tbra.uni B;\n", ""),
      // the exit is not the label after the back edge
      with("X:\n", "Y:\nX:\n"),
      // a contractable mul in <b> whose product a contractable add in <h> reads
      with("\tsetp.eq", "\tmul.f32 %f1, %f2, %f3;\n\tadd.f32 %f4, %f1, %f5;\n\tsetp.eq"),
      // ... the mul in <b>, the add in <h>
      "\tmov.u32 %r1, 0;\n\tbra.uni H;\nB:\n\tadd.s32 %r1, %r1, 4;\n\tmul.f32 %f1, %f2, %f3;\nH:\n"
      "\tadd.f32 %f4, %f1, %f5;\n\tsetp.eq.s32 %p1, %r1, 2044;\n\t@%p1 bra X;\n\tbra.uni B;\nX:\n",
  };
  for (const auto &body : kept) {
    INFO(body);
    peeled(body, n);
    CHECK(n == 0);
  }
  // A product nothing contractable reads, or read by an add that rounds
  // (.rn): peeled.
  peeled(with("\tsetp.eq", "\tmul.f32 %f1, %f2, %f3;\n\tsetp.eq"), n);
  CHECK(n == 1);
  peeled(with("\tsetp.eq", "\tmul.f32 %f1, %f2, %f3;\n\tadd.rn.f32 %f4, %f1, %f5;\n\tsetp.eq"), n);
  CHECK(n == 1);
}

namespace {

/// The body of kernel k after foldJumpLatches, one statement per line; `n`
/// gets how many loops it rewrote.
std::string folded(const std::string &body, size_t &n) {
  auto m = parseOk(std::string(kHeader) +
                   ".visible .entry k(.param .u64 a)\n{\n\t.reg .pred %p<4>;\n\t.reg .b32 %r<8>;\n"
                   "\t.reg .b64 %rd<4>;\n" + body + "\tret;\n}\n");
  ir::Function &k = *m->kernels()[0];
  n = foldJumpLatches(k, *m);
  std::string out;
  for (const auto &st : k.body->body)
    if (st->kind != ir::Stmt::Kind::Decl) out += printStmt(*st) + "\n";
  return out;
}

// nvcc's remainder loop of a size_t lower triangle: left by a conditional
// branch just before an unconditional back edge, code for another path below.
const char *kJumpLatch = "\tmov.u32 %r1, 0;\nH:\n\tadd.s32 %r2, %r2, %r1;\n\tadd.s32 %r1, %r1, 1;\n"
                         "\tsetp.eq.s32 %p1, %r1, 7;\n\t@%p1 bra X;\n\tbra.uni H;\nZ:\n\tmov.u32 %r2, 0;\nX:\n";

}  // namespace

TEST_CASE("foldJumpLatches: `@p bra X; bra.uni H` becomes `@!p bra H; bra.uni X`", "[clone]") {
  size_t n = 0;
  CHECK(folded(kJumpLatch, n) == "mov.u32 %r1, 0;\nH:\nadd.s32 %r2, %r2, %r1;\nadd.s32 %r1, %r1, 1;\n"
                                 "setp.eq.s32 %p1, %r1, 7;\n@!%p1 bra H;\nbra.uni X;\nZ:\nmov.u32 %r2, 0;\nX:\nret;\n");
  CHECK(n == 1);
  // A negated exit guard becomes a plain one; directives between the two
  // branches stay; an exit to the next statement is still an exit.
  std::string s = kJumpLatch;
  s.replace(s.find("@%p1 bra X"), 10, "@!%p1 bra X");
  CHECK(folded(s, n).find("@%p1 bra H;\nbra.uni X;") != std::string::npos);
  CHECK(n == 1);
}

TEST_CASE("foldJumpLatches: a loop of several blocks", "[clone]") {
  // Since the twenty-first session the body may branch (a unit-diagonal
  // trmv's if/else per element): the latch pair alone is rewritten, the
  // same paths, the branch inside the loop untouched.
  size_t n = 0;
  std::string s = kJumpLatch;
  s.replace(s.find("\tadd.s32 %r1, %r1, 1;\n"), std::string("\tadd.s32 %r1, %r1, 1;\n").size(), "\t@%p2 bra Z;\n");
  const std::string out = folded(s, n);
  CHECK(n == 1);
  CHECK(out.find("@%p2 bra Z;") != std::string::npos);
  CHECK(out.find("@!%p1 bra H;\nbra.uni X;") != std::string::npos);
}

TEST_CASE("foldJumpLatches: what stays as it is", "[clone]") {
  size_t n = 1;
  const std::string latch = kJumpLatch;
  auto with = [&](const std::string &from, const std::string &to) {
    std::string s = latch;
    s.replace(s.find(from), from.size(), to);
    return s;
  };
  const std::string kept[] = {
      latch + "\t@%p2 bra H;\n",                                  // H the target of another branch too
      with("\tbra.uni H;\n", "\tbra.uni Z;\n"),                   // the jump is not to H
      with("\t@%p1 bra X;\n", "\tbra.uni X;\n"),                  // the exit is unconditional
      with("\tbra.uni H;\n", "Y:\n\tbra.uni H;\n"),               // a label between the two
      latch + "\tbrx.idx %r1, T;\nT: .branchtargets X, Z;\n",      // an indirect branch anywhere
  };
  for (const auto &body : kept) {
    INFO(body);
    folded(body, n);
    CHECK(n == 0);
  }
}
