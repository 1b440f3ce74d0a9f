/* test_scale.c - policies far beyond hand-written size compile: the checks
 * and the lowering use indexes, not pairwise scans (no timing asserted; the
 * benchmark in bench/ measures time).  */
#include <criterion/criterion.h>
#include <criterion/new/assert.h>

#include "compiler/check/check.h"
#include "frontend_util.h"
#include "compiler/sbpl/sbpl_read.h"

/* Sizes: large in the normal build; smaller under ASan, where each
 * allocation costs ~50x and the whole suite runs again.  The shape and the
 * assertions are the same.  */
#if defined(__SANITIZE_ADDRESS__)
enum { BIG = 4000, REPEATS = 600 };
#else
enum { BIG = 20000, REPEATS = 3000 };
#endif

/* The shape of bench/gen_policy.sh: the omp policy plus n generated rules
 * on distinct paths, 100 per directory.  Caller frees.  */
static char *generated_policy(int n)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	fputs("default allow;\ndeny write;\nallow write workspace tmpdir ~/.omp;\n"
	      "deny read home;\nallow read ~/.omp workspace;\nallow stat-only exactly home;\n", f);
	for (int i = 0; i < n; i++) {
		int g = i / 100;
		switch (i % 4) {
		case 0: fprintf(f, "allow write /srv/bench/g%d/w%d;\n", g, i); break;
		case 1: fprintf(f, "deny read /srv/bench/g%d/r%d;\n", g, i); break;
		case 2: fprintf(f, "allow read ~/bench/g%d/p%d;\n", g, i); break;
		default: fprintf(f, "deny exec /srv/bench/g%d/x%d;\n", g, i); break;
		}
	}
	fclose(f);
	return text;
}

/* A diagnostics sink whose text stays readable (the memstream writes to
 * this struct, so it must not move).  */
typedef struct {
	char *text;
	size_t len;
	FILE *f;
	sb_diag *d;
} sink;

static void sink_open(sink *k)
{
	memset(k, 0, sizeof *k);
	k->f = open_memstream(&k->text, &k->len);
	k->d = sb_diag_new(k->f, SB_FMT_TEXT);
}

static const char *sink_text(sink *k)
{
	fflush(k->f);
	return k->text ? k->text : "";
}

static void sink_close(sink *k)
{
	sb_diag_free(k->d);
	fclose(k->f);
	free(k->text);
}

static int count(const char *text, const char *needle)
{
	int n = 0;
	for (const char *s = text; (s = strstr(s, needle)); s += strlen(needle))
		n++;
	return n;
}

Test(scale, twenty_thousand_rules_compile, .timeout = 120)
{
	char *src = generated_policy(BIG);
	sink k;
	sink_open(&k);
	sbx_policy *pol = sbx_parse("t.sbx", src, strlen(src), k.d);
	cr_assert(ne(ptr, pol, NULL), "%s", sink_text(&k));
	cr_assert(eq(sz, pol->nstmts, (size_t)BIG + 6));
	sb_check_all(pol, NULL, k.d);
	sb_profile *prof = sbx_lower(pol, NULL, k.d);
	cr_assert(ne(ptr, prof, NULL), "%s", sink_text(&k));
	size_t len = 0;
	char *text = sb_emit_sbpl(prof, &len, k.d);
	cr_assert(ne(ptr, text, NULL));
	const char *diag = sink_text(&k);
	/* the checks find only the ~/.omp write of the omp shape */
	cr_assert(eq(int, sb_diag_errors(k.d), 0), "%.2000s", diag);
	cr_assert(eq(int, fe_count_lines(diag, "t.sbx:"), 1), "%.2000s", diag);
	cr_assert(eq(int, count(diag, "[persistence]"), 1), "%.2000s", diag);
	/* well-formed: balanced, every generated rule present, reads back */
	int depth = 0, min_depth = 0;
	bool in_string = false, in_comment = false;
	for (const char *s = text; *s; s++) {
		if (in_comment) {
			in_comment = *s != '\n';
		} else if (in_string) {
			if (*s == '\\' && s[1])
				s++;
			else if (*s == '"')
				in_string = false;
		} else if (*s == ';') {
			in_comment = true;
		} else if (*s == '"') {
			in_string = true;
		} else {
			depth += *s == '(' ? 1 : *s == ')' ? -1 : 0;
			if (depth < min_depth)
				min_depth = depth;
		}
	}
	/* one assertion after the scan: an assertion per byte costs minutes
	 * under the sanitizers */
	cr_assert(eq(int, min_depth, 0), "a ')' closes more than was opened");
	cr_assert(eq(int, depth, 0));
	char last_write[64], last_group[96];
	snprintf(last_write, sizeof last_write, "\"/srv/bench/g%d/w%d\"", BIG / 100 - 1, BIG - 4);
	snprintf(last_group, sizeof last_group,
		 "(literal (string-append (param \"HOME\") \"/bench/g%d\"))", BIG / 100 - 1);
	cr_assert(eq(int, count(text, last_write), 1));
	/* one stat grant on the last group's directory after each of its 25 re-allows */
	cr_assert(eq(int, count(text, last_group), 25));
	sb_profile *back = sb_sbpl_read("t.sb", text, len, k.d);
	cr_assert(ne(ptr, back, NULL), "%.2000s", sink_text(&k));
	cr_assert(eq(sz, back->nrules, prof->nrules));
	cr_assert(gt(sz, prof->nrules, (size_t)BIG));
	sb_profile_free(back);
	free(text);
	sb_profile_free(prof);
	sbx_policy_free(pol);
	sink_close(&k);
	free(src);
}

Test(scale, many_repeats_are_each_reported_once, .timeout = 120)
{
	/* REPEATS copies of one rule and one rule naming a path REPEATS times */
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	fputs("default deny;\n", f);
	for (int i = 0; i < REPEATS; i++)
		fputs("allow exec /usr/bin/a /usr/bin/b;\n", f);
	fputs("deny write", f);
	for (int i = 0; i < REPEATS; i++)
		fputs(" /opt/x", f);
	fputs(";\n", f);
	fclose(f);
	sink k;
	sink_open(&k);
	sbx_policy *pol = sbx_parse("t.sbx", text, len, k.d);
	cr_assert(ne(ptr, pol, NULL), "%s", sink_text(&k));
	sb_check_all(pol, NULL, k.d);
	const char *diag = sink_text(&k);
	char first_named[64];
	snprintf(first_named, sizeof first_named, "t.sbx:%d:12: note: first named here", REPEATS + 2);
	cr_assert(eq(int, count(diag, "this rule repeats an earlier one"), REPEATS - 1));
	cr_assert(eq(int, count(diag, "the same target appears twice in this rule"), REPEATS - 1));
	cr_assert(eq(int, count(diag, "t.sbx:2:1: note: the earlier rule is here"), REPEATS - 1));
	cr_assert(eq(int, count(diag, first_named), REPEATS - 1));
	sbx_policy_free(pol);
	sink_close(&k);
	free(text);
}
