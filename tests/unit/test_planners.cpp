// The planners of the rowwalk and reuse passes on small kernels written as
// text: what a textbook shape plans, and why a shape is refused.
#include "Helpers.h"

#include "transforms/Reuse.h"
#include "transforms/RowWalk.h"

using namespace ptxopt;
using namespace ptxopt::transforms;

namespace {

/// A module and what a pass sees of it, for one planner.
struct PassFixture {
  explicit PassFixture(const std::string &ptx)
      : m(parseOk(std::string(kHeader) + ptx)), am(*m),
        ctx{*m, am, remarks, manifest, stats, "rowwalk", options} {}
  std::unique_ptr<ir::Module> m;
  analysis::AnalysisManager am;
  std::vector<Remark> remarks;
  Manifest manifest;
  std::map<std::string, double> stats;
  PassOptions options = defaultPassOptions();
  PassContext ctx;
  ir::Function &kernel() { return *m->kernels()[0]; }
};

// y[i] = sum_j A[i*n + j] (n >= 1): one thread per row, a single-block loop
// with a 32-bit counter, a pointer advancing 4 bytes and an integer sum.
const char *kRowSum = R"(.visible .entry rowsum(.param .u64 A, .param .u64 y, .param .u32 n)
{
	.reg .pred %p<3>;
	.reg .b32 %r<10>;
	.reg .b64 %rd<8>;
	ld.param.u64 %rd1, [A];
	ld.param.u64 %rd2, [y];
	ld.param.u32 %r1, [n];
	mov.u32 %r2, %ctaid.x;
	mov.u32 %r3, %ntid.x;
	mov.u32 %r4, %tid.x;
	mad.lo.s32 %r5, %r2, %r3, %r4;
	mul.lo.s32 %r6, %r5, %r1;
	mul.wide.s32 %rd3, %r6, 4;
	cvta.to.global.u64 %rd4, %rd1;
	add.s64 %rd5, %rd4, %rd3;
	mov.u32 %r7, 0;
	mov.u32 %r8, 0;
$L_loop:
	ld.global.u32 %r9, [%rd5];
	add.s32 %r7, %r7, %r9;
	add.s64 %rd5, %rd5, 4;
	add.s32 %r8, %r8, 1;
	setp.ne.s32 %p1, %r8, %r1;
	@%p1 bra $L_loop;
	cvta.to.global.u64 %rd6, %rd2;
	mul.wide.s32 %rd7, %r5, 4;
	add.s64 %rd6, %rd6, %rd7;
	st.global.u32 [%rd6], %r7;
	ret;
}
)";

}  // namespace

TEST_CASE("rowwalk's planner: a textbook row walk splits over the lanes", "[rowwalk]") {
  PassFixture fx(kRowSum);
  rowwalk::Planner planner(fx.ctx, fx.kernel());
  rowwalk::KernelPlan plan;
  std::string why;
  const ir::Stmt *whyAt = nullptr;
  REQUIRE(planner.run(plan, why, whyAt));
  CHECK(why.empty());
  CHECK(plan.memAccs.empty());  // the sum lives in a register already
  REQUIRE(plan.lanes.size() == 1);
  const rowwalk::LanePlan &lp = plan.lanes[0];
  CHECK(lp.loop.header == "$L_loop");
  REQUIRE(lp.accs.size() == 1);
  CHECK(lp.accs[0].reg == "%r7");
  CHECK(lp.accs[0].combine == "add.s32");
  CHECK(lp.accs[0].identity == "0");
  CHECK_FALSE(lp.accs[0].floating);
  CHECK_FALSE(plan.reassoc);  // integer sums are exact in any order
  REQUIRE(lp.ivs.size() == 2);
  CHECK(lp.ivs[lp.tested].reg == "%r8");
  CHECK(lp.bound == "%r1");
  CHECK(lp.tripParams == std::set<int>{2});  // the rows' length: n
}

TEST_CASE("rowwalk's planner: a loop of several blocks is refused with its reason", "[rowwalk]") {
  // The same row sum skipping negative elements: a branch inside the loop.
  // Only the staged clone takes guarded loops (RowWalkGuards.cpp), and
  // only rows read 16 bytes or more per iteration: this one reads 4.
  std::string ptx = kRowSum;
  const std::string add = "\tadd.s32 %r7, %r7, %r9;\n";
  ptx.replace(ptx.find(add), add.size(),
              "\tsetp.lt.s32 %p2, %r9, 0;\n\t@%p2 bra $L_skip;\n" + add + "$L_skip:\n");
  PassFixture fx(ptx);
  rowwalk::Planner planner(fx.ctx, fx.kernel());
  rowwalk::KernelPlan plan;
  std::string why;
  const ir::Stmt *whyAt = nullptr;
  CHECK_FALSE(planner.run(plan, why, whyAt));
  CHECK(why == "a loop of several blocks (guards inside the loop), no staged clone: loop at test.ptx:23:2: the row register "
               "%rd5 is not a 64-bit induction variable stepping 16, 32, 48, 64, 96 or 128 bytes");
  CHECK(plan.lanes.empty());
  CHECK(plan.staged.empty());
  CHECK(plan.accList.empty());
}

namespace {

// A polynomial of x (ten fmas) behind two branches that may spill through
// a local array, in a loop that never writes x (reuse.test's marks.ptx).
std::string polyLoop(const std::string &beforeLatch) {
  return R"(.visible .entry marks(.param .u64 out, .param .u32 n, .param .f32 x)
{
	.local .align 4 .b8 depot[8];
	.reg .pred %p<4>;
	.reg .b32 %r<4>;
	.reg .f32 %f<24>;
	.reg .b64 %rd<3>;
	ld.param.u64 %rd1, [out];
	ld.param.u32 %r1, [n];
	ld.param.f32 %f1, [x];
	mov.u64 %rd2, depot;
	mov.u32 %r2, 0;
	mov.f32 %f20, 0f00000000;
$L_loop:
	setp.gt.f32 %p1, %f1, 0f42C80000;
	mov.f32 %f2, %f1;
	@!%p1 bra $L_j1;
	st.local.f32 [%rd2], %f1;
	ld.local.f32 %f2, [%rd2];
$L_j1:
	mul.f32 %f3, %f2, %f2;
	fma.rn.f32 %f4, %f3, 0f3F000000, %f2;
	fma.rn.f32 %f5, %f4, %f3, 0f3E800000;
	fma.rn.f32 %f6, %f5, %f4, %f3;
	fma.rn.f32 %f7, %f6, %f5, %f4;
	fma.rn.f32 %f8, %f7, %f6, %f5;
	fma.rn.f32 %f9, %f8, %f7, %f6;
	fma.rn.f32 %f10, %f9, %f8, %f7;
	fma.rn.f32 %f11, %f10, %f9, %f8;
	fma.rn.f32 %f12, %f11, %f10, %f9;
	setp.gt.f32 %p2, %f12, 0f461C4000;
	mov.f32 %f13, %f12;
	@!%p2 bra $L_j2;
	st.local.f32 [%rd2+4], %f12;
	ld.local.f32 %f13, [%rd2+4];
$L_j2:
	add.f32 %f20, %f20, %f13;
)" + beforeLatch +
         R"(	add.s32 %r2, %r2, 1;
	setp.lt.u32 %p3, %r2, %r1;
	@%p3 bra $L_loop;
	st.global.f32 [%rd1], %f20;
	ret;
}
)";
}

}  // namespace

TEST_CASE("reuse's planner: a computation repeated with the same input gets a memo", "[reuse]") {
  PassFixture fx(polyLoop(""));
  reuse::KernelPlan plan;
  REQUIRE(reuse::planReuse(fx.kernel(), fx.am.get(fx.kernel()), plan));
  REQUIRE(plan.bm);
  CHECK(plan.hoists.empty());  // its runs may store to the local array: not pure, not moved
  REQUIRE(plan.classes.size() == 1);
  const reuse::MemoClass &c = plan.classes[0];
  REQUIRE(c.members.size() == 1);  // one place, inside a loop that does not write x
  CHECK(c.resetOn.empty());        // x is loaded once from a parameter: it never changes
  const reuse::Segment &s = plan.segs[c.members[0]];
  CHECK(s.pureLength >= reuse::kMinInstructions);
  CHECK(s.pureGuard.empty());  // impure code behind two branches: a path predicate,
  CHECK(s.marks.size() == 2);  // cleared where each impure stretch starts
  CHECK(s.impure.size() == 4);
  REQUIRE(plan.gone.size() == plan.segs.size());
  CHECK_FALSE(plan.gone[c.members[0]]);
}

TEST_CASE("reuse's planner: no memo when the loop changes the input", "[reuse]") {
  PassFixture fx(polyLoop("\tadd.f32 %f1, %f1, 0f3F800000;\n"));  // x += 1 in every iteration
  reuse::KernelPlan plan;
  REQUIRE(reuse::planReuse(fx.kernel(), fx.am.get(fx.kernel()), plan));
  CHECK_FALSE(plan.segs.empty());  // the region is found,
  CHECK(plan.classes.empty());     // but never runs twice with the same x
  CHECK(plan.hoists.empty());
}

TEST_CASE("reuse's planner: a body whose control flow starts inside a nested scope is refused", "[reuse]") {
  PassFixture fx(R"(.visible .entry nested(.param .u32 n)
{
	.reg .pred %p<2>;
	.reg .b32 %r<4>;
	ld.param.u32 %r1, [n];
	{
	.reg .b32 %t;
	mov.u32 %t, 1;
$L_in:
	add.s32 %r1, %r1, -1;
	setp.ne.s32 %p1, %r1, 0;
	@%p1 bra $L_in;
	}
	ret;
}
)");
  reuse::KernelPlan plan;
  CHECK_FALSE(reuse::planReuse(fx.kernel(), fx.am.get(fx.kernel()), plan));
  CHECK_FALSE(plan.bm);
}
