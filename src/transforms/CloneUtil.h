// Helpers shared by the passes that build clones of kernels (coalesce,
// group, pack, rowwalk, reuse): the hardware index positions, a small
// emitter of new statements, renaming of registers and special-register
// reads, flattening nested scopes in a kernel's copy (flattenScopes), the checks every clone needs (callees that read indices,
// block-shape directives), register types, parameters and alignment
// conditions. The code is in CloneUtil.cpp; the split clone, dead code and
// contractions in Coalesce.cpp, DeadCode.cpp and Contraction.cpp.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "Pass.h"
#include "ptxopt/analysis/Affine.h"

namespace ptxopt::transforms::clone {

using ir::Operand;

// Hardware index positions, fastest first: the mixed-radix digits of a
// thread's place in the grid.
struct Position {
  const char *index, *extent;  // "%tid.x", "%ntid.x"
  DimSource::From from;
  uint8_t dim;
};
inline constexpr Position kPos[6] = {{"%tid.x", "%ntid.x", DimSource::From::Block, 0},
                              {"%tid.y", "%ntid.y", DimSource::From::Block, 1},
                              {"%tid.z", "%ntid.z", DimSource::From::Block, 2},
                              {"%ctaid.x", "%nctaid.x", DimSource::From::Grid, 0},
                              {"%ctaid.y", "%nctaid.y", DimSource::From::Grid, 1},
                              {"%ctaid.z", "%nctaid.z", DimSource::From::Grid, 2}};

/// Renames the registers of `o` (and of its elements) found in `names`.
void renameOperand(Operand &o, const std::map<std::string, std::string> &names, ir::Module &m);
/// Renames the registers found in `names` in every instruction of `b`.
void renameRegisters(ir::Block &b, const std::map<std::string, std::string> &names, ir::Module &m);

/// Flattens the nested `{ }` scopes of `f`'s body (a copy of a kernel: the
/// original is never edited) into the body: the inline asm of cuda_fp16.h
/// and cuda_bf16.h (`{ cvt.f32.f16 %f1, %rs1; }`, `{ .reg .pred p; setp..;
/// selp..; }`) that the passes planning over a flat body refuse. A scope's
/// `.reg` declarations get fresh names (%ptxopt_s<N>), declared with the
/// body's own at its top; the scope's instructions are renamed. Nothing changes and the
/// reason comes back when a scope holds anything else: a label, a nested
/// scope, a declaration of another state space or of a register range
/// (%r<4>), a call sequence (its `.param`s are its own). nullopt when
/// flattened, or when there was no scope.
std::optional<std::string> flattenScopes(ir::Function &f, ir::Module &m);
/// Whether `f`'s body has a nested scope.
bool hasScopes(const ir::Function &f);

/// Rewrites each rotated loop of `f` (a copy of a kernel) into a peeled
/// first part and a single-block loop. nvcc lays out a loop whose constant
/// trip count is not a multiple of its unroll factor (`for (j = 1; j < 2048;
/// j++)`: 2047 iterations, unrolled by 4) as
///     bra.uni H;  B: <b>  H: <h>  @p bra X;  bra.uni B;  X:
/// entered in the middle and left before its back edge: H (B H)*. The
/// rewrite gives the same sequence as
///     <h>  @p bra X;  B: <b> <h>  @!p bra B;  X:
/// when <b> and <h> are straight-line code, B and H are targets of those two
/// branches only, and no add that ptxas may contract (contractableAdd) in the
/// loop or the straight code before it reads a register that such a mul
/// there writes (contractableMul; joining the blocks could let ptxas fuse a pair the
/// original kept apart). An address in <b> through a register that <h>
/// sets to `v + c` (`add.s64`) is read as `[v+(k+c)]` (its value there, on
/// both ways into <b>). Returns how many loops it rewrote.
size_t peelRotatedLoops(ir::Function &f, ir::Module &m);

/// Rewrites each loop of `f` (a copy of a kernel) that nvcc left by a
/// conditional branch just before an unconditional back edge,
///     H: <h>  @p bra X;  bra.uni H;
/// (a remainder loop laid out above code the loop does not fall into: the
/// lower-triangular `for (size_t k = 0; k < i; k++)` of a row solve) as the
/// loop with a conditional latch it is,
///     H: <h>  @!p bra H;  bra.uni X;
/// when H is the target of that back edge only (<h> straight-line code, or
/// since the twenty-first session blocks of its own: trmv's remainder
/// loop `if (k == i) .. else ..`). The same paths, the same instructions.
/// Returns how many it rewrote.
size_t foldJumpLatches(ir::Function &f, ir::Module &m);

/// A copy of a kernel with its nested scopes flattened (flattenScopes), for
/// a pass to plan and clone from (rowwalk, pack); the copy's analyses are
/// forgotten with it (the analysis manager keys them by address).
class FlatCopy {
public:
  explicit FlatCopy(PassContext &ctx) : ctx_(ctx) {}
  FlatCopy(const FlatCopy &) = delete;
  FlatCopy &operator=(const FlatCopy &) = delete;
  ~FlatCopy();
  /// Makes the copy of `k`; the reason, and no copy, when a scope cannot be flattened.
  std::optional<std::string> make(const ir::Function &k);
  /// Makes a copy of `k` with its rotated loops peeled (peelRotatedLoops)
  /// and its jump latches folded (foldJumpLatches), its scopes flattened
  /// first when it has any; false, and no copy, when it has neither or a
  /// scope cannot be flattened.
  bool makePeeled(const ir::Function &k);
  ir::Function *get() const { return f_.get(); }
  /// Drops the copy (and its analyses).
  void reset();

private:
  void copy(const ir::Function &k);  // f_ = a copy of k, the old copy's analyses forgotten
  PassContext &ctx_;
  std::unique_ptr<ir::Function> f_;
};

/// Small builder of new statements for a clone.
struct Emitter {
  ir::Module &m;
  std::vector<std::unique_ptr<ir::Stmt>> out;
  std::string prefix = "%ptxopt_";  // of the registers it declares: <prefix>r<N>, <prefix>rd<N>, <prefix>p<N>
  unsigned r32 = 0, r64 = 0, pred = 0;

  std::string reg32() { return prefix + "r" + std::to_string(r32++); }
  std::string reg64() { return prefix + "rd" + std::to_string(r64++); }
  std::string regp() { return prefix + "p" + std::to_string(pred++); }
  /// "%r1" a register, "16" or "-1" an immediate, "[name]" the address of
  /// `name`, anything else a symbol.
  Operand op(const std::string &t);
  /// Appends `opcode ops` to `out`, guarded by `guard` ("%p", "!%p") when given.
  void ins(const std::string &opcode, std::vector<std::string> ops, const std::string &guard = "");
  void label(const std::string &name);
  /// `.reg <type> <prefix><n>;` (a range of n registers).
  std::unique_ptr<ir::Decl> decl(const char *type, const std::string &prefix, unsigned n);
};

/// Replaces reads of the special registers in `names` by ordinary registers.
/// `mov.u16 %rs, %tid.x` (allowed only for special registers) becomes a cvt.
void replaceSpecialReads(ir::Block &b, const std::map<std::string, std::string> &names, ir::Module &m);

/// Index of the first statement after the leading declarations of the body.
size_t prologueAt(const ir::Block &b);

/// A function called (transitively) by `f` that reads a thread or block
/// index or extent itself: the clones rename those reads in the kernel only,
/// so such a callee would see the hardware indices. Null when there is none.
const ir::Function *calleeReadingIndices(ir::Module &m, const ir::Function &f, std::set<const ir::Function *> &seen);

/// Removes the directives that describe the original launch's block shape
/// (a clone launched with other dimensions must not carry them).
void dropBlockShapeDirectives(ir::Function &f);

/// Puts the emitter's register declarations and statements at the start of
/// the clone's body (after its own declarations).
void insertPrologue(ir::Function &clone, Emitter &e, bool wide);

/// A memory instruction without ordering or volatility qualifiers
/// (`.volatile`, `.relaxed`, `.acquire`, `.release`, `.mmio`, `.cv`, or a
/// scope): the grouping passes may repeat, reorder across threads or merge
/// only such accesses.
bool plainMemoryOp(const ir::Instruction &in);

/// The type modifier of a memory instruction (".u8", ".f32"), or "".
std::string typeModifier(const ir::Instruction &in);

/// The register types a function body declares: plain names and `%r<N>`
/// range prefixes.
struct RegTypes {
  std::map<std::string, std::string> plain, range;
  void add(const ir::Decl &d);
  /// Declared type of register `r` (".b16"), or "" when not declared here.
  std::string type(std::string_view r) const;
  /// Width in bits (1 for .pred, 0 when unknown).
  unsigned bits(std::string_view r) const;
};

/// The module's kernels that are not clones (no `__ptxopt_` in the name),
/// in module order: what the passes that start from originals take.
std::vector<ir::Function *> originalKernels(ir::Module &m);

/// Index of the parameter of `f` named `name`, or -1.
int paramIndex(const ir::Function &f, std::string_view name);
/// Appends `.param <type> <f>_param_ptxopt_<what>` to f's parameters (the
/// values a variant's extraArgs and allocEnds add after the original's own;
/// type ".u32" or ".u64"); returns its name.
std::string addExtraParam(ir::Module &m, ir::Function &f, const std::string &what, const char *type = ".u32");

/// The address `[reg+off]` (`[reg]` for 0; a negative offset as nvcc writes
/// it, `[reg+-4]`: ptxas takes no `[reg-4]`).
Operand addressOf(ir::Module &m, std::string_view reg, int64_t off);

/// Base register and offset of `[reg]` / `[reg+imm]` / `[reg-imm]`.
bool baseAndOffset(const Operand &addr, std::string &reg, int64_t &off);

/// Asks `c` of `conds`: a parameter already there keeps the larger
/// alignment.
void requireAligned(std::vector<Variant::AlignedParam> &conds, const Variant::AlignedParam &c);

/// Whether address polynomial `poly` is a multiple of V for every launch
/// that passes runtime conditions: each term's coefficient, times
/// `scale(term)`, must be a multiple of V, or the term must hold a
/// parameter of `f`, which becomes a condition appended to `conds` (its
/// value a multiple of V / gcd(coefficient, V): a pointer's alignment, a
/// pitch). A term with several parameters (`B * w * %ctaid.y`, a tile edge
/// times a pitch) is a multiple of the coefficient times any one of them:
/// a condition already asked of one of them is used when it suffices, else
/// one is asked of the first. The constant term's remainder goes to
/// `misalign` (0..V-1). False when a term can be neither (a global's
/// address, an index with an odd coefficient); then `why` (when given) names
/// the term.
bool vectorAlignment(const analysis::Poly &poly, const analysis::AffineAnalysis &aff, const ir::Function &f,
                     int64_t V, const std::function<int64_t(const analysis::Symbol &)> &scale,
                     std::vector<Variant::AlignedParam> &conds, int64_t &misalign, std::string *why = nullptr);

/// Moves the w-byte element at byte `byte` of the 32-bit `words` into `dst`
/// (16, 32 or 64 bits), sign- or zero-extended as the load's type says:
/// `bfe` for 1- and 2-byte elements, then `cvt` or `mov` to the width.
void emitUnpack(Emitter &e, const std::vector<std::string> &words, unsigned byte, unsigned w, bool sign,
                const std::string &dst, unsigned dstBits);

/// The coalesce pass's split clone of `k` (defined in Coalesce.cpp): the
/// function, named `<k>__ptxopt_split<S>[_large]`, and its manifest variant.
/// The group pass builds its own split clones with larger S.
std::pair<std::unique_ptr<ir::Function>, Variant> makeSplitClone(ir::Module &m, const ir::Function &k, uint32_t split,
                                                                 uint32_t minGrid);

/// Removes the instructions of `f` without side effects whose destination no
/// instruction of `f` reads (repeatedly); returns how many (DeadCode.cpp).
size_t removeDeadCode(ir::Function &f);

/// Whether ptxas may fuse `in` with a neighbour into an fma: a floating-point
/// mul (contractableMul) or add or sub (contractableAdd) without a rounding
/// modifier (Contraction.cpp).
bool contractableMul(const ir::Instruction &in);
bool contractableAdd(const ir::Instruction &in);

/// After edits that moved statements of `clone`, a copy of `orig` whose
/// statements `origIndex` maps to their index in orig (new statements
/// absent): gives `.rn` to the add (or mul) of each product and sum ptxas
/// could now fuse into an fma and could not in the original, so the clone
/// rounds as the original does (Contraction.cpp). Returns why not, when a
/// pair is parted or cannot be kept apart.
std::optional<std::string> keepContractions(ir::Module &m, const ir::Block &orig, ir::Block &clone,
                                            const std::unordered_map<const ir::Stmt *, size_t> &origIndex);

}  // namespace ptxopt::transforms::clone
