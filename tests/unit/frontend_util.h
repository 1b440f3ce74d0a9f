/* frontend_util.h - helpers shared by the front-end unit tests
 * (test_lexer.c, test_parser.c, test_lower.c, test_emit.c): run the
 * parser / lowering / emitter on a string, with diagnostics captured.  */
#ifndef SB_TEST_FRONTEND_UTIL_H
#define SB_TEST_FRONTEND_UTIL_H

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "compiler/front/ast.h"
#include "compiler/common/diag.h"
#include "compiler/sbpl/emit_sbpl.h"
#include "compiler/ir/ir.h"

/* A parse with its diagnostics sink.  The sink owns the interned file names
 * the policy points at, so free the policy first (fe_done does).  */
/* open_memstream() keeps pointers to where it stores the buffer; they
 * live on the heap because fe_run is returned by value.  */
typedef struct {
	char *data;
	size_t len;
} fe_buf;

typedef struct {
	sb_diag *d;
	FILE *f;
	fe_buf *buf;
	char *diag;       /* captured diagnostics text, as of the last fe_diag() */
	sbx_policy *pol;
	sb_profile *prof;
	char *text;       /* emitted SBPL */
	int errors;
} fe_run;

static inline void fe_open(fe_run *r)
{
	memset(r, 0, sizeof *r);
	r->buf = calloc(1, sizeof *r->buf);
	r->f = open_memstream(&r->buf->data, &r->buf->len);
	r->d = sb_diag_new(r->f, SB_FMT_TEXT);
}

/* Flush the captured diagnostics so r->diag is readable.  */
static inline const char *fe_diag(fe_run *r)
{
	fflush(r->f);
	r->diag = r->buf->data;
	return r->diag ? r->diag : "";
}

static inline fe_run fe_parse_named(const char *file, const char *text)
{
	fe_run r;
	fe_open(&r);
	r.pol = sbx_parse(file, text, strlen(text), r.d);
	r.errors = sb_diag_errors(r.d);
	fe_diag(&r);
	return r;
}

static inline fe_run fe_parse(const char *text)
{
	return fe_parse_named("t.sbx", text);
}

/* Parse + lower + emit (no check passes: those are tested on their own).  */
static inline fe_run fe_compile_defs(const char *text, const sbx_defines *defs)
{
	fe_run r = fe_parse(text);
	if (r.pol)
		r.prof = sbx_lower(r.pol, defs, r.d);
	if (r.prof)
		r.text = sb_emit_sbpl(r.prof, NULL, r.d);
	r.errors = sb_diag_errors(r.d);
	fe_diag(&r);
	return r;
}

static inline fe_run fe_compile(const char *text)
{
	return fe_compile_defs(text, NULL);
}

static inline void fe_done(fe_run *r)
{
	sbx_policy_free(r->pol);
	sb_profile_free(r->prof);
	free(r->text);
	sb_diag_free(r->d);
	fclose(r->f);
	free(r->buf->data);
	free(r->buf);
	memset(r, 0, sizeof *r);
}

/* Number of lines of `text` that start with `prefix`.  */
static inline int fe_count_lines(const char *text, const char *prefix)
{
	int n = 0;
	size_t len = strlen(prefix);
	for (const char *s = text; s && *s;) {
		if (!strncmp(s, prefix, len))
			n++;
		s = strchr(s, '\n');
		if (s)
			s++;
	}
	return n;
}

/* Entries of a directory, "." and ".." not counted (what a writer left).  */
static inline int fe_count_entries(const char *dir)
{
	DIR *d = opendir(dir);
	int n = 0;
	struct dirent *e;
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			n++;
	closedir(d);
	return n;
}

/* The emitted text without the header comments (from "(version 1)" on).  */
static inline const char *fe_body(const char *text)
{
	const char *v = text ? strstr(text, "(version 1)\n") : NULL;
	return v ? v + strlen("(version 1)\n") : "";
}

#endif
