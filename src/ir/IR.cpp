// IR helpers: operand values, opcode modifiers, module queries, deep clone.
#include "ptxopt/ir/IR.h"

#include "ptxopt/support/Diagnostics.h"

#include <algorithm>
#include <charconv>
#include <unordered_set>

namespace ptxopt::ir {

std::optional<int64_t> Operand::intValue() const {
  if (kind != Kind::Immediate || text.empty()) return std::nullopt;
  std::string_view t = text;
  bool neg = false;
  if (t.front() == '-') { neg = true; t.remove_prefix(1); }
  if (!t.empty() && t.back() == 'U') t.remove_suffix(1);
  if (t.empty()) return std::nullopt;
  int base = 10;
  if (t.size() > 2 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X')) { base = 16; t.remove_prefix(2); }
  else if (t.size() > 2 && t[0] == '0' && (t[1] == 'b' || t[1] == 'B')) { base = 2; t.remove_prefix(2); }
  else if (t.size() > 1 && t[0] == '0') { base = 8; t.remove_prefix(1); }
  uint64_t v = 0;
  auto [p, ec] = std::from_chars(t.data(), t.data() + t.size(), v, base);
  if (ec != std::errc() || p != t.data() + t.size()) return std::nullopt;
  // PTX integer literals are 64-bit patterns (0xFFFFFFFFFFFFFFFF is -1); a
  // negated one must fit: below -2^63 is not a 64-bit value.
  if (neg) {
    if (v > static_cast<uint64_t>(INT64_MAX) + 1) return std::nullopt;
    return v == static_cast<uint64_t>(INT64_MAX) + 1 ? INT64_MIN : -static_cast<int64_t>(v);
  }
  return static_cast<int64_t>(v);
}

std::vector<std::string_view> Instruction::modifiers() const {
  std::vector<std::string_view> out;
  size_t pos = opcode.find('.');
  if (pos == std::string_view::npos) return out;
  out.reserve(static_cast<size_t>(std::count(opcode.begin() + pos, opcode.end(), '.')));  // one allocation
  anyModifier([&](std::string_view m) {
    out.push_back(m);
    return false;
  });
  return out;
}

bool Instruction::hasModifier(std::string_view m) const {
  // The analyses ask this per instruction and modifier: no vector.
  return anyModifier([&](std::string_view x) { return x == m; });
}

static bool isSpace(std::string_view a) {
  return a == ".reg" || a == ".param" || a == ".shared" || a == ".global" || a == ".local" ||
         a == ".const" || a == ".tex" || a.substr(0, 8) == ".shared:";
}

std::string_view Decl::space() const {
  for (auto a : attrs)
    if (isSpace(a)) return a;
  return {};
}

bool Decl::hasAttr(std::string_view a) const {
  for (auto x : attrs)
    if (x == a) return true;
  return false;
}

uint32_t Decl::align() const {
  for (size_t i = 0; i + 1 < attrs.size(); ++i)
    if (attrs[i] == ".align") {
      Operand o = Operand::imm(attrs[i + 1]);
      if (auto v = o.intValue()) return static_cast<uint32_t>(*v);
    }
  return 0;
}

std::string_view Decl::type() const {
  static const char *types[] = {".b8", ".b16", ".b32", ".b64", ".b128", ".u8", ".u16", ".u32",
                                ".u64", ".s8", ".s16", ".s32", ".s64", ".f16", ".f16x2", ".f32",
                                ".f64", ".bf16", ".bf16x2", ".pred", ".e4m3", ".e5m2", ".texref",
                                ".samplerref", ".surfref", ".tf32"};
  for (auto a : attrs)
    for (auto t : types)
      if (a == t) return a;
  return {};
}

std::vector<std::string> Section::Entry::values() const {
  std::vector<std::string> out(1);
  for (char c : valueText) {
    if (c == ',') out.emplace_back();
    else if (c != ' ' && c != '\t') out.back() += c;
  }
  if (out.size() == 1 && out[0].empty()) out.clear();
  return out;
}

Block::Block(const Block &o) : Stmt(Kind::Block) {
  span = o.span;
  edited = o.edited;
  open = o.open;
  close = o.close;
  body.reserve(o.body.size());
  for (const auto &s : o.body) body.push_back(s->clone());
}

Function::Function(const Function &o)
    : span(o.span), edited(o.edited), attrs(o.attrs), isEntry(o.isEntry), name(o.name),
      returns(o.returns), params(o.params), perf(o.perf),
      body(o.body ? std::make_unique<Block>(*o.body) : nullptr) {}

const Directive *Function::perfDirective(std::string_view n) const {
  for (const auto &d : perf)
    if (d.name == n) return &d;
  return nullptr;
}

bool Function::hasParam(std::string_view n) const {
  if (params)
    for (const auto &d : *params)
      for (const auto &x : d.names)
        if (x.name == n) return true;
  return false;
}

Module::Module(std::string source, std::string fileName)
    : source_(std::move(source)), fileName_(std::move(fileName)) {}

Module::~Module() = default;

const LineTable &Module::lines() const {
  if (!lines_) lines_ = std::make_unique<LineTable>(source_);
  return *lines_;
}

const std::map<uint32_t, std::string_view> &Module::files() const {
  if (filesItems_ == items.size()) return files_;
  filesItems_ = items.size();
  files_.clear();
  for (const auto &it : items) {
    if (it.kind != Item::Kind::Directive || it.directive->name != ".file") continue;
    const auto &t = it.directive->tokens;
    if (t.size() < 2 || t[1].size() < 2 || t[1].front() != '"' || t[1].back() != '"') continue;
    auto n = Operand::imm(t[0]).intValue();
    if (!n || *n < 0 || *n > UINT32_MAX) continue;
    files_.emplace(static_cast<uint32_t>(*n), t[1].substr(1, t[1].size() - 2));  // the first one stays
  }
  return files_;
}

std::string_view Module::intern(std::string_view s) {
  pool_.emplace_back(s);
  return pool_.back();
}

Function *Module::findFunction(std::string_view name) {
  for (auto &it : items)
    if (it.kind == Item::Kind::Function && it.function->name == name && it.function->body)
      return it.function.get();
  for (auto &it : items)
    if (it.kind == Item::Kind::Function && it.function->name == name) return it.function.get();
  return nullptr;
}

std::vector<Function *> Module::functions() {
  std::vector<Function *> out;
  for (auto &it : items)
    if (it.kind == Item::Kind::Function) out.push_back(it.function.get());
  return out;
}

std::vector<Function *> Module::kernels() {
  std::vector<Function *> out;
  for (auto &it : items)
    if (it.kind == Item::Kind::Function && it.function->isEntry && it.function->body)
      out.push_back(it.function.get());
  return out;
}

int Module::itemIndex(const Function *f) const {
  for (size_t i = 0; i < items.size(); ++i)
    if (items[i].function.get() == f) return static_cast<int>(i);
  return -1;
}

Function &Module::insertFunctionAfter(int index, std::unique_ptr<Function> f) {
  Item it;
  it.kind = Item::Kind::Function;
  it.function = std::move(f);
  auto pos = items.begin() + (index < 0 ? static_cast<long>(items.size()) : index + 1);
  return *items.insert(pos, std::move(it))->function;
}

void Module::appendDecl(std::unique_ptr<Decl> d) {
  Item it;
  it.kind = Item::Kind::Decl;
  it.decl = std::move(d);
  items.push_back(std::move(it));
}

void Module::eraseFunction(const Function *f) {
  int i = itemIndex(f);
  if (i >= 0) items.erase(items.begin() + i);
}

std::vector<std::string_view> Module::target() const {
  for (const auto &it : items)
    if (it.kind == Item::Kind::Directive && it.directive->name == ".target") {
      std::vector<std::string_view> out;
      for (auto t : it.directive->tokens)
        if (t != ",") out.push_back(t);
      return out;
    }
  return {};
}

// ---------------------------------------------------------------- cloning

void clearSpans(Block &b) {
  b.span = {};
  b.open = {};
  b.close = {};
  for (auto &s : b.body) {
    s->span = {};
    if (s->kind == Stmt::Kind::Block) clearSpans(static_cast<Block &>(*s));
  }
}

namespace {
struct LabelRenamer {
  const std::unordered_set<std::string_view> &labels;
  std::string_view suffix;
  Module &m;

  std::string_view rename(std::string_view n) {
    if (!labels.count(n)) return n;
    std::string s(n);
    s += suffix;
    return m.intern(s);
  }
  void operand(Operand &o) {
    if (o.kind == Operand::Kind::Symbol) o.text = rename(o.text);
    for (auto &e : o.elems) operand(e);
  }
  void block(Block &b) {
    for (auto &s : b.body) {
      switch (s->kind) {
      case Stmt::Kind::Label: {
        auto &l = static_cast<Label &>(*s);
        l.name = rename(l.name);
        break;
      }
      case Stmt::Kind::Instruction:
        for (auto &o : static_cast<Instruction &>(*s).operands) operand(o);
        break;
      case Stmt::Kind::Directive: {
        auto &d = static_cast<Directive &>(*s);
        if (d.name == ".loc") break;  // its names point into .debug_str
        for (auto &t : d.tokens) t = rename(t);
        break;
      }
      case Stmt::Kind::Block: block(static_cast<Block &>(*s)); break;
      case Stmt::Kind::Decl: break;
      }
    }
  }
};
}  // namespace

std::unique_ptr<Function> cloneFunction(const Function &f, std::string_view newName,
                                        std::string_view labelSuffix, Module &m) {
  auto c = std::make_unique<Function>(f);
  c->span = {};
  c->edited = true;
  c->name = m.intern(newName);
  // A clone is never the "one visible definition" of an extern symbol.
  if (c->body) {
    clearSpans(*c->body);
    std::unordered_set<std::string_view> labels;
    forEachStmt(*c->body, [&](const Stmt &s) {
      if (s.kind == Stmt::Kind::Label) labels.insert(static_cast<const Label &>(s).name);
    });
    LabelRenamer r{labels, labelSuffix, m};
    r.block(*c->body);
  }
  return c;
}

}  // namespace ptxopt::ir
