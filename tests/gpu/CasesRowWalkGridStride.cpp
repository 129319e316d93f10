// gpu-diff cases ("gridstride: ") of row walks inside a grid-stride loop over rows (issue
// 29; clone::unloopGridStride with GridStrideLoops::Outer, RowWalk.cpp's
// addGridStrideClones; tests/lit/rowwalk/Inputs/gridstride.cu): launches
// whose threads cover the rows run the clones of the kernel of one row per
// thread (`<k>__ptxopt_once_*`, manifest condition gridStrideOnce), the
// others the clones of the kernel itself (the staged clone of the inner
// loop, 128-byte tiles) or the original. Every clone compared bit for bit
// with the original on random non-zero inputs (floats summed in the
// original's order; the float CSR with --reassociate against a float64
// bound).
//
// Edges: rows not a multiple of the block, rows not 16-byte aligned (the
// unaligned form), rows of length 0 (nvcc's second grid-stride loop, y[i] =
// 0), launches of a few blocks whose threads loop several times (the once
// clones must not run), CSR rows of 1-8 (each warp the original code) and
// the CSR launch floor.
#include "Cases.h"

namespace gpudiff {

namespace {

/// `c` launched with `blocks` blocks (threads fewer than its rows: each
/// thread's grid-stride loop runs several times), renamed to say so.
Case fewBlocks(Case c, unsigned blocks) {
  c.grid = {blocks, 1, 1};
  c.name += ", " + std::to_string(blocks) + " blocks (the loop runs several times)";
  return c;
}

/// gemv_gs_f32(A rows x m, x m, y rows, rows, m).
Case gemv(unsigned rows, unsigned m, unsigned block, const std::string &expect, const std::string &what = "") {
  return rowsCase("gridstride", "rowwalkgridstride", "gemv_gs_f32",
                  {in(Elem::F32, size_t(rows) * m + 1), in(Elem::F32, m + 1), out(Elem::F32, rows),
                   i32(int32_t(rows)), i32(int32_t(m))},
                  rows, m, block, expect, what);
}

/// rowsum_gs_u32(A rows x m, y rows, rows, m).
Case rowsum(unsigned rows, unsigned m, unsigned block, const std::string &expect) {
  return rowsCase("gridstride", "rowwalkgridstride", "rowsum_gs_u32",
                  {in(Elem::I32, size_t(rows) * m + 1), out(Elem::I32, rows), i32(int32_t(rows)), i32(int32_t(m))},
                  rows, m, block, expect);
}

/// csr_gs_i32 / csr_gs_f32(rowptr, col, val, x, y, n): rows of lo..hi
/// non-zeros (one in `zeros` empty), columns random below 4096.
Case csr(bool floating, unsigned n, unsigned lo, unsigned hi, unsigned zeros, const std::string &passes,
         const std::string &expect) {
  constexpr unsigned kCols = 4096, kBlock = 256;
  const Elem e = floating ? Elem::F32 : Elem::I32;
  const size_t nnz = std::max<size_t>(1, size_t(n) * hi);
  const std::string kernel = floating ? "csr_gs_f32" : "csr_gs_i32";
  Case c = makeCase("gridstride: " + kernel + " " + std::to_string(n) + " rows of " + std::to_string(lo) + "-" +
                        std::to_string(hi) + (zeros ? ", one in " + std::to_string(zeros) + " empty" : "") +
                        (passes.empty() ? "" : " (" + passes + ")"),
                    "rowwalkgridstride", kernel,
                    {rowPtrs(n, lo, hi, zeros), indices(nnz, kCols), in(e, nnz), in(e, kCols), out(e, n),
                     i32(int32_t(n))},
                    {(n + kBlock - 1) / kBlock, 1, 1}, {kBlock, 1, 1});
  c.passes = passes;
  c.expect = expect;
  c.big = nnz >= (size_t(1) << 22);
  if (floating) c.approx = csrApprox<float>(n);  // reassociated
  return c;
}

/// A kernel of tests/lit/rowwalk/Inputs/gridstride64.cu: (X rows x cols,
/// outputs, rows and cols as 64-bit integers).
Case gs64(const std::string &kernel, unsigned rows, unsigned cols, unsigned block, const std::string &expect) {
  const bool ints = kernel == "rowsum_i64_loop", two = kernel == "nanmean_gs64";
  std::vector<Arg> args{in(ints ? Elem::I32 : Elem::F32, size_t(rows) * cols + 1),
                        out(ints ? Elem::I32 : Elem::F32, rows)};
  if (two) args.push_back(out(Elem::I32, rows));
  args.push_back(i64(int64_t(rows)));
  args.push_back(i64(int64_t(cols)));
  return rowsCase("gridstride 64", "rowwalkgridstride64", kernel, std::move(args), rows, cols, block, expect);
}

}  // namespace

void addRowWalkGridStride(std::vector<Case> &cs) {
  // 64-bit indices (`size_t r`): the once clones where the threads cover the
  // rows; a few blocks: the kernels' own staged clones (128-byte tiles).
  cs.push_back(gs64("rowsum_gs64", 8192, 4096, 256, "=rowsum_gs64__ptxopt_once_staged"));
  cs.push_back(fewBlocks(gs64("rowsum_gs64", 8192, 4096, 256, "=rowsum_gs64__ptxopt_staged"), 8));
  cs.push_back(gs64("rowsum_gs64", 4001, 4099, 128, "=rowsum_gs64__ptxopt_once_staged_unaligned"));
  cs.push_back(gs64("nanmean_gs64", 8192, 4096, 256, "=nanmean_gs64__ptxopt_once_staged"));
  cs.push_back(fewBlocks(gs64("nanmean_gs64", 8192, 4096, 256, "=nanmean_gs64__ptxopt_staged"), 8));
  // PyTorch's int64_t loop: no once clone (its unswitched second loop advances the index from another register).
  cs.push_back(gs64("rowsum_i64_loop", 8192, 4096, 256, "=rowsum_i64_loop__ptxopt_staged"));

  // A GEMV written as a grid-stride loop, a thread per row: the once clone
  // (256-byte tiles, pack's 16-byte loads); a few blocks: the kernel's own
  // staged clone of the inner loop (128-byte tiles).
  cs.push_back(gemv(4096, 4096, 256, "=gemv_gs_f32__ptxopt_once_staged_pack"));
  cs.push_back(gemv(20000, 1024, 256, "=gemv_gs_f32__ptxopt_once_staged_pack"));
  cs.push_back(fewBlocks(gemv(4096, 4096, 256, "=gemv_gs_f32__ptxopt_staged_pack"), 8));
  cs.push_back(fewBlocks(gemv(20000, 1024, 256, "=gemv_gs_f32__ptxopt_staged_pack"), 16));
  cs.push_back(gemv(4001, 1024, 128, "=gemv_gs_f32__ptxopt_once_staged_pack"));
  cs.push_back(gemv(3000, 1025, 256, "=gemv_gs_f32__ptxopt_once_staged_unaligned_pack", "rows not aligned"));
  cs.push_back(gemv(100000, 0, 256, "=gemv_gs_f32__ptxopt_pack", "rows of 0"));
  // Integer row sums through an unsigned index: the lanes clones.
  cs.push_back(rowsum(4096, 4096, 256, "=rowsum_gs_u32__ptxopt_once_lanes"));
  cs.push_back(rowsum(65536, 100, 256, "=rowsum_gs_u32__ptxopt_once_lanes4"));
  cs.push_back(fewBlocks(rowsum(4096, 4096, 256, "=rowsum_gs_u32__ptxopt_staged"), 8));
  cs.push_back(rowsum(4000, 300, 96, "=rowsum_gs_u32__ptxopt_once_lanes"));
  // CSR: the rounds clone where the launch covers the rows.
  cs.push_back(csr(false, 70001, 32, 256, 0, "", "=csr_gs_i32__ptxopt_once_csr"));
  cs.push_back(csr(false, 65536, 128, 128, 0, "", "=csr_gs_i32__ptxopt_once_csr"));
  cs.push_back(csr(false, 100000, 1, 8, 8, "", "=csr_gs_i32__ptxopt_once_csr"));
  cs.push_back(csr(false, 80000, 0, 40, 4, "", "=csr_gs_i32__ptxopt_once_csr"));
  cs.push_back(csr(false, 4001, 32, 256, 8, "", "original"));  // under the launch floor
  cs.push_back(fewBlocks(csr(false, 70001, 32, 256, 0, "", "original"), 64));
  cs.push_back(csr(true, 70001, 32, 256, 0, "rowwalk;reassociate", "=csr_gs_f32__ptxopt_once_csr"));
  cs.push_back(csr(true, 70001, 32, 256, 0, "", "original"));  // exact by default: no clone
}

}  // namespace gpudiff
