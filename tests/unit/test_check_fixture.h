/* test_check_fixture.h - build sbx_policy values by hand for the check-pass
 * tests, from one line of pseudo-source per statement, so that target
 * columns are real offsets into that line.
 *   "default allow", "network off", "list NAME",
 *   "allow read write ~/.ssh exactly /x $EXTRA_READ ack=sensitive why=text"
 * Targets: /abs, ~ ~/x home home/x $HOME/x, workspace[/x] $WORKSPACE[/x],
 * tmpdir[/x], $NAME[/x] (a list when declared with "list NAME" before or
 * predeclared EXTRA_READ/EXTRA_WRITE, else a param).  "why=" gives an empty
 * reason; underscores in the reason become spaces.  */
#ifndef TEST_CHECK_FIXTURE_H
#define TEST_CHECK_FIXTURE_H

#include <stdio.h>
#include "compiler/front/ast.h"
#include "compiler/check/check.h"
#include "compiler/common/diag.h"

typedef struct fx {
	sbx_policy p;
	sbx_defines defs;
	sb_diag *d;
	FILE *out;
	char *buf;
	size_t len;
	const char *file;
} fx;

void fx_init(fx *f, const char *file);
void fx_init_fmt(fx *f, const char *file, sb_diag_format fmt);
/* Add a statement at `line` of the policy file (or of `file` when given).  */
sbx_stmt *fx_add(fx *f, int line, const char *text);
sbx_stmt *fx_add_in(fx *f, const char *file, int line, const char *text);
void fx_define(fx *f, const char *name, const char *value);
/* Run a pass; returns its result and leaves the diagnostics text in f->buf.  */
int fx_run(fx *f, int (*pass)(const sbx_policy *, const sbx_defines *, sb_diag *));
void fx_clear(fx *f);

#endif
