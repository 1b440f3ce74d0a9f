/* parse_ctx.h - private interface between the policy grammar
 * (grammar/policy.y, grammar/policy.l) and the parse driver (parse.c).
 * The grammar only calls these constructors; checks live in the passes.  */
#ifndef SB_PARSE_CTX_H
#define SB_PARSE_CTX_H

#include <stdbool.h>
#include <stddef.h>
#include "compiler/front/ast.h"
#include "compiler/common/diag.h"

struct sbx_shared;   /* state shared by a file and its includes */

/* One file being parsed.  */
typedef struct sbx_pctx {
	sb_diag *d;
	struct sbx_shared *sh;
	const char *file;     /* diagnostics name (interned) */
	const char *origin;   /* profile-comment name (interned) */
	int depth;            /* include depth, 0 for the top file */
	/* the preset gating this file's statements from here on (`preset "x";`
	 * here or in an including file; interned), or NULL */
	const char *preset;
	sb_loc preset_loc;
	int nerrors;          /* errors reported while parsing this file */
	/* scanner position (1-based), and the length of the previous line so
	 * an end-of-file error after a final newline points at the last line */
	int line, col;
	/* end of the last real token, where "unexpected end of file" points */
	int last_line, last_col;
	bool gave_up;         /* too many errors: the scanner returns EOF */
	/* a lexical error in the current statement: the parser skips to the
	 * next ';', so further lexical errors there are noise */
	bool lex_error;
	/* The file's text as the sb_diag keeps it (statement texts point into
	 * it), the span of the statement being reduced (sbx_ctx_span), and the
	 * start of line `at_line` in src: statements come in order, so finding
	 * each one's offset from the last is linear in the file.  */
	const char *src;
	size_t src_len;
	sb_loc span;
	int at_line;
	size_t at_off;
} sbx_pctx;

enum { SBX_MAX_ERRORS_PER_FILE = 50 };

/* Collected while parsing one rule statement.  */
typedef struct sbx_tvec {
	sbx_target *v;
	size_t n, cap;
} sbx_tvec;

/* The host patterns of one `network allow|deny` statement, as written.  */
typedef struct sbx_hvec {
	char **v;
	sb_loc *locs;
	size_t n, cap, lcap;   /* cap: of v, lcap: of locs (SB_GROW) */
} sbx_hvec;

typedef struct sbx_ack {
	unsigned kinds;
	char *reason;
	sb_loc loc;
} sbx_ack;

/* Path token kinds the lexer hands to the parser.  */
typedef enum {
	SBX_PT_ABS,     /* /usr/lib */
	SBX_PT_QUOTED,  /* "/path with spaces" or "~/x" */
	SBX_PT_TILDE,   /* ~, ~/rel, ~user (refused) */
	SBX_PT_ROOT,    /* home, workspace/rel, ... */
	SBX_PT_VAR      /* $NAME, $NAME/rel */
} sbx_path_token;

/* Grammar actions.  All take ownership of their pointer arguments.  */
sbx_target *sbx_ctx_target(sbx_pctx *c, sbx_path_token kind, char *text, sb_loc loc);
sbx_tvec *sbx_tvec_add(sbx_tvec *v, sbx_target *t);
void sbx_tvec_free(sbx_tvec *v);
void sbx_target_free(sbx_target *t);   /* frees the members and t */
void sbx_target_clear(sbx_target *t);  /* frees the members only */
sbx_ack *sbx_ack_new(unsigned kinds, char *reason, sb_loc loc);
void sbx_ack_free(sbx_ack *a);

/* The whole statement about to be reduced, first token through ';': the
 * grammar gives it before the constructor below makes the statement.  */
void sbx_ctx_span(sbx_pctx *c, sb_loc span);
void sbx_ctx_default(sbx_pctx *c, sb_action action, sb_loc loc);
void sbx_ctx_network(sbx_pctx *c, bool on, sb_loc loc);
void sbx_ctx_list(sbx_pctx *c, char *name, sb_loc loc);
sbx_hvec *sbx_hvec_add(sbx_hvec *v, char *text, sb_loc loc);
void sbx_hvec_free(sbx_hvec *v);
void sbx_ctx_hosts(sbx_pctx *c, sb_action action, sbx_hvec *hosts, sb_loc loc);
void sbx_ctx_rule(sbx_pctx *c, sb_action action, unsigned access, sbx_tvec *targets,
		  sbx_ack *ack, sb_loc loc);
void sbx_ctx_include(sbx_pctx *c, char *file, sb_loc loc);
void sbx_ctx_preset(sbx_pctx *c, char *name, sb_loc loc);

/* Report a located error and count it.  */
void sbx_ctx_error(sbx_pctx *c, const sb_loc *loc, const char *code, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* A lexical error: reported unless the statement already has one.  */
void sbx_ctx_lex_error(sbx_pctx *c, const sb_loc *loc, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Keyword suggestion for an unknown word, or NULL.  */
const char *sbx_suggest_keyword(const char *word);

#endif
