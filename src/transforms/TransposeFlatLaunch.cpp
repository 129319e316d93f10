// transpose, the flat form's launch: the manifest entries of the flat
// clone `<k>__ptxopt_tiledflat` (makeFlatVariant: a tile of 1024 logical
// threads per block, the floors on the radices and the launch) and of the
// loop clone `<k>__ptxopt_tiledloop` of a grid-stride loop whose threads
// loop (makeFlatLoopVariant: as many hardware threads as the original's, T
// the loop's bound, `gridStrideOnce` with `several`), and the loop bound as
// the clone reads it (boundRadix). The form itself and the 2-D kernel the
// clone is built from: TransposeFlat.cpp; the clone: TransposeTiled.cpp.
#include <algorithm>

#include "Transpose.h"

namespace ptxopt::transforms::transpose {

Variant makeFlatVariant(const std::string &name, const Plan &p, const FlatForm &f, unsigned block) {
  Variant v;
  v.name = name;
  v.pass = "transpose";
  v.kind = "transpose-tiled";
  // A tile (1024 logical threads) per block: ceil(grid.x * block / 1024)
  // blocks; the clone loops over the tiles past them (rows of w not a
  // multiple of 32 make more tiles than that).
  if (block < 1024) v.grid[0] = DimSource{DimSource::From::Grid, 0, 1024 / block, 0, true};
  v.extraArgs = {DimSource{DimSource::From::Grid, 0}, DimSource{DimSource::From::Block, 0}};
  v.block = {DimSource::constant(32), DimSource::constant(8), DimSource::constant(1)};
  v.blockMin = {block, 1, 1};
  v.blockMax = {block, 1, 1};
  v.gridMax = {0, 1, 1};
  // w (and w2) at least 32, and (one split) at least 32 rows of w: a tile
  // of fewer columns, channels or rows leaves most of its lanes idle (H200,
  // v52: N16 C3 224 x 224 0.83x, 8 x 400000 0.83x; 1000000 x 3, where the
  // clone ran the original's code on its flat indices, 0.93x). A product
  // radix: each factor at least 6 (two: 36), 4 (three: 64), so that the
  // product is 32 or more. Three radices: the batch's lower digit's radix
  // at least 1 (the original divides by it; 0 is not a launch the clone
  // reproduces).
  // (A constant radix: runFlat checked it.)
  auto atLeast = [&](const Radix &r, uint32_t most) {
    for (int p : r.params)
      if (p >= 0) v.minParams.push_back({uint32_t(p), factorFloor(r, most)});
  };
  atLeast(f.w, 32);
  if (f.twoSplits()) atLeast(f.w2, 32);
  if (f.threeSplits()) atLeast(f.wLo, 1);
  if (!f.twoSplits() && !f.w.constant) v.threadsPerParam = {{uint32_t(f.w.params[0]), 32}};
  v.maxLaunchThreads = 0x7fffffffu;  // the flat index is a non-negative int
  // A batched permute gathered (the load along M: NHWC written in order
  // from NCHW, two or three splits): the naive kernel's strided loads hit
  // L1 and L2, and the three-split clone ran 0.84x at N16 C37 50 x 50
  // (1.5M threads), 1.17x at C64 56 x 56 (3.2M), 1.46-1.61x from 12.8M
  // (H200, v64): from 2^22 threads only.
  v.minLaunchThreads = f.twoSplits() && !p.storeOnY ? kMinLaunchThreadsBatchedGather : kMinLaunchThreads;
  if (!f.twoSplits() && f.w.constant)  // 32 rows of a constant w
    v.minLaunchThreads = uint32_t(std::max<uint64_t>(v.minLaunchThreads, std::min<uint64_t>(32 * *f.w.constant, 0x7fffffffu)));
  v.allowDynamicShared = false;
  v.disjointParams = disjointPairs(p);
  return v;
}

Radix boundRadix(const ir::Function &k, const Variant::GridStrideOnce &g) {
  Radix r;
  if (g.params.empty()) {  // a compile-time bound (under 2^30: boundParams)
    r.constant = g.times;
    r.names = {std::to_string(g.times)};
    return r;
  }
  // boundParams: parameters read by ld.param.u32 / .s32, no constant factor;
  // read as the kernel reads them (4 bytes; the runtime asks the value under
  // 2^30, so the widening does not matter).
  for (uint32_t p : g.params) {
    const ir::Decl &d = (*k.params)[p];
    r.names.push_back(std::string(d.names[0].name));
    r.params.push_back(int(p));
    r.bytes.push_back(4);
    r.ext.push_back(d.type() == ".s32" ? "cvt.s64.s32" : "cvt.u64.u32");
  }
  return r;
}

Variant makeFlatLoopVariant(const std::string &name, const Plan &p, const FlatForm &f, unsigned block,
                            Variant::GridStrideOnce loop) {
  Variant v = makeFlatVariant(name, p, f, block);
  // As many hardware threads as the original launch (blocks of 256): the
  // blocks loop over the bound's tiles, however few the launch has (a grid
  // rounded up has blocks with no tile: they skip the loop, no extra
  // argument needed).
  v.grid[0] = block < 256    ? DimSource{DimSource::From::Grid, 0, 256 / block, 0, true}
              : block == 256 ? DimSource{DimSource::From::Grid, 0}
                             : DimSource{DimSource::From::Grid, 0, 1, 0, false, block / 256};
  v.extraArgs.clear();  // T is the loop's bound, which the clone reads itself
  // The floors on the elements (the bound), not on the launch's threads: 32
  // rows of the width (fewer take the clone's thin path, which ran 0.94x at
  // 7 rows of 400000 on an H200, v109) and the flat clone's least size.
  loop.several = true;
  loop.perParam = v.threadsPerParam;
  v.threadsPerParam.clear();
  loop.minBound = v.minLaunchThreads;
  v.minLaunchThreads = 0;
  v.maxLaunchThreads = (1u << 30) - 1;
  v.gridStrideOnce = {loop};
  return v;
}

}  // namespace ptxopt::transforms::transpose
