// The parser's fast path: one top-level item recognized without ANTLR
// (FastItem, below, says why that is the grammar's own decision); the
// driver (Parser.cpp) falls back to ANTLR where it says no.
#include <cstdint>

#include "ItemTokenStream.h"

namespace ptxopt::parse {
namespace {

// ------------------------------------------------------------ fast path

/// Recognizes one item of PtxParser.g4 without ANTLR: a recursive-descent
/// transliteration of the grammar, rule for rule. Every decision in the
/// grammar is LL(1), except three that this code decides as ANTLR's
/// prediction does: `stmt` on IDENT (a label when COLON follows), `init` on
/// IDENT (LPAREN, EQUAL or neither follows), and `item` on DIRECTIVE (after
/// the attributes, ENTRY or FUNC makes it a function, else a declaration).
/// Each optional part and loop below is entered exactly when the next token
/// is in its FIRST set; the grammar's FOLLOW sets never overlap those FIRST
/// sets, so that is the choice ANTLR makes too. So when this accepts an item,
/// the grammar accepts the same tokens as the same item kind; when it does
/// not (any unexpected token), the item is parsed again by ANTLR, which
/// accepts it or reports the error. It looks no further ahead than ANTLR
/// does (two tokens at most). `parser-equivalence` checks it against ANTLR
/// on every corpus file and on mutated ones.
class FastItem {
public:
  explicit FastItem(ItemTokenStream &ts) : ts_(ts) {}

  /// True when the item at token `start` is recognized; sets its kind and
  /// the index one past its last token.
  bool run(size_t start, ir::Item::Kind &kind, size_t &end) {
    p_ = start;
    cachedAt_ = SIZE_MAX;
    bool ok = false;
    switch (la()) {
    case PtxLexer::VERSION: ++p_; ok = eat(PtxLexer::FLOAT) || eat(PtxLexer::INT); kind = ir::Item::Kind::Directive; break;
    case PtxLexer::TARGET:
      ++p_;
      ok = eat(PtxLexer::IDENT);
      while (ok && eat(PtxLexer::COMMA)) ok = eat(PtxLexer::IDENT);
      kind = ir::Item::Kind::Directive;
      break;
    case PtxLexer::ADDRESS_SIZE: ++p_; ok = eat(PtxLexer::INT); kind = ir::Item::Kind::Directive; break;
    case PtxLexer::FILE:
      ++p_;
      ok = eat(PtxLexer::INT) && eat(PtxLexer::STRING);
      if (ok && eat(PtxLexer::COMMA)) {
        ok = eat(PtxLexer::INT);
        if (ok && eat(PtxLexer::COMMA)) ok = eat(PtxLexer::INT);
      }
      kind = ir::Item::Kind::Directive;
      break;
    case PtxLexer::SECTION:
      ++p_;
      ok = eat(PtxLexer::SECTION_NAME) && eat(PtxLexer::LBRACE);
      while (ok && (la() == PtxLexer::SECTION_LABEL || la() == PtxLexer::SECTION_DATA)) ++p_;
      ok = ok && eat(PtxLexer::RBRACE);
      kind = ir::Item::Kind::Section;
      break;
    case PtxLexer::ALIAS:
      ++p_;
      ok = eat(PtxLexer::IDENT) && eat(PtxLexer::COMMA) && eat(PtxLexer::IDENT) && eat(PtxLexer::SEMI);
      kind = ir::Item::Kind::Directive;
      break;
    case PtxLexer::PRAGMA: ok = pragma(); kind = ir::Item::Kind::Directive; break;
    case PtxLexer::ENTRY: case PtxLexer::FUNC: ok = function(); kind = ir::Item::Kind::Function; break;
    case PtxLexer::REG: case PtxLexer::PARAM: ok = decl() && eat(PtxLexer::SEMI); kind = ir::Item::Kind::Decl; break;
    case PtxLexer::DIRECTIVE: {
      // function: attr* (ENTRY | FUNC) ...   decl: attr attr* declarator ...
      ok = attrs();
      if (!ok) break;
      if (la() == PtxLexer::ENTRY || la() == PtxLexer::FUNC) {
        ok = function();
        kind = ir::Item::Kind::Function;
      } else {
        ok = declRest() && eat(PtxLexer::SEMI);
        kind = ir::Item::Kind::Decl;
      }
      break;
    }
    default: break;
    }
    end = p_;
    return ok;
  }

private:
  size_t la() {
    if (cachedAt_ != p_) {
      cachedAt_ = p_;
      cached_ = ts_.typeAt(p_);
    }
    return cached_;
  }
  size_t la2() { return ts_.typeAt(p_ + 1); }
  bool eat(size_t t) {
    if (la() != t) return false;
    ++p_;
    return true;
  }

  // PRAGMA STRING (COMMA STRING)* SEMI
  bool pragma() {
    ++p_;
    if (!eat(PtxLexer::STRING)) return false;
    while (eat(PtxLexer::COMMA))
      if (!eat(PtxLexer::STRING)) return false;
    return eat(PtxLexer::SEMI);
  }

  // attr : DIRECTIVE (INT | LPAREN DIRECTIVE (COMMA DIRECTIVE)* RPAREN)?
  bool attr() {
    ++p_;  // DIRECTIVE
    if (eat(PtxLexer::INT)) return true;
    if (!eat(PtxLexer::LPAREN)) return true;
    if (!eat(PtxLexer::DIRECTIVE)) return false;
    while (eat(PtxLexer::COMMA))
      if (!eat(PtxLexer::DIRECTIVE)) return false;
    return eat(PtxLexer::RPAREN);
  }
  bool attrs() {
    while (la() == PtxLexer::DIRECTIVE)
      if (!attr()) return false;
    return true;
  }

  // declarator : (IDENT | REGISTER) (LANGLE INT RANGLE)? (LBRACK INT? RBRACK)*
  bool declarator() {
    if (!eat(PtxLexer::IDENT) && !eat(PtxLexer::REGISTER)) return false;
    if (eat(PtxLexer::LANGLE) && !(eat(PtxLexer::INT) && eat(PtxLexer::RANGLE))) return false;
    while (eat(PtxLexer::LBRACK)) {
      eat(PtxLexer::INT);
      if (!eat(PtxLexer::RBRACK)) return false;
    }
    return true;
  }

  // decl : (REG | PARAM | attr) attr* declarator (COMMA declarator)* (EQUAL init)?
  bool decl() {
    if (la() == PtxLexer::REG || la() == PtxLexer::PARAM) ++p_;
    else if (la() != PtxLexer::DIRECTIVE || !attr()) return false;
    return attrs() && declRest();
  }
  /// decl after its attributes: declarator (COMMA declarator)* (EQUAL init)?
  bool declRest() {
    if (!declarator()) return false;
    while (eat(PtxLexer::COMMA))
      if (!declarator()) return false;
    if (eat(PtxLexer::EQUAL)) return init();
    return true;
  }

  // init : LBRACE init (COMMA init)* RBRACE | IDENT LPAREN init RPAREN ((PLUS | MINUS) INT)?
  //      | IDENT EQUAL IDENT | dataValue
  bool init() {
    if (eat(PtxLexer::LBRACE)) {
      if (!init()) return false;
      while (eat(PtxLexer::COMMA))
        if (!init()) return false;
      return eat(PtxLexer::RBRACE);
    }
    if (la() == PtxLexer::IDENT && la2() == PtxLexer::LPAREN) {
      p_ += 2;
      if (!init() || !eat(PtxLexer::RPAREN)) return false;
      if (eat(PtxLexer::PLUS) || eat(PtxLexer::MINUS)) return eat(PtxLexer::INT);
      return true;
    }
    if (la() == PtxLexer::IDENT && la2() == PtxLexer::EQUAL) {
      p_ += 2;
      return eat(PtxLexer::IDENT);
    }
    // dataValue : MINUS? dataTerm ((PLUS | MINUS) dataTerm)*
    eat(PtxLexer::MINUS);
    if (!dataTerm()) return false;
    while (eat(PtxLexer::PLUS) || eat(PtxLexer::MINUS))
      if (!dataTerm()) return false;
    return true;
  }
  // dataTerm : INT | IDENT | DIRECTIVE | HEXFLOAT | FLOAT
  bool dataTerm() {
    switch (la()) {
    case PtxLexer::INT: case PtxLexer::IDENT: case PtxLexer::DIRECTIVE: case PtxLexer::HEXFLOAT:
    case PtxLexer::FLOAT: ++p_; return true;
    default: return false;
    }
  }

  // paramDecl : (PARAM | REG) attr* declarator
  bool paramDecl() {
    if (!eat(PtxLexer::PARAM) && !eat(PtxLexer::REG)) return false;
    return attrs() && declarator();
  }
  /// LPAREN (paramDecl (COMMA paramDecl)*)? RPAREN, the empty list allowed
  /// or not (returnParams).
  bool params(bool allowEmpty) {
    ++p_;  // LPAREN
    if (allowEmpty && eat(PtxLexer::RPAREN)) return true;
    if (!paramDecl()) return false;
    while (eat(PtxLexer::COMMA))
      if (!paramDecl()) return false;
    return eat(PtxLexer::RPAREN);
  }

  // function : attr* (ENTRY | FUNC) returnParams? IDENT paramList? perfDirective* (block | SEMI)
  // (the attributes were read by the caller)
  bool function() {
    ++p_;  // ENTRY | FUNC
    if (la() == PtxLexer::LPAREN && !params(false)) return false;
    if (!eat(PtxLexer::IDENT)) return false;
    if (la() == PtxLexer::LPAREN && !params(true)) return false;
    // perfDirective : DIRECTIVE (INT (COMMA INT)*)? | PRAGMA STRING (COMMA STRING)* SEMI
    while (true) {
      if (eat(PtxLexer::DIRECTIVE)) {
        if (eat(PtxLexer::INT))
          while (eat(PtxLexer::COMMA))
            if (!eat(PtxLexer::INT)) return false;
      } else if (la() == PtxLexer::PRAGMA) {
        if (!pragma()) return false;
      } else {
        break;
      }
    }
    if (eat(PtxLexer::SEMI)) return true;
    return la() == PtxLexer::LBRACE && block();
  }

  // block : LBRACE stmt* RBRACE
  bool block() {
    ++p_;  // LBRACE
    while (!eat(PtxLexer::RBRACE))
      if (!stmt()) return false;
    return true;
  }

  bool stmt() {
    switch (la()) {
    case PtxLexer::LBRACE: return block();
    case PtxLexer::LOC: ++p_; return true;
    case PtxLexer::PRAGMA: return pragma();
    case PtxLexer::CALLPROTOTYPE:  // CALLPROTOTYPE protoParams? IDENT protoParams? SEMI
      ++p_;
      if (la() == PtxLexer::LPAREN && !params(true)) return false;
      if (!eat(PtxLexer::IDENT)) return false;
      if (la() == PtxLexer::LPAREN && !params(true)) return false;
      return eat(PtxLexer::SEMI);
    case PtxLexer::BRANCHTARGETS:
    case PtxLexer::CALLTARGETS:  // (BRANCHTARGETS | CALLTARGETS) IDENT (COMMA IDENT)* SEMI
      ++p_;
      if (!eat(PtxLexer::IDENT)) return false;
      while (eat(PtxLexer::COMMA))
        if (!eat(PtxLexer::IDENT)) return false;
      return eat(PtxLexer::SEMI);
    case PtxLexer::REG: case PtxLexer::PARAM: case PtxLexer::DIRECTIVE: return decl() && eat(PtxLexer::SEMI);
    case PtxLexer::IDENT:
      if (la2() == PtxLexer::COLON) {
        p_ += 2;
        return true;
      }
      return instruction();
    case PtxLexer::AT: return instruction();
    default: return false;
    }
  }

  // instruction : guard? IDENT (operand (COMMA operand)*)? SEMI
  // guard       : AT BANG? (REGISTER | IDENT)
  bool instruction() {
    if (eat(PtxLexer::AT)) {
      eat(PtxLexer::BANG);
      if (!eat(PtxLexer::REGISTER) && !eat(PtxLexer::IDENT)) return false;
    }
    if (!eat(PtxLexer::IDENT)) return false;
    if (eat(PtxLexer::SEMI)) return true;
    if (!operand()) return false;
    while (eat(PtxLexer::COMMA))
      if (!operand()) return false;
    return eat(PtxLexer::SEMI);
  }

  // operand : BANG operand | primary (PIPE primary)*
  bool operand() {
    if (eat(PtxLexer::BANG)) return operand();
    if (!primary()) return false;
    while (eat(PtxLexer::PIPE))
      if (!primary()) return false;
    return true;
  }
  /// (operand (COMMA operand)*)? close
  bool operandList(size_t close) {
    if (eat(close)) return true;
    if (!operand()) return false;
    while (eat(PtxLexer::COMMA))
      if (!operand()) return false;
    return eat(close);
  }
  // addrItem : operand ((PLUS | MINUS) operand)?
  bool addrItem() {
    if (!operand()) return false;
    if (eat(PtxLexer::PLUS) || eat(PtxLexer::MINUS)) return operand();
    return true;
  }
  bool primary() {
    switch (la()) {
    case PtxLexer::REGISTER: case PtxLexer::IDENT: case PtxLexer::INT: case PtxLexer::FLOAT:
    case PtxLexer::HEXFLOAT: ++p_; return true;
    case PtxLexer::MINUS:
      ++p_;
      return eat(PtxLexer::INT) || eat(PtxLexer::FLOAT) || eat(PtxLexer::HEXFLOAT);
    case PtxLexer::LBRACE: ++p_; return operandList(PtxLexer::RBRACE);
    case PtxLexer::LPAREN: ++p_; return operandList(PtxLexer::RPAREN);
    case PtxLexer::LBRACK:  // LBRACK addrItem (COMMA addrItem)* RBRACK
      ++p_;
      if (!addrItem()) return false;
      while (eat(PtxLexer::COMMA))
        if (!addrItem()) return false;
      return eat(PtxLexer::RBRACK);
    default: return false;
    }
  }

  ItemTokenStream &ts_;
  size_t p_ = 0;
  size_t cachedAt_ = SIZE_MAX, cached_ = 0;  // la() at token cachedAt_
};

}  // namespace

bool recognizeItem(ItemTokenStream &ts, size_t start, ir::Item::Kind &kind, size_t &end) {
  return FastItem(ts).run(start, kind, end);
}

}  // namespace ptxopt::parse
