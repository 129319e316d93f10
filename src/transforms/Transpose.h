// The transpose pass's shared pieces (TransposePlan.cpp: the analysis;
// Transpose.cpp: the one-element clone and the driver; TransposeCopies.cpp:
// the tile and phase 1's copy, which both clones build from;
// TransposeTiled.cpp: the clone with four elements per thread;
// TransposeHoist.cpp: the values its copies share). Code in the .cpp files.
#pragma once

#include <map>
#include <optional>
#include <memory>
#include <string>
#include <vector>

#include "CloneUtil.h"
#include "GridStride.h"

namespace ptxopt::transforms::transpose {

using clone::cloneBody;
using clone::GridStride;
using clone::specialMov;
using clone::stmtOfInstr;
using clone::unloopGridStride;

/// The clones' launch floor (manifest minLaunchThreads): the one-element
/// clones ran 0.96-1.26x at 256 x 256 (Transpose.cpp's opening comment).
inline constexpr uint32_t kMinLaunchThreads = 1u << 20;
/// The floor of a batched flat permute (two or three splits) whose load is
/// along the tile's second axis (a gather: NHWC written in order from NCHW;
/// makeFlatVariant says why).
inline constexpr uint32_t kMinLaunchThreadsBatchedGather = 1u << 22;
/// The floor of the clones of kernels with several stores (four elements a
/// thread, as the hand-written kernel): H200, 2026-11-29, the CUDA samples'
/// naive transpose and its variants in 32 x 8 blocks ran 1.50-1.84x at
/// 512 x 512 (2^16 threads) and 2.8-3.4x at 1024 x 1024 (docs/BENCHMARKS.md).
inline constexpr uint32_t kMinLaunchThreadsSeveral = 1u << 16;

/// The 1-D block sizes the block-index clones are made for (Plan::index2).
inline constexpr unsigned kBlockAxisSizes[] = {128, 256, 512};

/// A block shape a clone is made for (bx x by threads).
struct Shape {
  unsigned bx, by;
  bool tiledOnly = false;  // kTiledShapes: the tiled clone only, no one-element clone
  std::string suffix() const {
    return bx == by ? std::to_string(bx) : std::to_string(bx) + "x" + std::to_string(by);
  }
};

/// The 2-D block shapes a clone is made for (bx x by threads: the tile).
inline constexpr Shape kShapes[] = {{32, 32}, {16, 16}, {32, 8}, {8, 32}};
/// More 2-D block shapes, tiled clones only (four elements per thread; the
/// one-element clone, which keeps the original's block, is not made for
/// them): shapes held-out programs launched naive transposes with (32 x 4,
/// 8 x 8, 16 x 4) and others real code writes (16 x 8, 32 x 16). Each 32 x
/// 32 tile covers 32/bx x 32/by of their blocks (TransposeTiled.cpp). 16 x 4
/// since the eighteenth session (H200, v111: 2.2-6.3x at 2^20 threads or
/// more, the swap 1.00x there). 64 x 4 (the eighth held-out batch's byte
/// transpose) since the nineteenth: a block is two tiles along x (as 1-D
/// blocks of 64 with the other axis a block index), 8 blocks a tile along y.
/// 64 x 8, 128 x 2 and 128 x 4 (blocks wider than a tile, as real code
/// writes them) since the twenty-sixth session, the same way: a block is
/// bx/32 tiles along x, 32/by blocks a tile along y.
inline constexpr Shape kTiledShapes[] = {{32, 4, true},  {16, 8, true}, {8, 8, true},   {32, 16, true},
                                         {16, 4, true},  {64, 4, true}, {64, 8, true},  {128, 2, true},
                                         {128, 4, true}};

/// What the analysis found: the tiled load and the store.
struct Plan {
  uint32_t load = 0, store = 0;  // instruction indices (load: the first tiled load; store: the first store)
  // Every store, in program order (stores[0] == store), all through one
  // pointer and unit-stride along the same index: several where nvcc
  // unrolled a loop of load-store pairs (the CUDA samples' naive transpose,
  // `for (j = 0; j < 32; j += 8) out[x*H + y+j] = in[(y+j)*W + x]`), one
  // tiled load per store then (same array allowed), one-element clones only.
  std::vector<uint32_t> stores;
  // Every tiled load, in program order (loads[0] == load), each from its own
  // array (loadParams): `(A + B)^T` stages A and B, a tile each, the k-th at
  // byte k * (one tile's bytes); one basic block holds them all.
  std::vector<uint32_t> loads;
  std::vector<int> loadParams;
  bool storeOnY = false;         // phase 2's fastest logical index is the second (the load side is the identity)
  // The second index of the exchange: "%tid.y" (2-D blocks), or a block
  // index, "%ctaid.y" or "%ctaid.z", for 1-D blocks whose grid walks the
  // other axis (NCHW -> NHWC with the channel in blockIdx.y): tiled clones
  // only, per block size (kBlockAxisSizes), each tile 32 values of it.
  std::string index2 = "%tid.y";
  int loadParam = -1, storeParam = -1;
  unsigned bytes = 0;
  std::string type;  // ".f32", ".v4.f32"
  unsigned sectorsBefore = 0;
};

// ---- the analysis (TransposePlan.cpp)

/// A branch whose condition may depend on memory: allowed where the tiled
/// load dominates it (phase 1 stops at the load; phase 2 reads the same
/// element from the tile), refused before (runTranspose).
struct MemoryBranch {
  uint32_t instr;
  std::string why;
};

/// Instructions allowed besides memory accesses and branches: no side effects.
bool pureOpcode(std::string_view b);
/// The checks on the kernel's instructions: what the clone may copy twice;
/// why not, or nullopt. Branches depending on memory go to `memBranches`
/// (the first one's remark also replaces any later failure's).
std::optional<std::string> checkInstructions(const ir::Function &k, analysis::FunctionAnalyses &fa,
                                             std::vector<MemoryBranch> &memBranches);
/// Whether instruction `b` may run after `a` on some path (no loops).
bool mayRunAfter(analysis::FunctionAnalyses &fa, uint32_t a, uint32_t b);
/// The tiled loads and the store(s), or nullopt with `why` (and `at`, the
/// instruction the remark points at) set.
std::optional<Plan> planKernel(const ir::Function &k, analysis::FunctionAnalyses &fa, std::string &why, uint32_t &at);
/// Whether the kernel has an uncoalesced global access (else no remark).
bool hasUncoalesced(analysis::FunctionAnalyses &fa);
/// The first global access of `fa`'s kernel the analysis cannot express
/// (verdict unknown), or null.
const analysis::AccessInfo *firstUnknownGlobal(analysis::FunctionAnalyses &fa);

// ---- the clones' shared pieces (TransposeCopies.cpp)

/// The row pitch, in elements, of a tile of `s` (bx x by) for w-byte
/// elements accessed by rows in one phase and by columns in the other.
unsigned tilePitch(const Shape &s, unsigned w);

/// Phase 1 of one logical thread: a copy of `k`'s body (after its
/// declarations) with the special registers renamed by `names`, up to the
/// tiled loads, whose values go to the tiles at `[addr]` (the k-th at
/// tileAddress); every return and the end of the last load branch to `end`; the store and dead code (loads included)
/// removed. `labelSuffix` keeps the copy's labels apart.
std::vector<std::unique_ptr<ir::Stmt>> phase1Copy(ir::Module &m, const ir::Function &k, const Plan &p,
                                                  const std::map<std::string, std::string> &names,
                                                  const std::string &addr, const std::string &end,
                                                  const std::string &labelSuffix, uint64_t tileBytes);
/// The manifest's disjointParams: each tiled load's array and the stored one.
std::vector<Variant::DisjointParams> disjointPairs(const Plan &p);
/// `[addr]`, or `[addr+k*tileBytes]` for the k-th tiled load's tile.
ir::Operand tileAddress(ir::Module &m, const std::string &addr, size_t k, uint64_t tileBytes);
/// Replaces each tiled load of `f` (a copy of the kernel, scopes flattened)
/// by `ld.shared` of its tile element at `addr`.
void loadsFromTiles(ir::Module &m, ir::Function &f, const Plan &p, const std::string &addr, uint64_t tileBytes);

/// `opcode ops` guarded by `guard` (negated when `negated`), marked edited.
std::unique_ptr<ir::Instruction> makeInstr(ir::Module &m, const std::string &opcode, std::vector<ir::Operand> ops,
                                           std::string_view guard = {}, bool negated = false);
/// `.shared .align 16 .b8 <name>[bytes];` as the first statement of
/// `clone`'s body (the tile of both clones), the body marked edited.
void declareTile(ir::Module &m, ir::Function &clone, const std::string &name, uint64_t bytes);

// ---- 1-D launches indexing with `/` and `%` (TransposeFlat.cpp)

/// The 1-D block sizes the flat form's clone has variants for.
inline constexpr unsigned kFlatBlocks[] = {64, 128, 256, 512, 1024};

/// A radix of the flat form: a parameter, or (the digits form) a product
/// of parameters (`i % (H*W)`): each factor's register (loaded from the
/// parameter before the index), parameter index and name; or a
/// compile-time constant (TransposeConstDiv.cpp), one factor: its register
/// "#<value>", its name the value, its parameter index -1.
struct Radix {
  std::vector<std::string> regs, names;
  std::vector<int> params;
  std::optional<uint64_t> constant;
  // A 64-bit index (FlatForm::wide): per factor, "" where its register holds
  // it in 64 bits (an 8-byte parameter), else the cvt that widens the 4-byte
  // parameter's register ("cvt.s64.s32", "cvt.u64.u32"); and the
  // parameter's bytes (4 or 8).
  std::vector<std::string> ext;
  std::vector<unsigned> bytes;
  bool empty() const { return names.empty(); }
  /// The factors' names joined by '*'.
  std::string text() const;
};

/// The least value the flat clone's conditions ask of each factor of `r`
/// for the radix to be at least `most` (32, or 1): `most` for a parameter,
/// 6 for each of two factors, 4 for each of three.
uint32_t factorFloor(const Radix &r, uint32_t most);

/// A kernel whose thread splits its flat index i = %ctaid.x * %ntid.x +
/// %tid.x by a parameter w with div and rem (the instructions, by CFG index).
struct FlatForm {
  uint32_t mad = 0;                  // mad.lo i, %ctaid.x, %ntid.x, %tid.x (wide: the add.s64)
  // A 64-bit index (TransposeWide.cpp): i = mul.wide.u32 %ctaid.x, %ntid.x
  // + cvt.u64.u32 %tid.x, its divisions and remainders 64-bit, the radices
  // 8-byte parameters or 4-byte ones widened.
  bool wide = false;
  // Wide, the index written mul.wide.u32 + cvt.u64.u32 + add.s64: the
  // registers of %ctaid.x, %ntid.x and %tid.x (the 2-D form computes R from
  // them in 32 bits, zero-extended: it is under 2^31 where tiles run).
  std::string sreg[3];
  std::vector<uint32_t> divs, rems;  // div / rem i, w
  std::string index;                 // the register i
  // A second split (a flat permute: i / w, then (i / w) % w2 and
  // (i / w) / w2 or i / (w * w2)): the instructions giving the middle
  // index ((i / w) % w2) and the batch (w and w2: below).
  std::vector<uint32_t> toMiddle, toBatch;
  // The digits form (findDigits): i = ((d3*W2 + d2)*W1 + d1)*W0 + d0 for
  // three radices (NCHW <-> NHWC with H and W split apart: i % W, (i / W) %
  // H, (i / (W*H)) % C, i / (W*H*C), or a chain of quotients), or i = d2*W1*W0
  // + d1*W0 + d0 for two where one is a product of parameters (`i % (H*W)`,
  // `(i / (H*W)) % C`). The tile's second axis is digit `partner` (1 or 2),
  // with three radices the other digit under the top one (radix wLo) and the
  // top one the batch. `digitOf`: each div / rem of i or of a quotient, by
  // instruction: {a, b} the digits a..b-1 (a remainder), {k, -1} the
  // quotient i / (W0 * .. * W(k-1)). findFlatForm sets partner 2 (three
  // radices; runFlat tries 2, then 1) or 1.
  Radix radix[3];
  int radices = 0, partner = 0;
  std::map<uint32_t, std::pair<int, int>> digitOf;
  // The radices as the clone uses them: w (digit 0's), w2 (the tile's
  // second axis'), wLo (three radices: the batch's lower digit's); every
  // form sets w (and w2 with two splits).
  Radix w, w2, wLo;
  bool twoSplits() const { return !w2.empty(); }
  bool threeSplits() const { return radices == 3; }
  /// The digits form: the tile's second axis on digit `p`.
  void setPartner(int p) {
    partner = p;
    w2 = radix[p];
    wLo = radices == 3 ? radix[3 - p] : Radix{};
  }
  const ir::Function *original = nullptr;  // the kernel (its code runs as it is where tiles do not pay)
  // A grid-stride loop that may run several times (runFlat's loop clone,
  // `<k>__ptxopt_tiledloop`): the loop's bound, its 4-byte parameters
  // (widened as `ext` says) or a constant; the clone's T (the flat indices
  // it covers) in place of the original launch's threads, and its blocks
  // loop over the chunks of its thin path.
  std::optional<Radix> bound;
};

/// The statement as an instruction, or null (a label, a declaration...).
const ir::Instruction *asInstruction(const ir::Stmt &s);
/// Operand k of `in` when it is a register: its name; else "".
std::string regAt(const ir::Instruction &in, size_t k);
/// A fold's copy without its top-level statements marked in `drop`
/// (TransposeWide.cpp, TransposeConstDiv.cpp), marked edited.
void keepUndropped(ir::Function &g, const std::vector<bool> &drop);

/// The flat form of `k`, or nullopt: with `why` empty when `k` does not
/// divide a flat index (no remark), else why the form does not fit.
std::optional<FlatForm> findFlatForm(const ir::Function &k, analysis::FunctionAnalyses &fa, std::string &why);
/// The flat index register of `k` (i = %ctaid.x * %ntid.x + %tid.x, as
/// findFlatForm finds it), or "" where `k` has none.
std::string flatIndexOf(const ir::Function &k, analysis::FunctionAnalyses &fa);
/// The divisor d of nvcc's division by a constant as a multiplication:
/// floor(x * m / 2^s) == x / d for every unsigned x of `bits` (32 or 64)
/// bits (m of up to bits + 1 bits: nvcc's form that adds x back); or, signed, floor(x * m / 2^s) + (x < 0) == x / d (toward zero)
/// for every signed x (`negative`: the multiplier is -m, the sign bit x >
/// 0's, and the quotient x / -d); 0 where no d >= 2 makes it hold.
uint64_t unsignedDivisor(unsigned __int128 m, unsigned s, unsigned bits);
uint64_t signedDivisor(unsigned __int128 m, unsigned s, unsigned bits, bool negative = false);
/// A copy of `k` (not emitted) with nvcc's divisions of the flat index
/// `index` (and of what it folds from it) by constants written as div and
/// rem by immediates (TransposeConstDiv.cpp), or null where there is none.
std::unique_ptr<ir::Function> foldConstDivisions(ir::Module &m, const ir::Function &k, const std::string &index);
/// A copy of `k` (not emitted) with each of nvcc's 64-bit division fast
/// paths folded into its 64-bit division (TransposeWide.cpp), or null when
/// `k` has none.
std::unique_ptr<ir::Function> foldDivFastPaths(ir::Module &m, const ir::Function &k);
/// `k` as a 2-D kernel (not emitted): R = %ctaid.x * %ntid.x + %tid.x, Q =
/// %ctaid.y * %ntid.y + %tid.y, i = Q * w + R, each div i, w Q and each rem
/// i, w R; with two splits M = %ctaid.y * %ntid.y + %tid.y, the batch B =
/// %ctaid.z, Q = B * w2 + M.
std::unique_ptr<ir::Function> flatAs2D(ir::Module &m, const ir::Function &k, const FlatForm &f);
// (TransposeFlatLaunch.cpp)
/// The variant of the flat clone `name` for 1-D blocks of `block` threads.
Variant makeFlatVariant(const std::string &name, const Plan &p, const FlatForm &f, unsigned block);
/// The bound of grid-stride loop `g` of `k` (unloopGridStride's: parameters
/// read as 4-byte words, or a constant `times`) as a radix.
Radix boundRadix(const ir::Function &k, const Variant::GridStrideOnce &g);
/// The variant of the flat clone of a grid-stride loop that may run several
/// times (`f.bound` set): blocks of 256 threads, as many threads as the
/// original launch, conditions `loop` with `several` (the bound under 2^30
/// and at least the flat clone's floor) in place of the launch's floor.
Variant makeFlatLoopVariant(const std::string &name, const Plan &p, const FlatForm &f, unsigned block,
                            Variant::GridStrideOnce loop);

// ---- kernels written as grid-stride loops: GridStride.h (shared with rowwalk)

/// The same for a grid-stride loop with a 64-bit counter, which nvcc
/// compiles with a computed trip count and a loop unrolled four times
/// (TransposeGridStrideCounted.cpp): the copy's straight-line code of one
/// iteration, or nullopt (`why` set where the loop was recognised).
std::optional<GridStride> unloopCounted(ir::Module &m, const ir::Function &k, std::string &why);

/// The kernel's instructions whose value is the same in every copy of the
/// tiled clone (TransposeHoist.cpp): pure, defined once, outside loops, from
/// parameters, immediates and the special registers not in `renamed`; in
/// program order. Empty for a kernel with nested scopes.
std::vector<const ir::Instruction *> findSharedValues(const ir::Function &k, const std::set<std::string> &renamed);
/// Removes the copies of `shared`'s instructions from `code` (a copy of the
/// kernel's body); returns how many.
size_t dropSharedValues(std::vector<std::unique_ptr<ir::Stmt>> &code, const std::vector<const ir::Instruction *> &shared);

/// The clone that runs each 32 x 32 tile of logical threads (bx x by
/// blocks of the original, 32/bx x 32/by of them) with 32 x 8 threads, four
/// logical threads each (TransposeTiled.cpp), and its manifest variant.
/// With `flat`: `k` is flatAs2D's kernel, `sh` 32 x 32, and the clone's
/// blocks loop over the tiles (TransposeFlat.cpp).
std::unique_ptr<ir::Function> buildTiledClone(ir::Module &m, const ir::Function &k, const Plan &p, const Shape &sh,
                                              const std::string &name, const FlatForm *flat = nullptr);
Variant makeTiledVariant(const std::string &name, const Plan &p, const Shape &sh);

}  // namespace ptxopt::transforms::transpose
