/* origin.h - where a rule comes from: one typed record per policy
 * statement, shared by every rule and host rule the statement lowers to
 * (ir.h sb_rule.origin, egress.h sb_egress_rule.origin).
 *
 * The policy front end makes it at parse time from the statement's token
 * span (compiler/front/parse.c); the SBPL reader makes it from the data
 * form sbc writes into a profile (compiler/sbpl/emit_sbpl.h, "sbx-origins"),
 * so no later stage reads a policy file or a comment to find a statement.
 * Records, their file names and their text live as long as the sb_diag they
 * were made with, as locations do (diag.h): copies and bound forms of a
 * profile share them.  */
#ifndef SB_ORIGIN_H
#define SB_ORIGIN_H

#include <stddef.h>
#include "compiler/common/diag.h"

typedef struct sb_origin {
	/* The policy file as profiles name it (the top file's basename,
	 * includes relative to its directory), interned in the sb_diag.  For
	 * a rule the launcher makes, what made it ("OMP_SANDBOX_NETWORK=off",
	 * runtime/common/netmode.c) with line 0.  */
	const char *file;
	int line, col;         /* the statement's first token (1-based); col 0: unknown */
	/* The statement as written, from its first token through its ';'
	 * (comments and line breaks kept): `len` bytes, not NUL-terminated.
	 * NULL when unknown (a rule made at launch, a profile written by an
	 * sbc without the data form).  */
	const char *text;
	size_t len;
} sb_origin;

/* A record that lives as long as `d`; `file` is interned, `text` is
 * borrowed and must live as long as `d` too (sb_diag_add_source's copy,
 * sb_diag_keep_text).  */
const sb_origin *sb_origin_new(sb_diag *d, const char *file, int line, int col, const char *text,
			       size_t len);

/* "FILE:LINE", or FILE alone at line 0.  Caller frees.  */
char *sb_origin_where(const sb_origin *o);

/* The statement on one line, as the trace quotes it: its first line up to
 * the first ';' or '#' outside a string, without the blanks around it, and
 * " ..." when the statement goes on past that line.  NULL without text or
 * when nothing is left.  Caller frees.  */
char *sb_origin_line_text(const sb_origin *o);

#endif
