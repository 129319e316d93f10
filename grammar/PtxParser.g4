// PTX parser: a flat grammar. One generic instruction rule (guard, opcode
// token with its modifiers, operands) instead of one rule per opcode, so
// unknown instructions and modifiers parse. The driver calls `item` once per
// top-level construct (see src/parser/Parser.cpp), which keeps only one item's
// tokens and parse tree alive at a time and lets it use SLL prediction first,
// falling back to full LL only for an item where SLL fails.
parser grammar PtxParser;
options { tokenVocab = PtxLexer; }

item
    : VERSION (FLOAT | INT)                                   # versionItem
    | TARGET IDENT (COMMA IDENT)*                             # targetItem
    | ADDRESS_SIZE INT                                        # addressSizeItem
    | FILE INT STRING (COMMA INT (COMMA INT)?)?               # fileItem
    | SECTION SECTION_NAME LBRACE sectionEntry* RBRACE        # sectionItem
    | ALIAS IDENT COMMA IDENT SEMI                            # aliasItem
    | PRAGMA STRING (COMMA STRING)* SEMI                      # pragmaItem
    | function                                                # functionItem
    | decl SEMI                                               # declItem
    | EOF                                                     # eofItem
    ;

// One token per label ("name:") or data line (".b8 1,2,3"); see the lexer.
sectionEntry : SECTION_LABEL | SECTION_DATA ;

dataValue : MINUS? dataTerm ((PLUS | MINUS) dataTerm)* ;
dataTerm  : INT | IDENT | DIRECTIVE | HEXFLOAT | FLOAT ;

// ---- functions -----------------------------------------------------------

function
    : attr* (ENTRY | FUNC) returnParams? IDENT paramList? perfDirective* (block | SEMI)
    ;
returnParams : LPAREN paramDecl (COMMA paramDecl)* RPAREN ;
paramList    : LPAREN (paramDecl (COMMA paramDecl)*)? RPAREN ;
paramDecl    : (PARAM | REG) attr* declarator ;
perfDirective: DIRECTIVE (INT (COMMA INT)*)? | PRAGMA STRING (COMMA STRING)* SEMI ;

// .align 4   .b32   .attribute(.managed)   .v4   .ptr
attr : DIRECTIVE (INT | LPAREN DIRECTIVE (COMMA DIRECTIVE)* RPAREN)? ;

// ---- declarations: .reg/.param/.local/.shared/.global/.const ... ----------

decl       : (REG | PARAM | attr) attr* declarator (COMMA declarator)* (EQUAL init)? ;
declarator : (IDENT | REGISTER) (LANGLE INT RANGLE)? (LBRACK INT? RBRACK)* ;
init       : LBRACE init (COMMA init)* RBRACE
           | IDENT LPAREN init RPAREN ((PLUS | MINUS) INT)?
           | IDENT EQUAL IDENT
           | dataValue
           ;

// ---- function bodies -----------------------------------------------------

block : LBRACE stmt* RBRACE ;

stmt
    : block                                                   # blockStmt
    | IDENT COLON                                             # labelStmt
    | LOC                                                     # locStmt
    | PRAGMA STRING (COMMA STRING)* SEMI                      # pragmaStmt
    | CALLPROTOTYPE protoParams? IDENT protoParams? SEMI      # protoStmt
    | (BRANCHTARGETS | CALLTARGETS) IDENT (COMMA IDENT)* SEMI # targetsStmt
    | decl SEMI                                               # declStmt
    | instruction                                             # instrStmt
    ;
protoParams : LPAREN (paramDecl (COMMA paramDecl)*)? RPAREN ;

instruction : guard? IDENT (operand (COMMA operand)*)? SEMI ;
guard       : AT BANG? (REGISTER | IDENT) ;

operand
    : BANG operand                                            # notOperand
    | primary (PIPE primary)*                                 # primaryOperand
    ;
primary
    : REGISTER                                                # regOperand
    | IDENT                                                   # symOperand
    | MINUS? (INT | FLOAT | HEXFLOAT)                         # immOperand
    | LBRACE (operand (COMMA operand)*)? RBRACE               # vecOperand
    | LBRACK addrItem (COMMA addrItem)* RBRACK                # addrOperand
    | LPAREN (operand (COMMA operand)*)? RPAREN               # listOperand
    ;
addrItem : operand ((PLUS | MINUS) operand)? ;
