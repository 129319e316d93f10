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

/// The body of kernel k of `text` after predicateSkips over all of it, one
/// statement per line; `n` gets how many skips it converted.
std::string predicated(const std::string &body, size_t &n, unsigned maxInstrs = 8) {
  auto m = parseOk(std::string(kHeader) +
                   ".visible .entry k(.param .u64 a)\n{\n\t.reg .pred %p<4>;\n\t.reg .b32 %r<8>;\n"
                   "\t.reg .f32 %f<8>;\n\t.reg .b64 %rd<4>;\n" + body + "\tret;\n}\n");
  ir::Function &k = *m->kernels()[0];
  auto &s = k.body->body;
  size_t to = s.size();
  n = predicateSkips(s, 0, to, maxInstrs);
  CHECK(to == s.size());
  std::string out;
  for (const auto &st : s)
    if (st->kind != ir::Stmt::Kind::Decl) out += printStmt(*st) + "\n";
  return out;
}

}  // namespace

TEST_CASE("predicateSkips: short forward skips become predicated instructions", "[clone]") {
  size_t n = 0;
  // A skip-zero step: the load and the fma under !p, branch and label gone.
  std::string out = predicated("\tsetp.eq.f32 %p1, %f1, 0f00000000;\n\t@%p1 bra L1;\n"
                               "\tld.global.f32 %f2, [%rd1];\n\tfma.rn.f32 %f3, %f1, %f2, %f3;\nL1:\n"
                               "\tadd.f32 %f4, %f3, %f1;\n",
                               n);
  CHECK(n == 1);
  CHECK(out.find("@!%p1 ld.global.f32 %f2, [%rd1];") != std::string::npos);
  CHECK(out.find("@!%p1 fma.rn.f32 %f3, %f1, %f2, %f3;") != std::string::npos);
  CHECK(out.find("bra") == std::string::npos);
  CHECK(out.find("L1:") == std::string::npos);
  // A negated branch guards with p itself.
  out = predicated("\t@!%p1 bra L1;\n\tmov.u32 %r1, %r2;\nL1:\n", n);
  CHECK(n == 1);
  CHECK(out.find("@%p1 mov.u32 %r1, %r2;") != std::string::npos);
  // A label another branch also goes to stays.
  out = predicated("\t@%p1 bra L1;\n\tmov.u32 %r1, %r2;\nL1:\n\t@%p2 bra L1;\n", n);
  CHECK(n == 1);
  CHECK(out.find("L1:") != std::string::npos);
  CHECK(out.find("@%p2 bra L1;") != std::string::npos);
}

TEST_CASE("predicateSkips: what keeps its branch", "[clone]") {
  size_t n = 1;
  const char *kept[] = {
      // a store, a shuffle, an instruction already guarded, one writing the guard
      "\t@%p1 bra L1;\n\tst.global.f32 [%rd1], %f1;\nL1:\n",
      "\t@%p1 bra L1;\n\tshfl.sync.idx.b32 %r1, %r2, 0, 31, -1;\nL1:\n",
      "\t@%p1 bra L1;\n\t@%p2 mov.u32 %r1, %r2;\nL1:\n",
      "\t@%p1 bra L1;\n\tsetp.eq.u32 %p1, %r1, 0;\nL1:\n",
      // a volatile load, another label inside, a backward branch, an empty skip
      "\t@%p1 bra L1;\n\tld.volatile.global.u32 %r1, [%rd1];\nL1:\n",
      "\t@%p1 bra L1;\n\tmov.u32 %r1, %r2;\nL2:\n\tmov.u32 %r3, %r2;\nL1:\n\t@%p2 bra L2;\n",
      "L1:\n\tmov.u32 %r1, %r2;\n\t@%p1 bra L1;\n",
      "\t@%p1 bra L1;\nL1:\n",
      // a contractable mul in the straight code around the skip: joining the
      // stretches could let ptxas fuse it with the add after the label
      "\tmul.f32 %f1, %f2, %f3;\n\t@%p1 bra L1;\n\tmov.f32 %f4, %f1;\nL1:\n\tadd.f32 %f5, %f1, %f6;\n",
  };
  for (const char *body : kept) {
    INFO(body);
    const std::string out = predicated(body, n);
    CHECK(n == 0);
    CHECK(out.find("bra L1") != std::string::npos);
  }
  // Longer than the limit.
  predicated("\t@%p1 bra L1;\n\tmov.u32 %r1, %r2;\n\tmov.u32 %r3, %r2;\n\tmov.u32 %r4, %r2;\nL1:\n", n, 2);
  CHECK(n == 0);
  // mul.rn is not contractable: converted.
  predicated("\tmul.rn.f32 %f1, %f2, %f3;\n\t@%p1 bra L1;\n\tmov.f32 %f4, %f1;\nL1:\n\tadd.f32 %f5, %f1, %f6;\n", n);
  CHECK(n == 1);
}
