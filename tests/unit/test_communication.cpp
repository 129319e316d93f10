// Inter-thread communication facts (analysis/Communication.h).
#include <fstream>
#include <set>
#include <sstream>

#include "Helpers.h"
#include "ptxopt/analysis/Communication.h"

using namespace ptxopt;
using analysis::CommFact;
using analysis::findCommunication;
using Kind = CommFact::Kind;

namespace {

/// Facts of the function `name` in `m`.
std::vector<CommFact> factsOf(ir::Module &m, std::string_view name) {
  ir::Function *f = m.findFunction(name);
  REQUIRE(f);
  return findCommunication(m, *f);
}

/// Facts of the only kernel of `text` (a kernel body without the header).
std::vector<CommFact> kernelFacts(ir::Module &m) {
  auto ks = m.kernels();
  REQUIRE(ks.size() == 1);
  return findCommunication(m, *ks[0]);
}

std::set<Kind> kindsOf(const std::vector<CommFact> &facts) {
  std::set<Kind> out;
  for (const auto &f : facts) out.insert(f.kind);
  return out;
}

bool has(const std::vector<CommFact> &facts, Kind k, std::string_view what) {
  for (const auto &f : facts)
    if (f.kind == k && f.what == what) return true;
  return false;
}

size_t count(const std::vector<CommFact> &facts, Kind k) {
  size_t n = 0;
  for (const auto &f : facts) n += f.kind == k;
  return n;
}

std::string describe(const std::vector<CommFact> &facts) {
  std::string s;
  for (const auto &f : facts)
    s += std::string(analysis::kindName(f.kind)) + " " + f.what + " [" + std::string(f.function->name) + "]\n";
  return s;
}

/// A kernel `k` with the given body (declarations and instructions).
std::string kernel(const std::string &body, const std::string &prelude = "") {
  return std::string(kHeader) + prelude +
         ".visible .entry k(.param .u64 p0, .param .u64 p1)\n{\n"
         ".reg .pred %p<4>;\n.reg .b16 %rs<4>;\n.reg .b32 %r<16>;\n.reg .b64 %rd<16>;\n"
         ".reg .f32 %f<16>;\n" +
         body + "\nret;\n}\n";
}

}  // namespace

TEST_CASE("communication: kind names", "[communication]") {
  CHECK(std::string(analysis::kindName(Kind::SharedMemory)) == "shared-memory");
  CHECK(std::string(analysis::kindName(Kind::Barrier)) == "barrier");
  CHECK(std::string(analysis::kindName(Kind::WarpLevel)) == "warp-level");
  CHECK(std::string(analysis::kindName(Kind::LaneIdentity)) == "lane-identity");
  CHECK(std::string(analysis::kindName(Kind::ClusterRegister)) == "cluster-register");
  CHECK(std::string(analysis::kindName(Kind::AsyncCopy)) == "async-copy");
  CHECK(std::string(analysis::kindName(Kind::AtomicOrReduction)) == "atomic");
  CHECK(std::string(analysis::kindName(Kind::Fence)) == "fence");
  CHECK(std::string(analysis::kindName(Kind::UnknownCall)) == "unknown-call");
  CHECK(std::string(analysis::kindName(Kind::IndirectBranch)) == "indirect-branch");
  CHECK(std::string(analysis::kindName(Kind::TextureSurface)) == "texture-surface");
  CHECK(std::string(analysis::kindName(Kind::Timer)) == "timer");
}

TEST_CASE("communication: plain elementwise kernel has no facts", "[communication]") {
  auto m = parseOk(kernel(R"(
    ld.param.u64 %rd1, [p0];
    ld.param.u64 %rd2, [p1];
    cvta.to.global.u64 %rd3, %rd1;
    cvta.to.global.u64 %rd4, %rd2;
    mov.u32 %r1, %tid.x;
    mov.u32 %r2, %ctaid.x;
    mov.u32 %r3, %ntid.x;
    mov.u32 %r7, %nctaid.y;
    mov.u32 %r8, %tid.y;
    mad.lo.s32 %r4, %r2, %r3, %r1;
    setp.ge.s32 %p1, %r4, 1024;
    @%p1 bra DONE;
    mul.wide.s32 %rd5, %r4, 4;
    add.s64 %rd6, %rd3, %rd5;
    ld.global.f32 %f1, [%rd6];
    ld.global.nc.f32 %f3, [%rd6+4];
    add.f32 %f2, %f1, %f1;
    add.s64 %rd7, %rd4, %rd5;
    st.global.f32 [%rd7], %f2;
    ld.f32 %f4, [%rd7];
    st.f32 [%rd7], %f4;
    prefetch.global.L2 [%rd7];
DONE:)"));
  auto facts = kernelFacts(*m);
  INFO(describe(facts));
  CHECK(facts.empty());
}

TEST_CASE("communication: .global variables and local memory are not facts", "[communication]") {
  auto m = parseOk(kernel(R"(
    .local .align 4 .b8 scratch[64];
    mov.u64 %rd1, gvar;
    ld.global.u32 %r1, [gvar];
    st.global.u32 [gvar+4], %r1;
    st.local.u32 [scratch], %r1;
    ld.const.u32 %r2, [cvar];)",
                          ".global .align 4 .u32 gvar[4];\n.const .align 4 .u32 cvar;\n"));
  auto facts = kernelFacts(*m);
  INFO(describe(facts));
  CHECK(facts.empty());
}

TEST_CASE("communication: shared memory", "[communication]") {
  auto m = parseOk(kernel(R"(
    .shared .align 4 .b8 buf[1024];
    mov.u32 %r1, %tid.x;
    st.shared.u32 [buf], %r1;
    ld.shared::cta.u32 %r2, [buf+4];
    mov.u64 %rd1, dyn;
    cvta.shared.u64 %rd2, %rd1;
    cvta.to.shared.u64 %rd3, %rd2;
    isspacep.shared %p1, %rd2;
    mov.u64 %rd4, sbuf;
    mov.u32 %r3, %reserved_smem_offset_begin;
    add.s32 %r4, %r1, 1;)",
                          ".extern .shared .align 16 .b8 dyn[];\n"
                          ".shared .align 4 .u32 sbuf[32];\n"));
  auto facts = kernelFacts(*m);
  INFO(describe(facts));
  CHECK(kindsOf(facts) == std::set<Kind>{Kind::SharedMemory});
  CHECK(has(facts, Kind::SharedMemory, ".shared .align 4 .b8 buf[1024]"));
  CHECK(has(facts, Kind::SharedMemory, "st.shared.u32"));    // modifier before operand
  CHECK(has(facts, Kind::SharedMemory, "ld.shared::cta.u32"));
  CHECK(has(facts, Kind::SharedMemory, "dyn"));              // .extern .shared by name
  CHECK(has(facts, Kind::SharedMemory, "sbuf"));             // static module-level .shared
  CHECK(has(facts, Kind::SharedMemory, "cvta.shared.u64"));
  CHECK(has(facts, Kind::SharedMemory, "cvta.to.shared.u64"));
  CHECK(has(facts, Kind::SharedMemory, "isspacep.shared"));
  CHECK(has(facts, Kind::SharedMemory, "%reserved_smem_offset_begin"));
  CHECK(facts.size() == 9);
  // Every fact points at a statement of the kernel.
  for (const auto &f : facts) {
    CHECK(f.stmt != nullptr);
    CHECK(f.function == m->kernels()[0]);
  }
  // The declaration fact is the Decl itself.
  CHECK(facts[0].stmt->kind == ir::Stmt::Kind::Decl);
}

TEST_CASE("communication: shared declaration in a nested scope", "[communication]") {
  auto m = parseOk(kernel(R"(
    {
    .shared .b32 inner;
    st.shared.b32 [inner], 1;
    })"));
  auto facts = kernelFacts(*m);
  INFO(describe(facts));
  REQUIRE(facts.size() == 2);
  CHECK(facts[0].what == ".shared .b32 inner");
  CHECK(facts[1].what == "st.shared.b32");
}

TEST_CASE("communication: barriers", "[communication]") {
  auto m = parseOk(kernel(R"(
    bar.sync 0;
    barrier.sync.aligned 1, 64;
    bar.arrive 2, 64;
    bar.red.popc.u32 %r1, 3, %p1;
    barrier.cluster.arrive;
    barrier.cluster.wait;
    mbarrier.arrive.b64 %rd1, [%rd2];)"));
  auto facts = kernelFacts(*m);
  INFO(describe(facts));
  CHECK(kindsOf(facts) == std::set<Kind>{Kind::Barrier});
  CHECK(facts.size() == 7);
  CHECK(has(facts, Kind::Barrier, "bar.sync"));
  CHECK(has(facts, Kind::Barrier, "bar.red.popc.u32"));
  CHECK(has(facts, Kind::Barrier, "barrier.cluster.wait"));
  CHECK(has(facts, Kind::Barrier, "mbarrier.arrive.b64"));
}

TEST_CASE("communication: mbarrier on shared memory is a barrier and shared", "[communication]") {
  auto m = parseOk(kernel(R"(
    .shared .align 8 .b64 mbar;
    mbarrier.init.shared.b64 [mbar], 32;)"));
  auto facts = kernelFacts(*m);
  INFO(describe(facts));
  REQUIRE(facts.size() == 3);
  CHECK(facts[0].kind == Kind::SharedMemory);  // the declaration
  // One statement, two kinds, in Kind order; the shared fact only once even
  // though both the modifier and the operand name point at shared memory.
  CHECK(facts[1].stmt == facts[2].stmt);
  CHECK(facts[1].kind == Kind::SharedMemory);
  CHECK(facts[1].what == "mbarrier.init.shared.b64");
  CHECK(facts[2].kind == Kind::Barrier);
}

TEST_CASE("communication: warp-level collectives", "[communication]") {
  auto m = parseOk(kernel(R"(
    shfl.sync.bfly.b32 %r1|%p1, %r2, 16, 31, -1;
    vote.sync.ballot.b32 %r3, %p1, -1;
    match.any.sync.b32 %r4, %r2, -1;
    redux.sync.add.u32 %r5, %r2, -1;
    activemask.b32 %r6;
    bar.warp.sync -1;
    elect.sync %r7|%p2, -1;)"));
  auto facts = kernelFacts(*m);
  INFO(describe(facts));
  CHECK(kindsOf(facts) == std::set<Kind>{Kind::WarpLevel});
  CHECK(facts.size() == 7);
  CHECK(has(facts, Kind::WarpLevel, "shfl.sync.bfly.b32"));
  CHECK(has(facts, Kind::WarpLevel, "bar.warp.sync"));  // not a Barrier
  CHECK(has(facts, Kind::WarpLevel, "activemask.b32"));
}

TEST_CASE("communication: lane identity registers", "[communication]") {
  auto m = parseOk(kernel(R"(
    mov.u32 %r1, %laneid;
    mov.u32 %r2, %warpid;
    mov.u32 %r3, %lanemask_lt;
    and.b32 %r4, %r1, %lanemask_ge;
    mov.u32 %r5, %tid.x;)"));
  auto facts = kernelFacts(*m);
  INFO(describe(facts));
  CHECK(kindsOf(facts) == std::set<Kind>{Kind::LaneIdentity});
  CHECK(facts.size() == 4);
  CHECK(has(facts, Kind::LaneIdentity, "%laneid"));
  CHECK(has(facts, Kind::LaneIdentity, "%warpid"));
  CHECK(has(facts, Kind::LaneIdentity, "%lanemask_lt"));
  CHECK(has(facts, Kind::LaneIdentity, "%lanemask_ge"));
}

TEST_CASE("communication: cluster registers and distributed shared memory", "[communication]") {
  auto m = parseOk(kernel(R"(
    .shared .align 4 .b32 val;
    mov.u32 %r1, %cluster_ctarank;
    mov.u32 %r2, %clusterid.x;
    mov.u32 %r3, %cluster_nctaid.y;
    mov.u32 %r4, %is_explicit_cluster;
    mov.u32 %r5, val;
    mapa.shared::cluster.u32 %r6, %r5, 1;
    ld.shared::cluster.u32 %r7, [%r6];
    getctarank.u32 %r8, %rd1;)"));
  auto facts = kernelFacts(*m);
  INFO(describe(facts));
  CHECK(has(facts, Kind::ClusterRegister, "%cluster_ctarank"));
  CHECK(has(facts, Kind::ClusterRegister, "%clusterid.x"));
  CHECK(has(facts, Kind::ClusterRegister, "%cluster_nctaid.y"));
  CHECK(has(facts, Kind::ClusterRegister, "%is_explicit_cluster"));
  CHECK(has(facts, Kind::ClusterRegister, "mapa.shared::cluster.u32"));
  CHECK(has(facts, Kind::SharedMemory, "mapa.shared::cluster.u32"));
  CHECK(has(facts, Kind::ClusterRegister, "ld.shared::cluster.u32"));
  CHECK(has(facts, Kind::SharedMemory, "ld.shared::cluster.u32"));
  CHECK(has(facts, Kind::ClusterRegister, "getctarank.u32"));
  CHECK(count(facts, Kind::ClusterRegister) == 7);
}

TEST_CASE("communication: asynchronous copies", "[communication]") {
  auto m = parseOk(kernel(R"(
    .shared .align 16 .b8 tile[256];
    cp.async.ca.shared.global [tile], [%rd1], 16;
    cp.async.commit_group;
    cp.async.wait_group 0;
    cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%r1], [%rd1], 256, [%r2];
    griddepcontrol.wait;)"));
  auto facts = kernelFacts(*m);
  INFO(describe(facts));
  CHECK(count(facts, Kind::AsyncCopy) == 5);
  CHECK(has(facts, Kind::AsyncCopy, "cp.async.ca.shared.global"));
  CHECK(has(facts, Kind::AsyncCopy, "cp.async.commit_group"));
  CHECK(has(facts, Kind::AsyncCopy, "griddepcontrol.wait"));
  CHECK(has(facts, Kind::SharedMemory, "cp.async.ca.shared.global"));
}

TEST_CASE("communication: atomics and reductions", "[communication]") {
  auto m = parseOk(kernel(R"(
    .shared .align 4 .u32 cnt;
    atom.global.add.u32 %r1, [%rd1], 1;
    atom.cas.b32 %r2, [%rd1], 0, 1;
    red.global.add.f32 [%rd1], %f1;
    atom.shared.add.u32 %r3, [cnt], 1;)"));
  auto facts = kernelFacts(*m);
  INFO(describe(facts));
  CHECK(count(facts, Kind::AtomicOrReduction) == 4);
  CHECK(has(facts, Kind::AtomicOrReduction, "atom.global.add.u32"));
  CHECK(has(facts, Kind::AtomicOrReduction, "atom.cas.b32"));  // generic address
  CHECK(has(facts, Kind::AtomicOrReduction, "red.global.add.f32"));
  CHECK(has(facts, Kind::AtomicOrReduction, "atom.shared.add.u32"));
  CHECK(has(facts, Kind::SharedMemory, "atom.shared.add.u32"));
  CHECK(count(facts, Kind::SharedMemory) == 2);  // the declaration and atom.shared
}

TEST_CASE("communication: fences and ordered memory accesses", "[communication]") {
  auto m = parseOk(kernel(R"(
    membar.gl;
    fence.sc.cta;
    fence.acq_rel.gpu;
    ld.acquire.gpu.u32 %r1, [%rd1];
    st.release.gpu.u32 [%rd1], %r1;
    ld.volatile.global.u32 %r2, [%rd1];
    ld.global.u32 %r3, [%rd1];)"));
  auto facts = kernelFacts(*m);
  INFO(describe(facts));
  CHECK(kindsOf(facts) == std::set<Kind>{Kind::Fence});
  CHECK(facts.size() == 6);
  CHECK(has(facts, Kind::Fence, "membar.gl"));
  CHECK(has(facts, Kind::Fence, "fence.acq_rel.gpu"));
  CHECK(has(facts, Kind::Fence, "ld.volatile.global.u32"));
}

TEST_CASE("communication: indirect branch", "[communication]") {
  auto m = parseOk(kernel(R"(
    mov.u32 %r1, 1;
    TBL: .branchtargets L0, L1;
    brx.idx %r1, TBL;
L0:
    bra.uni L1;
L1:)"));
  auto facts = kernelFacts(*m);
  INFO(describe(facts));
  REQUIRE(facts.size() == 1);
  CHECK(facts[0].kind == Kind::IndirectBranch);
  CHECK(facts[0].what == "brx.idx");
}

TEST_CASE("communication: textures and surfaces", "[communication]") {
  auto m = parseOk(kernel(R"(
    tex.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1, {%f5, %f6}];
    tld4.r.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1, {%f5, %f6}];
    suld.b.2d.b32.trap {%r1}, [%rd2, {%r2, %r3}];
    sust.b.2d.b32.trap [%rd2, {%r2, %r3}], {%r1};
    txq.width.b32 %r4, [%rd1];)"));
  auto facts = kernelFacts(*m);
  INFO(describe(facts));
  CHECK(kindsOf(facts) == std::set<Kind>{Kind::TextureSurface});
  CHECK(facts.size() == 5);
  CHECK(has(facts, Kind::TextureSurface, "sust.b.2d.b32.trap"));
}

TEST_CASE("communication: timers", "[communication]") {
  auto m = parseOk(kernel(R"(
    mov.u32 %r1, %clock;
    mov.u64 %rd1, %clock64;
    mov.u64 %rd2, %globaltimer;
    nanosleep.u32 100;)"));
  auto facts = kernelFacts(*m);
  INFO(describe(facts));
  CHECK(kindsOf(facts) == std::set<Kind>{Kind::Timer});
  CHECK(facts.size() == 4);
  CHECK(has(facts, Kind::Timer, "%clock64"));
  CHECK(has(facts, Kind::Timer, "nanosleep.u32"));
}

TEST_CASE("communication: calls are followed into defined functions", "[communication]") {
  auto m = parseOk(std::string(kHeader) + R"(
.func helper(.param .b32 x)
{
  .reg .b32 %r<2>;
  ld.param.b32 %r1, [x];
  bar.sync 0;
  ret;
}
.func quiet()
{
  ret;
}
.visible .entry k()
{
  .reg .b32 %r<4>;
  mov.u32 %r1, %laneid;
  {
  .param .b32 param0;
  st.param.b32 [param0], %r1;
  call.uni helper, (param0);
  }
  call.uni quiet;
  {
  .param .b32 param0;
  st.param.b32 [param0], %r1;
  call.uni helper, (param0);
  }
  membar.gl;
  ret;
}
)");
  auto facts = factsOf(*m, "k");
  INFO(describe(facts));
  const ir::Function *helper = m->findFunction("helper");
  const ir::Function *k = m->findFunction("k");
  REQUIRE(facts.size() == 3);
  CHECK(facts[0].kind == Kind::LaneIdentity);
  CHECK(facts[0].function == k);
  // The callee's barrier, reported once, right after the (first) call.
  CHECK(facts[1].kind == Kind::Barrier);
  CHECK(facts[1].function == helper);
  CHECK(facts[1].what == "bar.sync");
  CHECK(facts[1].stmt == &nthInstr(*helper, 1));
  CHECK(facts[2].kind == Kind::Fence);
  CHECK(facts[2].function == k);
  // The callee alone.
  auto hf = factsOf(*m, "helper");
  REQUIRE(hf.size() == 1);
  CHECK(hf[0].function == helper);
}

TEST_CASE("communication: recursive calls terminate", "[communication]") {
  auto m = parseOk(std::string(kHeader) + R"(
.func b();
.func a()
{
  call.uni b;
  membar.cta;
  call.uni a;
  ret;
}
.func b()
{
  call.uni a;
  bar.sync 0;
  ret;
}
.visible .entry k()
{
  call.uni a;
  ret;
}
)");
  auto facts = factsOf(*m, "k");
  INFO(describe(facts));
  REQUIRE(facts.size() == 2);
  // a calls b first: b's barrier comes before a's fence.
  CHECK(facts[0].kind == Kind::Barrier);
  CHECK(facts[0].function == m->findFunction("b"));
  CHECK(facts[1].kind == Kind::Fence);
  CHECK(facts[1].function == m->findFunction("a"));
}

TEST_CASE("communication: extern call is an unknown call", "[communication]") {
  auto m = parseOk(std::string(kHeader) + R"(
.extern .func (.param .b32 func_retval0) vprintf
(
  .param .b64 vprintf_param_0,
  .param .b64 vprintf_param_1
)
;
.global .align 1 .b8 $str[4] = {104, 105, 10, 0};
.visible .entry k()
{
  .reg .b32 %r<2>;
  .reg .b64 %rd<4>;
  mov.u64 %rd1, $str;
  cvta.global.u64 %rd2, %rd1;
  { // callseq 0, 0
  .param .b64 param0;
  st.param.b64 [param0], %rd2;
  .param .b64 param1;
  st.param.b64 [param1], 0;
  .param .b32 retval0;
  call.uni (retval0), vprintf, (param0, param1);
  ld.param.b32 %r1, [retval0];
  } // callseq 0
  ret;
}
)");
  auto facts = factsOf(*m, "k");
  INFO(describe(facts));
  REQUIRE(facts.size() == 1);
  CHECK(facts[0].kind == Kind::UnknownCall);
  CHECK(facts[0].what == "call.uni vprintf");
  REQUIRE(facts[0].stmt->kind == ir::Stmt::Kind::Instruction);
  CHECK(static_cast<const ir::Instruction *>(facts[0].stmt)->base() == "call");
}

TEST_CASE("communication: indirect call through a register is an unknown call", "[communication]") {
  auto m = parseOk(std::string(kHeader) + R"(
.func (.param .b32 r) sq(.param .b32 x)
{
  .reg .b32 %r<3>;
  ld.param.b32 %r1, [x];
  mul.lo.s32 %r2, %r1, %r1;
  st.param.b32 [r], %r2;
  ret;
}
.visible .entry k()
{
  .reg .b32 %r<3>;
  .reg .b64 %rd<2>;
  mov.u64 %rd1, sq;
  { // callseq 0, 0
  .param .b32 param0;
  st.param.b32 [param0], 3;
  .param .b32 retval0;
  proto: .callprototype (.param .b32 _) _ (.param .b32 _);
  call (retval0), %rd1, (param0), proto;
  ld.param.b32 %r1, [retval0];
  } // callseq 0
  ret;
}
)");
  auto facts = factsOf(*m, "k");
  INFO(describe(facts));
  REQUIRE(facts.size() == 1);
  CHECK(facts[0].kind == Kind::UnknownCall);
  CHECK(facts[0].what == "call %rd1");
}

// ---------------------------------------------------------------- nvcc output

#ifdef PTXOPT_SOURCE_DIR

namespace {

std::unique_ptr<ir::Module> parseCorpus(const std::string &file) {
  std::string path = std::string(PTXOPT_SOURCE_DIR) + "/tests/corpus/ptx/nvcc/" + file;
  std::ifstream in(path);
  REQUIRE(in.good());
  std::stringstream ss;
  ss << in.rdbuf();
  auto r = parsePtx(ss.str(), path);
  if (r.error) FAIL(formatDiagnostic(*r.error));
  return std::move(r.module);
}

}  // namespace

TEST_CASE("communication: nvcc paper kernels have no facts", "[communication][corpus]") {
  auto m = parseCorpus("paper.sm_80.ptx");
  auto kernels = m->kernels();
  CHECK(kernels.size() == 11);
  for (const ir::Function *k : kernels) {
    auto facts = findCommunication(*m, *k);
    INFO(k->name << "\n" << describe(facts));
    CHECK(facts.empty());
  }
  CHECK(factsOf(*m, "_Z9matAddIntPiPKiS1_").empty());
  CHECK(factsOf(*m, "_Z14transposeNaivePfPKfii").empty());
  CHECK(factsOf(*m, "_Z15saxpyGridStrideifPKfPf").empty());
}

TEST_CASE("communication: nvcc shared, atomics and warp kernels", "[communication][corpus]") {
  SECTION("shared") {
    auto m = parseCorpus("shared.sm_80.ptx");
    auto tiled = factsOf(*m, "_Z14transposeTiledPfPKfii");
    INFO(describe(tiled));
    CHECK(kindsOf(tiled) == std::set<Kind>{Kind::SharedMemory, Kind::Barrier});
    // Dynamic shared memory: `.extern .shared` at module level, used by name.
    auto dyn = factsOf(*m, "_Z14dynSharedMixedPKiPKdPdi");
    CHECK(has(dyn, Kind::SharedMemory, "smem"));
    CHECK(count(dyn, Kind::Barrier) >= 1);
  }
  SECTION("atomics") {
    auto m = parseCorpus("atomics.sm_80.ptx");
    auto hist = factsOf(*m, "_Z15histogramSharedPKhPji");
    INFO(describe(hist));
    CHECK(kindsOf(hist) ==
          std::set<Kind>{Kind::SharedMemory, Kind::Barrier, Kind::AtomicOrReduction});
    CHECK(has(hist, Kind::AtomicOrReduction, "atom.shared.add.u32"));
    CHECK(has(hist, Kind::SharedMemory, "atom.shared.add.u32"));
    CHECK(has(hist, Kind::AtomicOrReduction, "atom.global.add.u32"));
    auto mix = factsOf(*m, "_Z16globalAtomicsMixPiPyPfPdi");
    CHECK(kindsOf(mix) == std::set<Kind>{Kind::AtomicOrReduction});
    CHECK(kindsOf(factsOf(*m, "_Z13scopedAtomicsPiPj")) ==
          std::set<Kind>{Kind::AtomicOrReduction, Kind::Fence});
  }
  SECTION("warp") {
    auto m = parseCorpus("warp.sm_80.ptx");
    auto reduce = factsOf(*m, "_Z10warpReducePKfPfi");
    INFO(describe(reduce));
    CHECK(kindsOf(reduce) == std::set<Kind>{Kind::WarpLevel, Kind::AtomicOrReduction});
    CHECK(count(reduce, Kind::WarpLevel) == 5);  // five shfl.sync.down steps
    auto votes = factsOf(*m, "_Z5votesPKiPj");
    CHECK(has(votes, Kind::WarpLevel, "bar.warp.sync"));
    CHECK(count(votes, Kind::Barrier) == 0);
    CHECK(kindsOf(factsOf(*m, "_Z13matchAndReduxPKiPj")) == std::set<Kind>{Kind::WarpLevel});
    CHECK(kindsOf(factsOf(*m, "_Z15blockReduceShflPKfPfi")) ==
          std::set<Kind>{Kind::WarpLevel, Kind::SharedMemory, Kind::Barrier});
  }
}

TEST_CASE("communication: nvcc calls, cluster, textures, inline asm", "[communication][corpus]") {
  SECTION("calls") {
    auto m = parseCorpus("calls.sm_80.ptx");
    CHECK(factsOf(*m, "_Z10callKernelPKfPfPii").empty());       // defined callees only
    CHECK(factsOf(*m, "_Z15recursionKernelPjPi").empty());      // recursive callees
    auto printf = factsOf(*m, "_Z12printfKernelPKfi");
    CHECK(kindsOf(printf) == std::set<Kind>{Kind::UnknownCall});
    CHECK(has(printf, Kind::UnknownCall, "call.uni vprintf"));
    CHECK(kindsOf(factsOf(*m, "_Z13indirectCallsPfPKii")) == std::set<Kind>{Kind::UnknownCall});
    auto malloc = factsOf(*m, "_Z12mallocKerneli");
    CHECK(has(malloc, Kind::UnknownCall, "call.uni malloc"));
    CHECK(has(malloc, Kind::UnknownCall, "call.uni free"));
  }
  SECTION("cluster") {
    auto m = parseCorpus("cluster.sm_90.ptx");
    auto info = factsOf(*m, "_Z11clusterInfoPj");
    INFO(describe(info));
    CHECK(kindsOf(info) == std::set<Kind>{Kind::ClusterRegister, Kind::Barrier});
    CHECK(has(info, Kind::ClusterRegister, "%clusterid.x"));
    auto exchange = factsOf(*m, "_Z15clusterExchangePf");
    CHECK(has(exchange, Kind::ClusterRegister, "mapa.u64"));
    CHECK(has(exchange, Kind::SharedMemory, "mapa.u64"));
  }
  SECTION("textures and surfaces") {
    auto m = parseCorpus("texsurf.sm_80.ptx");
    for (const ir::Function *k : m->kernels())
      CHECK(kindsOf(findCommunication(*m, *k)) == std::set<Kind>{Kind::TextureSurface});
  }
  SECTION("inline asm") {
    auto m = parseCorpus("inline_asm.sm_90.ptx");
    CHECK(kindsOf(factsOf(*m, "_Z11specialRegsPjPm")) ==
          std::set<Kind>{Kind::LaneIdentity, Kind::Timer});
    CHECK(kindsOf(factsOf(*m, "_Z12asmJumpTablePKjPi")) == std::set<Kind>{Kind::IndirectBranch});
    CHECK(factsOf(*m, "_Z8asmArithPKjS0_PjPm").empty());
  }
  SECTION("async copies") {
    auto m = parseCorpus("async_copy.sm_90.ptx");
    auto k = factsOf(*m, "_Z13cpAsyncInlinePK6float4PS_");
    INFO(describe(k));
    CHECK(kindsOf(k) == std::set<Kind>{Kind::AsyncCopy, Kind::SharedMemory, Kind::Barrier});
  }
}

#else

TEST_CASE("communication: nvcc corpus", "[communication][corpus]") {
  WARN("PTXOPT_SOURCE_DIR is not defined: corpus checks skipped");
}

#endif
