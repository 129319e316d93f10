#include "Helpers.h"

#include "ptxopt/ir/Verifier.h"

using namespace ptxopt;
using namespace ptxopt::ir;

static const std::string kLoop = std::string(kHeader) +
                                 ".visible .entry k(.param .u32 n)\n{\n"
                                 "\t.reg .pred %p<2>;\n\t.reg .b32 %r<4>;\n"
                                 "\tld.param.u32 %r1, [n];\n\tmov.u32 %r2, 0;\n"
                                 "$L__BB0_1:\n\tadd.s32 %r2, %r2, 1;\n\tsetp.lt.s32 %p1, %r2, %r1;\n"
                                 "\t@%p1 bra $L__BB0_1;\n\tret;\n}\n";

TEST_CASE("clone renames the function and its labels consistently", "[clone]") {
  auto m = parseOk(kLoop);
  Function &orig = *m->kernels()[0];
  auto c = cloneFunction(orig, "k__ptxopt_test", "_c", *m);
  CHECK(c->name == "k__ptxopt_test");
  int idx = m->itemIndex(&orig);
  Function &clone = m->insertFunctionAfter(idx, std::move(c));
  CHECK(verifyModule(*m).empty());
  std::string out = printModule(*m);
  // The original is untouched, byte for byte.
  CHECK(out.substr(0, kLoop.size()) == kLoop);
  CHECK(out.find(".visible .entry k__ptxopt_test(") != std::string::npos);
  CHECK(out.find("$L__BB0_1_c:") != std::string::npos);
  CHECK(out.find("@%p1 bra $L__BB0_1_c;") != std::string::npos);
  CHECK(clone.body->body.size() == orig.body->body.size());
  // Editing the clone never touches the original.
  static_cast<Instruction &>(*clone.body->body[3]).operands[1] = Operand::imm("7");
  CHECK(static_cast<Instruction &>(*orig.body->body[3]).operands[1].text == "0");
}

TEST_CASE("verifier accepts valid code and reports what is wrong", "[verifier]") {
  auto ok = parseOk(kLoop);
  CHECK(verifyModule(*ok).empty());

  SECTION("undeclared register") {
    auto m = parseOk(std::string(kHeader) + ".entry k()\n{\n.reg .b32 %r<2>;\nmov.u32 %r2, 0;\nret;\n}\n");
    auto d = verifyModule(*m);
    REQUIRE(d.size() == 1);
    CHECK_THAT(d[0].message, Catch::Contains("'%r2' is not declared"));
    CHECK(d[0].line == 7);
  }
  SECTION("undefined branch target") {
    auto m = parseOk(std::string(kHeader) + ".entry k()\n{\nbra L9;\n}\n");
    auto d = verifyModule(*m);
    REQUIRE_FALSE(d.empty());
    CHECK_THAT(d[0].message, Catch::Contains("'L9' is not a label of this function"));
  }
  SECTION("branch to a label of another function") {
    auto m = parseOk(std::string(kHeader) + ".func f()\n{\nL1:\nret;\n}\n.entry k()\n{\nbra L1;\n}\n");
    auto d = verifyModule(*m);
    REQUIRE_FALSE(d.empty());
    CHECK_THAT(d[0].message, Catch::Contains("in function 'k'"));
  }
  SECTION("label defined twice") {
    auto m = parseOk(std::string(kHeader) + ".entry k()\n{\nL1:\nL1:\nret;\n}\n");
    auto d = verifyModule(*m);
    REQUIRE_FALSE(d.empty());
    CHECK_THAT(d[0].message, Catch::Contains("defined twice"));
  }
  SECTION("register declared only in an inner scope") {
    auto m = parseOk(std::string(kHeader) + ".entry k()\n{\n{\n.reg .b32 t;\nmov.u32 t, 1;\n}\nmov.u32 t, 2;\n}\n");
    auto d = verifyModule(*m);
    REQUIRE(d.size() == 1);
    CHECK(d[0].line == 10);
  }
}

TEST_CASE("special registers", "[verifier]") {
  CHECK(isSpecialRegister("%tid.x"));
  CHECK(isSpecialRegister("%nctaid.z"));
  CHECK(isSpecialRegister("%laneid"));
  CHECK(isSpecialRegister("%envreg31"));
  CHECK(isSpecialRegister("%pm3_64"));
  CHECK(isSpecialRegister("%cluster_ctaid.y"));
  CHECK_FALSE(isSpecialRegister("%tid.q"));
  CHECK_FALSE(isSpecialRegister("%r1"));
}
