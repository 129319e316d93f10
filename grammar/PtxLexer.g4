// PTX lexer. Coarse tokens on purpose: an opcode with all its modifiers
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
SECTION        : '.section' ;
LOC            : '.loc' ;
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

fragment ID_START : [a-zA-Z_$] ;
fragment ID_CHAR  : [a-zA-Z0-9_$] ;
fragment DIGIT    : [0-9] ;
fragment HEX      : [0-9a-fA-F] ;
fragment EXPONENT : [eE] [+-]? DIGIT+ ;
