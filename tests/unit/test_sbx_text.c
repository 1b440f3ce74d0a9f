/* Unit tests for the .sbx writer (compiler/common/sbx_text.h): what it
 * writes parses back (compiler/front) to the path or host it was given,
 * for paths with blanks, quotes, backslashes, ';', '#', non-ASCII bytes and
 * text that looks like a variable or a home ("$HOME", "~x"); what has no
 * spelling (a control character) is refused, never written.  */
#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontend_util.h"
#include "compiler/common/sbx_text.h"

static const char *const paths[] = {
	"/srv/plain-file_1.txt",
	"/srv/with space/x",
	"/srv/quote\"d",
	"/srv/back\\slash\\",
	"/srv/semi;colon#hash",
	"/srv/caf\xc3\xa9/\xe6\x97\xa5\xe6\x9c\xac",
	"/srv/$HOME/x",
	"/srv/~x/$WORKSPACE",
	"/srv/'single' (paren) [br] {c} *star? =eq, comma",
	"/home/u/my dir",
	"/home/u/.config/tool",
	"/home/u",
};

/* Write `allow read TARGET;` for each path, parse it, and compare.  */
Test(sbx_text, targets_parse_back)
{
	for (size_t i = 0; i < sizeof paths / sizeof *paths; i++) {
		char *tg = sbx_text_target(paths[i], "/home/u");
		cr_assert_not_null(tg, "%s", paths[i]);
		char *st = sbx_text_allow("read", tg);
		char *pol = NULL;
		cr_assert(asprintf(&pol, "default allow;\n%s\n", st) > 0);
		fe_run r = fe_parse(pol);
		cr_assert_not_null(r.pol, "%s: %s", pol, fe_diag(&r));
		cr_assert(eq(sz, r.pol->nstmts, 2), "%s", pol);
		const sbx_target *t = &r.pol->stmts[1].targets[0];
		cr_assert(eq(sz, r.pol->stmts[1].ntargets, 1), "%s", pol);
		char *got = t->base == SBX_BASE_HOME
				    ? (t->rel[0] ? (char *)malloc(strlen(t->rel) + 9) : strdup("/home/u"))
				    : strdup(t->rel);
		if (t->base == SBX_BASE_HOME && t->rel[0])
			sprintf(got, "/home/u/%s", t->rel);
		cr_expect(t->base == SBX_BASE_ABS || t->base == SBX_BASE_HOME, "%s", pol);
		cr_expect(eq(str, got, (char *)paths[i]), "%s", pol);
		free(got);
		fe_done(&r);
		free(pol);
		free(st);
		free(tg);
	}
}

Test(sbx_text, spelling)
{
	char *a = sbx_text_target("/home/u/.config/tool", "/home/u");
	char *b = sbx_text_target("/home/u/my dir", "/home/u");
	char *c = sbx_text_target("/srv/quote\"d\\", NULL);
	char *d = sbx_text_target("/home/u", "/home/u");
	cr_expect(eq(str, a, "~/.config/tool"));
	cr_expect(eq(str, b, "\"/home/u/my dir\""));
	cr_expect(eq(str, c, "\"/srv/quote\\\"d\\\\\""));
	cr_expect(eq(str, d, "~"));
	free(a);
	free(b);
	free(c);
	free(d);
	/* no spelling for a control character: refused */
	cr_expect_null(sbx_text_target("/srv/new\nline", NULL));
	cr_expect_null(sbx_text_quoted("a\tb"));
	cr_expect_null(sbx_text_network_allow("a\x7f"));
	cr_expect(sbx_text_needs_quotes("a b") && sbx_text_needs_quotes("a\\b") &&
		  !sbx_text_needs_quotes("/a/b"));
}

Test(sbx_text, hosts_parse_back)
{
	static const char *const hosts[] = { "api.example.com", "*.example.org:443", "10.0.0.0/8",
					     "[::1]:8080" };
	for (size_t i = 0; i < sizeof hosts / sizeof *hosts; i++) {
		char *st = sbx_text_network_allow(hosts[i]);
		char *pol = NULL;
		cr_assert(asprintf(&pol, "default allow;\n%s\n", st) > 0);
		fe_run r = fe_parse(pol);
		cr_assert_not_null(r.pol, "%s: %s", pol, fe_diag(&r));
		cr_assert(eq(int, r.pol->stmts[1].kind, SBX_STMT_HOSTS));
		char *t = sb_host_pat_text(&r.pol->stmts[1].hosts[0]);
		cr_expect(eq(str, t, (char *)hosts[i]));
		free(t);
		fe_done(&r);
		free(pol);
		free(st);
	}
}
