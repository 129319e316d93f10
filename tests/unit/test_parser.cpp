#include "Helpers.h"

using namespace ptxopt;
using namespace ptxopt::ir;

TEST_CASE("module directives and a kernel", "[parser]") {
  auto m = parseOk(std::string(kHeader) +
                   ".visible .entry k(\n\t.param .u64 k_p0,\n\t.param .u32 k_p1\n)\n.maxntid 256, 1, 1\n"
                   "{\n\t.reg .b32 %r<5>;\n\tmov.u32 %r1, %tid.x;\n\tret;\n}\n");
  REQUIRE(m->items.size() == 4);
  CHECK(m->items[0].directive->name == ".version");
  CHECK(m->items[0].directive->tokens == std::vector<std::string_view>{"9.0"});
  CHECK(m->target() == std::vector<std::string_view>{"sm_90"});
  auto ks = m->kernels();
  REQUIRE(ks.size() == 1);
  Function &k = *ks[0];
  CHECK(k.name == "k");
  CHECK(k.isEntry);
  CHECK(k.attrs == std::vector<std::string_view>{".visible"});
  REQUIRE(k.params);
  REQUIRE(k.params->size() == 2);
  CHECK((*k.params)[0].type() == ".u64");
  CHECK((*k.params)[1].names[0].name == "k_p1");
  REQUIRE(k.perfDirective(".maxntid"));
  CHECK(k.perfDirective(".maxntid")->tokens.size() == 5);  // 256 , 1 , 1
  REQUIRE(k.body->body.size() == 3);
  auto &decl = static_cast<Decl &>(*k.body->body[0]);
  CHECK(decl.space() == ".reg");
  CHECK(decl.names[0].name == "%r");
  CHECK(decl.names[0].range == 5u);
  auto &mov = nthInstr(k, 0);
  CHECK(mov.base() == "mov");
  CHECK(mov.modifiers() == std::vector<std::string_view>{".u32"});
  CHECK(mov.operands[1].kind == Operand::Kind::Register);
  CHECK(mov.operands[1].text == "%tid.x");
}

TEST_CASE("generic instruction form: modifiers with ::, vectors with sinks, addresses", "[parser]") {
  auto m = parseOk(std::string(kHeader) +
                   ".entry k(.param .u64 p)\n{\n.reg .b32 %r<9>;\n.reg .b64 %rd<3>;\n.reg .pred %p<3>;\n"
                   "@!%p1 ld.global.nc.L2::256B.v4.u32 {%r1, _, %r3, %r4}, [%rd1+-16];\n"
                   "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%rd1], [%rd2], 16, [%rd2+8];\n"
                   "setp.eq.and.s32 %p1|%p2, %r1, 0, !%p1;\n"
                   "mov.f32 %r5, 0f3F800000;\n"
                   "mov.f64 %rd1, 0d3FF0000000000000;\n"
                   "add.s32 %r6, %r6, -1;\n"
                   "ld.param.u64 %rd1, [p+8];\n"
                   "frobnicate.new.thing %r7, %r8;\n"
                   "}\n");
  auto &k = *m->kernels()[0];
  auto &ld = nthInstr(k, 0);
  CHECK(ld.guard == "%p1");
  CHECK(ld.guardNegated);
  CHECK(ld.base() == "ld");
  CHECK(ld.hasModifier(".L2::256B"));
  CHECK(ld.hasModifier(".v4"));
  REQUIRE(ld.operands.size() == 2);
  const Operand &vec = ld.operands[0];
  CHECK(vec.kind == Operand::Kind::Vector);
  REQUIRE(vec.elems.size() == 4);
  CHECK(vec.elems[1].kind == Operand::Kind::Sink);
  const Operand &addr = ld.operands[1];
  CHECK(addr.kind == Operand::Kind::Address);
  REQUIRE(addr.elems.size() == 1);
  CHECK(addr.elems[0].kind == Operand::Kind::Sum);
  CHECK(addr.elems[0].elems[0].text == "%rd1");
  CHECK(addr.elems[0].elems[1].intValue() == -16);
  CHECK(printOperand(addr) == "[%rd1+-16]");

  auto &cp = nthInstr(k, 1);
  CHECK(cp.hasModifier(".mbarrier::complete_tx::bytes"));
  CHECK(cp.operands.size() == 4);

  auto &setp = nthInstr(k, 2);
  CHECK(setp.operands[0].kind == Operand::Kind::Pipe);
  CHECK(setp.operands[3].kind == Operand::Kind::Not);
  CHECK(nthInstr(k, 3).operands[1].text == "0f3F800000");
  CHECK(nthInstr(k, 4).operands[1].text == "0d3FF0000000000000");
  CHECK(nthInstr(k, 5).operands[2].intValue() == -1);
  auto &ldp = nthInstr(k, 6);
  CHECK(ldp.operands[1].elems[0].elems[0].kind == Operand::Kind::Symbol);
  CHECK(nthInstr(k, 7).opcode == "frobnicate.new.thing");  // unknown opcodes parse
}

TEST_CASE("integer immediates in every base", "[ir]") {
  CHECK(Operand::imm("42").intValue() == 42);
  CHECK(Operand::imm("0x1F").intValue() == 31);
  CHECK(Operand::imm("0b101").intValue() == 5);
  CHECK(Operand::imm("017").intValue() == 15);
  CHECK(Operand::imm("-8").intValue() == -8);
  CHECK(Operand::imm("4294967295U").intValue() == 4294967295LL);
  CHECK_FALSE(Operand::imm("1.5").intValue());
  CHECK_FALSE(Operand::imm("0f3F800000").intValue());
}

TEST_CASE("call sequences, prototypes and jump tables", "[parser]") {
  auto m = parseOk(std::string(kHeader) +
                   ".func (.param .b32 r) f(.param .b32 a) { ret; }\n"
                   ".entry k()\n{\n.reg .b32 %r<3>;\n.reg .b64 %rd<2>;\n"
                   "{ // callseq 0, 0\n.param .b32 param0;\n.param .b32 retval0;\n"
                   "call.uni (retval0),\nf,\n(\nparam0\n);\n}\n"
                   "proto: .callprototype (.param .b32 _) _ (.param .b32 _);\n"
                   "call (retval0), %rd1, (param0), proto;\n"
                   "tbl: .branchtargets L1, L2;\nbrx.idx %r1, tbl;\nL1:\nret;\nL2:\nret;\n}\n");
  auto *f = m->findFunction("f");
  REQUIRE(f);
  REQUIRE(f->returns);
  CHECK(f->returns->at(0).names[0].name == "r");
  auto &k = *m->findFunction("k");
  auto &scope = static_cast<Block &>(*k.body->body[2]);
  CHECK(scope.kind == Stmt::Kind::Block);
  auto &call = static_cast<Instruction &>(*scope.body[2]);
  CHECK(call.base() == "call");
  REQUIRE(call.operands.size() == 3);
  CHECK(call.operands[0].kind == Operand::Kind::List);
  CHECK(call.operands[1].text == "f");
  auto &proto = static_cast<Directive &>(*k.body->body[4]);
  CHECK(proto.name == ".callprototype");
  CHECK(proto.semicolon);
  auto &bt = static_cast<Directive &>(*k.body->body[7]);
  CHECK(bt.name == ".branchtargets");
}

TEST_CASE("debug directives and sections", "[parser]") {
  auto m = parseOk(std::string(kHeader) +
                   ".entry k()\n{\n.loc 1 3 14, function_name $L__info_string0, inlined_at 1 7 3\nret;\n}\n"
                   ".file 1 \"/tmp/k.cu\", 1700000000, 1234\n"
                   ".section .debug_str\n{\n$L__info_string0:\n.b8 95,90,0\n.b32 .debug_abbrev\n"
                   ".b64 $L__func_begin0+4\n}\n");
  auto &k = *m->kernels()[0];
  auto &loc = static_cast<Directive &>(*k.body->body[0]);
  CHECK(loc.name == ".loc");
  CHECK_FALSE(loc.semicolon);
  CHECK(loc.tokens.back() == "3");
  auto &sec = *m->items.back().section;
  CHECK(sec.name == ".debug_str");
  REQUIRE(sec.entries.size() == 4);
  CHECK(sec.entries[0].label == "$L__info_string0");
  CHECK(sec.entries[1].directive == ".b8");
  CHECK(sec.entries[1].values() == std::vector<std::string>{"95", "90", "0"});
  CHECK(sec.entries[2].values() == std::vector<std::string>{".debug_abbrev"});
  CHECK(sec.entries[3].values() == std::vector<std::string>{"$L__func_begin0+4"});
}

TEST_CASE("parse errors carry line and column", "[parser][errors]") {
  SECTION("unknown module-level directive") {
    auto d = parseErr(std::string(kHeader) + ".bogus 1;\n");
    CHECK(d.line == 4);
    CHECK(d.col == 1);
    CHECK_THAT(d.message, Catch::Contains("unknown directive '.bogus' at module level"));
  }
  SECTION("missing semicolon") {
    auto d = parseErr(std::string(kHeader) + ".entry k()\n{\n\tret\n}\n");
    CHECK(d.line == 7);
    CHECK_THAT(d.message, Catch::Contains("unexpected '}'"));
  }
  SECTION("truncated file") {
    auto d = parseErr(std::string(kHeader) + ".entry k()\n{\n\tret;\n");
    CHECK_THAT(d.message, Catch::Contains("end of file"));
  }
  SECTION("binary garbage") {
    auto d = parseErr(std::string("\x01\x02\xff garbage", 11));
    CHECK(d.line == 1);
    CHECK_THAT(d.message, Catch::Contains("byte 0x01"));
  }
  SECTION("unbalanced braces") {
    auto d = parseErr(std::string(kHeader) + ".entry k()\n{\n\tret;\n}\n}\n");
    CHECK(d.line == 8);
  }
  SECTION("unterminated comment") {
    auto d = parseErr(std::string(kHeader) + "/* never closed\n");
    CHECK_THAT(d.message, Catch::Contains("unterminated"));
  }
  SECTION("nesting too deep") {
    std::string s = std::string(kHeader) + ".entry k()\n";
    for (int i = 0; i < 1000; ++i) s += "{";
    auto d = parseErr(s);
    CHECK_THAT(d.message, Catch::Contains("nested deeper"));
  }
}

TEST_CASE("a module must start with .version", "[parser][errors]") {
  CHECK_THAT(parseErr("").message, Catch::Contains("empty module"));
  CHECK_THAT(parseErr("  // only a comment\n").message, Catch::Contains("empty module"));
  auto d = parseErr("\n.target sm_90\n.version 9.0\n");
  CHECK(d.line == 2);
  CHECK_THAT(d.message, Catch::Contains("must start with a .version"));
  // Trivia before and after the module is kept.
  std::string t = "// header\n.version 9.0\n.target sm_90\n// tail\n";
  CHECK(printModule(*parseOk(t)) == t);
}

TEST_CASE("integer immediates at the edges of int64", "[ir]") {
  using ptxopt::ir::Operand;
  CHECK(Operand::imm("-9223372036854775808").intValue() == INT64_MIN);
  CHECK(Operand::imm("9223372036854775807").intValue() == INT64_MAX);
  // PTX integer literals are 64-bit patterns: 2^63 is the pattern of INT64_MIN.
  CHECK(Operand::imm("9223372036854775808").intValue() == INT64_MIN);
  CHECK_FALSE(Operand::imm("-9223372036854775809").intValue());
  CHECK(Operand::imm("0xFFFFFFFFFFFFFFFF").intValue() == -1);
}
