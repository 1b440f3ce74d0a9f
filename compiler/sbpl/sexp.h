/* sexp.h - a small S-expression reader for SBPL (TinyScheme syntax).
 *
 * Why hand-written and not a second flex/bison grammar: SBPL is Scheme, and
 * the lexical level is all there is to it (lists, atoms, strings, comments);
 * the meaning of a form depends on its head symbol, not on a grammar.  A
 * recursive reader of ~400 lines keeps exact line/column for every node,
 * reports every problem at the byte where it happens and never needs error
 * recovery tables.  docs/sbpl-model.md has the details.
 *
 * Lexical rules (docs/sbpl-model.md, "Lexical level"): `;` and `#!` comments
 * to end of line, symbols folded to lower case, strings with \\ \" \n \t \r
 * \xHH \ooo escapes (any other escaped character loses its backslash, with a
 * warning), raw strings #"..." without escapes, numbers (decimal, #o #x #b),
 * booleans #t #f, quote forms ' ` , ,@ (read as (quote x) etc.).
 *
 * Ownership: sx_read() returns a document owning every node.  */
#ifndef SB_SEXP_H
#define SB_SEXP_H

#include <stdbool.h>
#include <stddef.h>
#include "compiler/common/diag.h"

/* SX_OPAQUE is never read: the evaluator (sbpl_scheme.h) puts it where a
 * value could not be computed; `text` is the source of the expression.  */
typedef enum { SX_LIST, SX_SYMBOL, SX_STRING, SX_NUMBER, SX_BOOL, SX_OPAQUE } sx_kind;

/* Where the evaluator (sbpl_scheme.h) made a rule form inside a
 * procedure: the outermost procedure call and its name (interned in the
 * sb_diag).  */
typedef struct sx_call {
	sb_loc loc;
	const char *name;
} sx_call;

/* 104 bytes: the launch reads every node of the profile (and the evaluator
 * makes as many again), so their pages count (bench/analysis.md, launch).  */
typedef struct sx_node {
	sx_kind kind;
	bool raw;                 /* STRING written as #"..." */
	char *text;               /* SYMBOL: folded name; STRING: decoded value;
				     NUMBER: the spelling; OPAQUE: the source;
				     NULL for LIST/BOOL */
	size_t len;               /* STRING: byte length of text */
	long long num;            /* NUMBER value; BOOL: 1 for #t */
	struct sx_node **kids;    /* LIST */
	size_t nkids;
	size_t start, end;        /* byte offsets of the form in the source */
	sb_loc loc;               /* start and end line/column */
	/* Set on rule forms the evaluator made inside a procedure; NULL
	 * otherwise.  */
	const sx_call *call;
} sx_node;

/* A `;` comment, kept so the SBPL reader can attach sbc's origin comments
 * ("; policy.sbx:12") to the rule on the next line.  */
typedef struct sx_comment {
	char *text;               /* after the ';' run and the blanks after it */
	int line;
	bool alone;               /* nothing but blanks before it on its line */
} sx_comment;

typedef struct sx_doc {
	sx_node **forms;          /* top-level forms in order */
	size_t nforms, capforms;
	sx_comment *comments;
	size_t ncomments, capcomments;
	const char *file;         /* interned in the sb_diag */
	char *text;               /* private copy of the source (wrappers blanked) */
	size_t len;
	struct sb_arena *arena;   /* the nodes, their texts and kids: freed with the doc */
} sx_doc;

/* Read every form of `text`.  Errors and warnings go to `d` with file, line
 * and column; on any error returns NULL.  Never crashes on bad input; nesting
 * deeper than 200 levels is an error.  A C++ raw-string wrapper (Nix:
 * R"X( ... )X") is stripped; preprocessor lines (#if, #include, ...) are
 * an error ("needs the C preprocessor").  */
sx_doc *sx_read(const char *file, const char *text, size_t len, sb_diag *d);
void sx_doc_free(sx_doc *doc);

/* Head symbol of a list ("allow"), or NULL.  */
const char *sx_head(const sx_node *n);
bool sx_is_symbol(const sx_node *n, const char *name);

/* Canonical one-line rendering: lists as (a b c), strings quoted and
 * escaped (raw strings as #"..."), symbols as read.  Caller frees.  */
char *sx_print(const sx_node *n);

#endif
