// PTX lexer: the specification of PTX tokens. The parser reads tokens from
// src/parser/Lexer.cpp, a hand-written scanner that implements exactly these
// rules 8-9x faster than ANTLR's generated C++ lexer; the test
// `lexer-equivalence` checks that both give the same tokens on the corpus.
// Coarse tokens on purpose: an opcode with all its modifiers
// ("ld.global.nc.v4.u32", "cp.async.bulk.shared::cluster.global") is ONE token
// (OPCODE-like IDENT); the IR splits it. Whitespace and comments are skipped:
// the lossless printer takes trivia from the source text between statement spans.
lexer grammar PtxLexer;

// Directive keywords the parser needs to see. Everything else that starts
// with '.' is a DIRECTIVE (types, state spaces, attributes, unknown ones).
VERSION        : '.version' ;
TARGET         : '.target' ;
ADDRESS_SIZE   : '.address_size' ;
FILE           : '.file' ;
SECTION        : '.section' -> pushMode(SECTION_HEAD) ;
// A whole `.loc 1 3 14, function_name $L__info_string0, inlined_at 1 7 3`
// line is one token: lineinfo PTX has one before most instructions.
LOC            : '.loc' ( [ \t]+ LOC_CHAR+ )? ;
ENTRY          : '.entry' ;
FUNC           : '.func' ;
PARAM          : '.param' ;
REG            : '.reg' ;
PRAGMA         : '.pragma' ;
ALIAS          : '.alias' ;
CALLPROTOTYPE  : '.callprototype' ;
BRANCHTARGETS  : '.branchtargets' ;
CALLTARGETS    : '.calltargets' ;

DIRECTIVE      : '.' ID_START ID_CHAR* ( '::' ID_CHAR+ )* ;

// Registers, including special registers with a component (%tid.x).
REGISTER       : '%' ID_CHAR+ ( '.' ID_CHAR+ )? ;

// Identifiers and opcodes with their modifiers.
IDENT          : ID_START ID_CHAR* ( '.' ID_CHAR+ ( '::' ID_CHAR+ )* )* ;

HEXFLOAT       : '0' [fFdD] HEX+ ;
FLOAT          : DIGIT+ '.' DIGIT* EXPONENT? | DIGIT+ EXPONENT ;
INT            : '0' [xX] HEX+ 'U'? | '0' [bB] [01]+ 'U'? | DIGIT+ 'U'? ;
STRING         : '"' ( ~["\\\r\n] | '\\' . )* '"' ;

LBRACE : '{' ;  RBRACE : '}' ;
LPAREN : '(' ;  RPAREN : ')' ;
LBRACK : '[' ;  RBRACK : ']' ;
LANGLE : '<' ;  RANGLE : '>' ;
COMMA  : ',' ;  SEMI   : ';' ;
COLON  : ':' ;  AT     : '@' ;
BANG   : '!' ;  PIPE   : '|' ;
PLUS   : '+' ;  MINUS  : '-' ;
EQUAL  : '=' ;  STAR   : '*' ;

WS             : [ \t\r\n\f\u000B]+ -> skip ;
LINE_COMMENT   : '//' ~[\r\n]* -> skip ;
BLOCK_COMMENT  : '/*' .*? '*/' -> skip ;
// An unterminated block comment swallows the rest of the file; the parser
// reports it instead of silently accepting the file.
OPEN_COMMENT   : '/*' ( ~'*' | '*'+ ~[*/] )* '*'* EOF ;

// Anything else becomes one token, so the parser reports it with a position.
ERRCHAR        : . ;

// Debug sections (.section .debug_info { ... }) are most of the text of
// -G / -lineinfo PTX. Their body is lexed in a mode of its own where a label
// or a whole data line (".b8 95,90,51") is one token: ten times fewer tokens
// for the bulk of such files.
mode SECTION_HEAD;
SH_WS          : [ \t\r\n\f\u000B]+ -> skip ;
SH_COMMENT     : '//' ~[\r\n]* -> skip ;
SECTION_NAME   : [.a-zA-Z_$] [a-zA-Z0-9_$.]* ;
SH_LBRACE      : '{' -> type(LBRACE), mode(SECTION_BODY) ;
SH_ERR         : . -> type(ERRCHAR), popMode ;

mode SECTION_BODY;
SB_WS          : [ \t\r\n\f\u000B]+ -> skip ;
SB_COMMENT     : '//' ~[\r\n]* -> skip ;
SB_BCOMMENT    : '/*' .*? '*/' -> skip ;
SECTION_LABEL  : ID_START ID_CHAR* [ \t]* ':' ;
SECTION_DATA   : '.' ID_START ID_CHAR* ( [ \t]+ DATA_CHAR+ )? ;
SB_RBRACE      : '}' -> type(RBRACE), popMode ;
SB_ERR         : . -> type(ERRCHAR) ;

fragment DATA_CHAR : [a-zA-Z0-9_$.,+\- \t] ;
fragment LOC_CHAR  : [a-zA-Z0-9_$.,+\- \t] ;
fragment ID_START : [a-zA-Z_$] ;
fragment ID_CHAR  : [a-zA-Z0-9_$] ;
fragment DIGIT    : [0-9] ;
fragment HEX      : [0-9a-fA-F] ;
fragment EXPONENT : [eE] [+-]? DIGIT+ ;
