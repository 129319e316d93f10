// rowwalk, step 3's launch: the staged clone runs one warp per block
// (grid (block.x/32, grid.x, grid.z), block 32), so each warp's tiles have
// the block's static shared memory to themselves. This file rewrites the
// clone's thread and block indices for that launch (finishStaged: logical
// thread 32b + tid.x of logical block ctaid.y; a kernel that reads
// %ctaid.y and not %ctaid.z runs its y index as the hardware z,
// stagedMapsYToZ), declares the tiles' shared memory, and makes the
// variant's launch (stagedVariant). The emission of the tiles is
// RowWalkStaged.cpp; the overview RowWalk.cpp.

#include "RowWalk.h"

namespace ptxopt::transforms::rowwalk {

bool stagedMapsYToZ(const ir::Function &k) {
  bool y = false, z = false;
  ir::forEachStmt(*k.body, [&](const ir::Stmt &s) {
    if (s.kind != ir::Stmt::Kind::Instruction) return;
    for (const auto &op : static_cast<const ir::Instruction &>(s).operands)
      analysis::forEachRegister(op, [&](const ir::Operand &o) {
        y |= o.text == "%ctaid.y" || o.text == "%nctaid.y";
        z |= o.text == "%ctaid.z" || o.text == "%nctaid.z";
      });
  });
  return y && !z;
}

void finishStaged(ir::Module &m, ir::Function &clone, Emitter &e, const std::string &buffer, unsigned bytes,
                  bool yToZ) {
  // One warp per block: hardware block (b, B, z) of 32 threads runs
  // logical threads 32b..32b+31 of logical block B. A kernel that reads
  // the block's y index and not its z index (`yToZ`, stagedMapsYToZ of the
  // kernel): its logical block y is the hardware block's z (the launch's
  // grid.z is 1).
  const std::string lt = e.reg32(), ln = e.reg32(), lc = e.reg32(), lnc = e.reg32(), zero = e.reg32(),
                    one = e.reg32();
  const std::string ly = yToZ ? e.reg32() : zero, lny = yToZ ? e.reg32() : one;
  std::map<std::string, std::string> names = {{"%tid.x", lt},    {"%ntid.x", ln},    {"%ctaid.x", lc},
                                              {"%nctaid.x", lnc}, {"%ctaid.y", ly}, {"%nctaid.y", lny}};
  if (yToZ) names.insert({{"%ctaid.z", zero}, {"%nctaid.z", one}});
  replaceSpecialReads(*clone.body, names, m);
  const std::string cta = e.reg32(), ncta = e.reg32(), tid = e.reg32();
  e.ins("mov.u32", {cta, "%ctaid.x"});
  e.ins("mov.u32", {ncta, "%nctaid.x"});
  e.ins("mov.u32", {tid, "%tid.x"});
  e.ins("mov.u32", {lc, "%ctaid.y"});
  e.ins("mov.u32", {lnc, "%nctaid.y"});
  if (yToZ) {
    e.ins("mov.u32", {ly, "%ctaid.z"});
    e.ins("mov.u32", {lny, "%nctaid.z"});
  }
  e.ins("mad.lo.s32", {lt, cta, std::to_string(kLanes), tid});
  e.ins("shl.b32", {ln, ncta, "5"});
  e.ins("mov.u32", {zero, "0"});
  e.ins("mov.u32", {one, "1"});
  insertPrologue(clone, e, true);
  auto d = std::make_unique<ir::Decl>();
  d->attrs = {m.intern(".shared"), m.intern(".align"), m.intern("16"), m.intern(".b8")};
  d->names.push_back({m.intern(buffer), std::nullopt, {uint64_t(bytes)}});
  d->edited = true;
  auto &body = clone.body->body;
  body.insert(body.begin(), std::move(d));
  dropBlockShapeDirectives(clone);
}

Variant stagedVariant(const Variant &base, const std::string &name, bool yToZ) {
  Variant v = base;
  v.kind = "staged";
  v.name = name;
  v.grid = {DimSource{DimSource::From::Block, 0, kLanes}, DimSource{DimSource::From::Grid, 0},
            DimSource{DimSource::From::Grid, uint8_t(yToZ ? 1 : 2)}};
  v.block = {DimSource::constant(kLanes), DimSource::constant(1), DimSource::constant(1)};
  v.blockMultiple[0] = kLanes;
  v.blockMax[1] = v.blockMax[2] = 1;
  v.gridMax[yToZ ? 2 : 1] = 1;
  v.allowDynamicShared = false;  // the tiles take the static shared memory
  return v;
}

}  // namespace ptxopt::transforms::rowwalk
