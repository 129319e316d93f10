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
