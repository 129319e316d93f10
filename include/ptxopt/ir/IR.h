// ptx-opt IR: module, functions, nested scopes, statements, operands.
//
// The IR is a tree that mirrors PTX's own structure: a Module holds top-level
// items (directives, variables, functions, debug sections); a Function holds a
// Block; a Block holds statements, which may be nested Blocks (`{ // callseq }`).
// Basic blocks and control flow are derived views (see ir/BasicBlocks.h and
// the analyses), never a second copy of the code.
//
// Strings are std::string_view into the Module's source text or into its
// string pool (Module::intern), so nodes are small and copying is cheap.
//
// Every node built by the parser keeps its source span [begin, end) and the
// offset where its leading trivia (whitespace, comments) starts. The printer
// reproduces an untouched node from the source bytes, so printing an
// unmodified module gives the input back byte for byte. A node created or
// edited by a pass has `edited` set (or no span) and prints from the IR.
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ptxopt {
class LineTable;
}

namespace ptxopt::ir {

/// Byte range in the module's source text. `lead` is where the trivia
/// before the node starts (== begin when there is none).
struct Span {
  static constexpr uint32_t kNone = UINT32_MAX;
  uint32_t lead = kNone, begin = kNone, end = kNone;
  bool valid() const { return begin != kNone; }
};

// ---------------------------------------------------------------- operands

struct Operand {
  enum class Kind : uint8_t {
    Register,  // %r1, %tid.x, or a plain name declared with .reg (inline asm)
    Immediate, // 1, -4, 0x10, 1.5, 0f3F800000 (text keeps the spelling)
    Symbol,    // label, parameter, global, function name
    Sink,      // _
    Vector,    // {a, b, _, d}
    Address,   // [item, item...]; usually one item: base or Sum
    List,      // (a, b) in call sequences
    Not,       // !%p   (elems[0])
    Pipe,      // %p|%q (elems)
    Sum,       // elems[0] <text> elems[1], text is "+" or "-" (inside [...])
  };
  Kind kind = Kind::Immediate;
  std::string_view text;
  std::vector<Operand> elems;

  static Operand reg(std::string_view n) { return {Kind::Register, n, {}}; }
  static Operand imm(std::string_view t) { return {Kind::Immediate, t, {}}; }
  static Operand sym(std::string_view n) { return {Kind::Symbol, n, {}}; }

  bool isReg() const { return kind == Kind::Register; }
  bool isImm() const { return kind == Kind::Immediate; }
  bool isSym() const { return kind == Kind::Symbol; }
  /// Value of an integer immediate (decimal, hex, octal, binary; U suffix ok).
  std::optional<int64_t> intValue() const;
  bool operator==(const Operand &o) const {
    return kind == o.kind && text == o.text && elems == o.elems;
  }
};

// ---------------------------------------------------------------- statements

struct Stmt {
  enum class Kind : uint8_t { Instruction, Label, Decl, Directive, Block };
  explicit Stmt(Kind k) : kind(k) {}
  virtual ~Stmt() = default;
  virtual std::unique_ptr<Stmt> clone() const = 0;
  Kind kind;  // set by the constructor of each statement class
  Span span;
  /// Set by any edit; an edited statement prints from the IR.
  bool edited = false;
};

/// `@!%p opcode.mod.mod operand, operand;`
struct Instruction final : Stmt {
  Instruction() : Stmt(Kind::Instruction) {}
  std::unique_ptr<Stmt> clone() const override { return std::make_unique<Instruction>(*this); }

  std::string_view guard;     // "%p1" or empty
  bool guardNegated = false;  // @!%p
  std::string_view opcode;    // full token: "ld.global.nc.v4.u32"
  std::vector<Operand> operands;

  /// "ld" of "ld.global.u32".
  std::string_view base() const { return opcode.substr(0, opcode.find('.')); }
  /// ".global", ".u32" of "ld.global.u32" (each with its dot).
  std::vector<std::string_view> modifiers() const;
  bool hasModifier(std::string_view m) const;
  /// Whether `pred` holds for a modifier, asked in order up to the first
  /// that it holds for: modifiers() without a vector (the analyses ask for
  /// every instruction they evaluate).
  template <class Pred> bool anyModifier(Pred &&pred) const {
    for (size_t pos = opcode.find('.'); pos != std::string_view::npos;) {
      size_t next = opcode.find('.', pos + 1);
      if (pred(opcode.substr(pos, next == std::string_view::npos ? std::string_view::npos : next - pos))) return true;
      pos = next;
    }
    return false;
  }
};

/// `name:`
struct Label final : Stmt {
  Label() : Stmt(Kind::Label) {}
  std::unique_ptr<Stmt> clone() const override { return std::make_unique<Label>(*this); }
  std::string_view name;
};

/// One declared name: `%r<5>`, `arr[16][4]`, `smem[]`, `x`.
struct Declarator {
  std::string_view name;
  std::optional<uint32_t> range;              // %r<range>
  std::vector<std::optional<uint64_t>> dims;  // [16][] -> {16, nullopt}
  bool operator==(const Declarator &) const = default;
};

/// `.reg .b32 %r<5>;`, `.shared .align 4 .b8 buf[64];`,
/// `.global .u32 x = 5;`, and (inside param lists) `.param .u64 p`.
struct Decl final : Stmt {
  Decl() : Stmt(Kind::Decl) {}
  std::unique_ptr<Stmt> clone() const override { return std::make_unique<Decl>(*this); }
  /// Leading directives as tokens: {".visible", ".global", ".align", "4", ".b32"}.
  std::vector<std::string_view> attrs;
  std::vector<Declarator> names;
  /// Initializer tokens after '=' (empty when none).
  std::vector<std::string_view> init;
  bool semicolon = true;  // false inside parameter lists

  /// The state space: ".reg", ".param", ".shared", ".global", ".local", ".const", ...
  std::string_view space() const;
  bool hasAttr(std::string_view a) const;
  /// Value after ".align", 0 when absent.
  uint32_t align() const;
  /// Element type (".b32", ".u64", ".pred", ...), empty when absent.
  std::string_view type() const;
};

/// A directive statement kept as a token list: `.loc 1 3 14`, `.pragma
/// "nounroll";`, `proto: .callprototype ...;`, `.branchtargets L1, L2;`.
struct Directive final : Stmt {
  Directive() : Stmt(Kind::Directive) {}
  std::unique_ptr<Stmt> clone() const override { return std::make_unique<Directive>(*this); }
  std::string_view name;                 // ".loc"
  std::vector<std::string_view> tokens;  // operands as tokens
  bool semicolon = false;
};

/// `{ ... }`: a function body or a nested scope.
struct Block final : Stmt {
  Block() : Stmt(Kind::Block) {}
  Block(const Block &o);
  std::unique_ptr<Stmt> clone() const override { return std::make_unique<Block>(*this); }
  std::vector<std::unique_ptr<Stmt>> body;
  Span open, close;  // the '{' and '}' tokens with their trivia
};

// ---------------------------------------------------------------- top level

struct Function {
  Function() = default;
  Function(const Function &o);
  Span span;
  bool edited = false;  // header changed (name, params, attributes)
  std::vector<std::string_view> attrs;  // ".visible", ".extern", ".weak"
  bool isEntry = false;
  std::string_view name;
  std::optional<std::vector<Decl>> returns;  // (.param .b32 func_retval0)
  std::optional<std::vector<Decl>> params;   // absent: no parentheses at all
  std::vector<Directive> perf;               // .maxntid 256, 1, 1
  std::unique_ptr<Block> body;               // null for a declaration

  bool isDeclaration() const { return !body; }
  const Directive *perfDirective(std::string_view name) const;
  /// Whether `name` is one of its parameters (not a return parameter).
  bool hasParam(std::string_view name) const;
};

/// `.section .debug_info { label: .b8 1, 2 ... }`
struct Section {
  Span span;
  std::string_view name;
  struct Entry {
    std::string_view label;      // set for `label:`
    std::string_view directive;  // ".b8" otherwise
    std::string_view valueText;  // "95,90, 51" as written
    /// The comma-separated values with whitespace removed.
    std::vector<std::string> values() const;
  };
  std::vector<Entry> entries;
};

struct Item {
  enum class Kind : uint8_t { Directive, Decl, Function, Section };
  Kind kind;
  Span span;
  bool edited = false;
  // Exactly one of these is set, according to kind.
  std::unique_ptr<Directive> directive;  // .version .target .address_size .file .alias .pragma
  std::unique_ptr<Decl> decl;
  std::unique_ptr<Function> function;
  std::unique_ptr<Section> section;
};

class Module {
public:
  Module(std::string source, std::string fileName);
  ~Module();
  Module(const Module &) = delete;
  Module &operator=(const Module &) = delete;

  const std::string &source() const { return source_; }
  const std::string &fileName() const { return fileName_; }
  /// Line numbers of the source text, built on first use (the source never
  /// changes; remarks and the verifier ask for it once per clone).
  const LineTable &lines() const;
  /// The `.file` table: number -> path as written (without quotes). One
  /// rule for every reader (the reports, the source locations): a number
  /// given twice keeps its first path; an entry whose path is not a quoted
  /// string is ignored. Built on first use, again if items were added.
  const std::map<uint32_t, std::string_view> &files() const;
  /// Copies `s` into the module's string pool and returns a stable view.
  std::string_view intern(std::string_view s);

  std::vector<Item> items;
  /// Where the trivia after the last item starts.
  uint32_t trailingLead = 0;
  /// Text printed after everything else (the manifest comment of an
  /// optimized module); empty for a parsed module.
  std::string trailer;

  Function *findFunction(std::string_view name);
  std::vector<Function *> functions();
  std::vector<Function *> kernels();
  /// Index in `items` of the item holding `f`, or -1.
  int itemIndex(const Function *f) const;
  /// Inserts a new function item right after the item at `index`.
  Function &insertFunctionAfter(int index, std::unique_ptr<Function> f);
  /// Appends a module-level declaration (printed from the IR).
  void appendDecl(std::unique_ptr<Decl> d);
  /// Removes the function item holding `f`.
  void eraseFunction(const Function *f);
  /// The `.target` directive's tokens ("sm_90", "debug"), empty if none.
  std::vector<std::string_view> target() const;

private:
  std::string source_;
  std::string fileName_;
  std::deque<std::string> pool_;
  mutable std::unique_ptr<LineTable> lines_;
  mutable std::map<uint32_t, std::string_view> files_;
  mutable size_t filesItems_ = SIZE_MAX;  // items.size() when files_ was built
};

// ---------------------------------------------------------------- helpers

/// Calls f(Stmt&) for every statement in `b`, descending into nested blocks
/// (pre-order: a Block is visited before its contents).
template <typename F> void forEachStmt(Block &b, F &&f) {
  for (auto &s : b.body) {
    f(*s);
    if (s->kind == Stmt::Kind::Block) forEachStmt(static_cast<Block &>(*s), f);
  }
}
template <typename F> void forEachStmt(const Block &b, F &&f) {
  for (const auto &s : b.body) {
    f(static_cast<const Stmt &>(*s));
    if (s->kind == Stmt::Kind::Block) forEachStmt(static_cast<const Block &>(*s), f);
  }
}

/// Deep copy of `f` named `newName` with every label renamed by appending
/// `labelSuffix` (labels of a clone must not collide with the original's,
/// which debug sections may reference). The copy has no source spans, so
/// the printer prints it from the IR.
std::unique_ptr<Function> cloneFunction(const Function &f, std::string_view newName,
                                        std::string_view labelSuffix, Module &m);

/// Marks a node and its contents as synthesized (no source text).
void clearSpans(Block &b);

}  // namespace ptxopt::ir
