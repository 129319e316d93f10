// PTX parser driver: scanner and ANTLR parser (or the fast path) -> IR.
//
// Speed and memory: the generated parser is called once per top-level item
// (a function, a variable, a directive, a debug section). A small token
// stream (ItemTokenStream) pulls tokens from the lexer on demand and drops
// the tokens of each finished item, and the parse tree of each item is freed
// as soon as its IR is built, so memory stays proportional to the largest
// item, not to the file. Each item is parsed with SLL prediction and the
// bail-out error strategy first; only if that fails is it re-parsed with full
// LL prediction and error reporting (the standard two-stage ANTLR strategy).
//
// Characters are read through ByteCharStream, a view of the source bytes
// (ANTLR's own input stream would copy the file into UTF-32, 4x its size).
//
// The steps live in their own files: the token streams in
// ItemTokenStream.h, the fast path in FastItem.cpp, the IR builder in
// ItemBuilder.cpp; here the loop over items and the error messages.
#include "ptxopt/parser/Parser.h"

#include <cstdio>
#include <memory>
#include <unordered_set>

#include "ItemTokenStream.h"
#include "PtxParser.h"

namespace ptxopt {
namespace {

using namespace antlr4;
using grammar::PtxLexer;
using grammar::PtxParser;
using parse::ItemTokenStream;
using parse::kMaxNesting;
using parse::NestingTooDeep;

// ------------------------------------------------------------ errors

struct SyntaxError {
  size_t offset;
  std::string message;
};

class ThrowingErrorListener final : public BaseErrorListener {
public:
  explicit ThrowingErrorListener(std::string_view text) : text_(text) {}
  void syntaxError(Recognizer *, Token *tok, size_t, size_t, const std::string &msg,
                   std::exception_ptr) override {
    if (!tok) throw SyntaxError{0, msg};
    throw SyntaxError{tok->getType() == Token::EOF ? text_.size() : tok->getStartIndex(),
                      friendly(tok, msg)};
  }

private:
  std::string friendly(Token *tok, const std::string &msg) const {
    auto expected = [&]() -> std::string {
      auto p = msg.find("expecting ");
      if (p == std::string::npos) return {};
      std::string e = msg.substr(p + 10);
      if (e.size() > 90) return {};
      return "; expected " + e;
    };
    switch (tok->getType()) {
    case Token::EOF: return "unexpected end of file" + expected();
    case PtxLexer::OPEN_COMMENT: return "unterminated /* comment";
    case PtxLexer::ERRCHAR: {
      unsigned char c = static_cast<unsigned char>(text_[tok->getStartIndex()]);
      char buf[64];
      if (c >= 0x20 && c < 0x7f) snprintf(buf, sizeof buf, "unexpected character '%c'", c);
      else snprintf(buf, sizeof buf, "unexpected byte 0x%02x (not PTX text)", c);
      return buf;
    }
    default: break;
    }
    std::string t(text_.substr(tok->getStartIndex(),
                               std::min<size_t>(40, tok->getStopIndex() + 1 - tok->getStartIndex())));
    if (tok->getType() == PtxLexer::STRING && t.size() >= 40) t += "...";
    return "unexpected '" + t + "'" + expected();
  }
  std::string_view text_;
};

ir::Item::Kind itemKind(PtxParser::ItemContext *c) {
  if (dynamic_cast<PtxParser::FunctionItemContext *>(c)) return ir::Item::Kind::Function;
  if (dynamic_cast<PtxParser::DeclItemContext *>(c)) return ir::Item::Kind::Decl;
  if (dynamic_cast<PtxParser::SectionItemContext *>(c)) return ir::Item::Kind::Section;
  return ir::Item::Kind::Directive;
}

/// A top-level item starts with a keyword token or with one of these
/// directives; anything else is reported as an unknown directive (the grammar
/// alone would take it for a variable attribute and complain later).
void checkItemStart(Token *t, std::string_view src) {
  if (t->getType() != PtxLexer::DIRECTIVE) return;
  static const std::unordered_set<std::string_view> starters = {
      ".visible", ".extern", ".weak", ".common", ".global", ".const", ".shared", ".local",
      ".tex", ".attribute"};
  std::string_view d = src.substr(t->getStartIndex(), t->getStopIndex() + 1 - t->getStartIndex());
  if (starters.count(d) || d.substr(0, 8) == ".shared:") return;
  throw SyntaxError{t->getStartIndex(), "unknown directive '" + std::string(d) + "' at module level"};
}

}  // namespace

ParseResult parsePtx(std::string source, std::string fileName, bool fastPath) {
  ParseResult r;
  auto mod = std::make_unique<ir::Module>(std::move(source), fileName);
  const std::string &src = mod->source();

  parse::ByteCharStream chars(src, fileName);
  PtxScanner lexer(src, &chars, fileName);
  ItemTokenStream tokens(lexer, chars, src);
  PtxParser parser(&tokens);
  parser.removeErrorListeners();
  parser.setBuildParseTree(false);
  ThrowingErrorListener listener(src);
  auto bail = std::make_shared<BailErrorStrategy>();
  auto full = std::make_shared<DefaultErrorStrategy>();
  parse::ItemBuilder builder(*mod, tokens);

  try {
    while (true) {
      size_t start = tokens.index();
      if (tokens.LA(1) == Token::EOF) break;
      checkItemStart(tokens.LT(1), src);
      ir::Item::Kind kind;
      size_t end;
      if (fastPath && parse::recognizeItem(tokens, start, kind, end)) {
        tokens.seek(end);
        builder.item(kind, start, end);
        ++r.stats.items;
        ++r.stats.fastItems;
        tokens.discardConsumed();
        continue;
      }
      PtxParser::ItemContext *item = nullptr;
      parser.setErrorHandler(bail);
      parser.getInterpreter<atn::ParserATNSimulator>()->setPredictionMode(atn::PredictionMode::SLL);
      try {
        item = parser.item();
      } catch (ParseCancellationException &) {
        ++r.stats.llFallbacks;
        tokens.seek(start);
        parser.getTreeTracker().reset();
        parser.setErrorHandler(full);
        parser.addErrorListener(&listener);
        parser.getInterpreter<atn::ParserATNSimulator>()->setPredictionMode(atn::PredictionMode::LL);
        item = parser.item();
        parser.removeErrorListeners();
      }
      builder.item(itemKind(item), item->start->getTokenIndex(), item->stop->getTokenIndex() + 1);
      ++r.stats.items;
      parser.getTreeTracker().reset();
      tokens.discardConsumed();
    }
  } catch (SyntaxError &e) {
    r.error = makeDiagnostic(Severity::Error, fileName, src, static_cast<uint32_t>(e.offset), e.message);
    return r;
  } catch (NestingTooDeep &e) {
    r.error = makeDiagnostic(Severity::Error, fileName, src, static_cast<uint32_t>(e.offset),
                             std::string(e.bangs ? "'!' operators" : "braces, brackets or parentheses") +
                                 " nested deeper than " + std::to_string(kMaxNesting) + " levels");
    return r;
  } catch (RecognitionException &e) {
    Token *t = e.getOffendingToken();
    r.error = makeDiagnostic(Severity::Error, fileName, src, t ? static_cast<uint32_t>(t->getStartIndex()) : 0,
                             "syntax error");
    return r;
  }
  // PTX requires .version as the first directive of a module.
  if (mod->items.empty() || mod->items[0].kind != ir::Item::Kind::Directive ||
      mod->items[0].directive->name != ".version") {
    uint32_t at = mod->items.empty() ? 0 : mod->items[0].span.begin;
    r.error = makeDiagnostic(Severity::Error, fileName, src, at,
                             mod->items.empty() ? "empty module: PTX starts with a .version directive"
                                                : "a PTX module must start with a .version directive");
    return r;
  }
  mod->trailingLead = tokens.leadOf(tokens.index());
  r.stats.tokens = tokens.fetched();
  r.module = std::move(mod);
  return r;
}

}  // namespace ptxopt
