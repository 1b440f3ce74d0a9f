/* Unit tests for the origin record (compiler/ir/origin.h): the front end
 * makes one a statement from its token span (compiler/front/parse.c) --
 * line, column, the text from the first token through the ';' --, for
 * statements of included files too; the trace's one-line form of it.  */
#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "frontend_util.h"

static char *text_of(const sb_origin *o)
{
	return o && o->text ? strndup(o->text, o->len) : strdup("(none)");
}

static void expect_origin(const sbx_stmt *s, const char *file, int line, int col, const char *text)
{
	cr_assert_not_null(s->origin);
	char *t = text_of(s->origin);
	cr_expect(eq(str, (char *)s->origin->file, (char *)file));
	cr_expect(eq(int, s->origin->line, line), "%s", t);
	cr_expect(eq(int, s->origin->col, col), "%s", t);
	cr_expect(eq(str, t, (char *)text));
	free(t);
}

Test(origin, multi_line_statements_and_two_on_a_line)
{
	fe_run r = fe_parse("default allow;   # first\n"
			    "deny read\n"
			    "\thome   # the whole home\n"
			    "\t/srv/x;\n"
			    "  allow read ~/.a; allow write \"/t m\" ;\n"
			    "network allow \"a.example\"\n  \"b.example\";\n"
			    "read\n~/.b\n;\n");
	cr_assert_not_null(r.pol, "%s", fe_diag(&r));
	cr_assert(eq(sz, r.pol->nstmts, 6));
	const sbx_stmt *s = r.pol->stmts;
	expect_origin(&s[0], "t.sbx", 1, 1, "default allow;");
	expect_origin(&s[1], "t.sbx", 2, 1, "deny read\n\thome   # the whole home\n\t/srv/x;");
	expect_origin(&s[2], "t.sbx", 5, 3, "allow read ~/.a;");
	expect_origin(&s[3], "t.sbx", 5, 20, "allow write \"/t m\" ;");
	expect_origin(&s[4], "t.sbx", 6, 1, "network allow \"a.example\"\n  \"b.example\";");
	expect_origin(&s[5], "t.sbx", 8, 1, "read\n~/.b\n;");
	/* the trace's one-line form: the first line, " ..." when it goes on */
	char *l1 = sb_origin_line_text(s[1].origin), *l2 = sb_origin_line_text(s[2].origin);
	char *l3 = sb_origin_line_text(s[3].origin), *l5 = sb_origin_line_text(s[5].origin);
	cr_expect(eq(str, l1, "deny read ..."));
	cr_expect(eq(str, l2, "allow read ~/.a"));
	cr_expect(eq(str, l3, "allow write \"/t m\""));
	cr_expect(eq(str, l5, "read ..."));
	free(l1);
	free(l2);
	free(l3);
	free(l5);
	/* the rules and host rules it lowers to share the one record */
	r.prof = sbx_lower(r.pol, NULL, r.d);
	cr_assert_not_null(r.prof, "%s", fe_diag(&r));
	size_t shared = 0;
	for (size_t i = 0; i < r.prof->nrules; i++)
		shared += r.prof->rules[i]->origin == s[1].origin;
	cr_expect(shared >= 1);
	cr_assert(eq(sz, r.prof->egress.n, 2));
	cr_expect(r.prof->egress.v[0].origin == s[4].origin);
	cr_expect(r.prof->egress.v[1].origin == s[4].origin);
	fe_done(&r);
}

static void put_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	cr_assert_not_null(f, "%s", path);
	fputs(text, f);
	fclose(f);
}

Test(origin, statements_of_included_files)
{
	char dir[] = "/tmp/sbx-origin.XXXXXX";
	cr_assert_not_null(mkdtemp(dir));
	char top[256], sub[256], lib[256];
	snprintf(top, sizeof top, "%s/top.sbx", dir);
	snprintf(sub, sizeof sub, "%s/lib", dir);
	snprintf(lib, sizeof lib, "%s/lib/base.sbx", dir);
	cr_assert(eq(int, mkdir(sub, 0755), 0));
	put_file(top, "default allow;\ninclude \"lib/base.sbx\";\ndeny write\n  /etc;\n");
	put_file(lib, "# base\n\n   deny read home\n     /srv;\n");
	fe_run r;
	fe_open(&r);
	r.pol = sbx_parse(top, NULL, 0, r.d);
	cr_assert_not_null(r.pol, "%s", fe_diag(&r));
	cr_assert(eq(sz, r.pol->nstmts, 3));
	expect_origin(&r.pol->stmts[0], "top.sbx", 1, 1, "default allow;");
	expect_origin(&r.pol->stmts[1], "lib/base.sbx", 3, 4, "deny read home\n     /srv;");
	expect_origin(&r.pol->stmts[2], "top.sbx", 3, 1, "deny write\n  /etc;");
	fe_done(&r);
	unlink(lib);
	unlink(top);
	rmdir(sub);
	rmdir(dir);
}

/* Every statement of the default policy and the tool presets it includes
 * (examples/omp.sbx, the tools/ and protect/ files beside it): its
 * text is the file's bytes at its line and column, through a ';'.  */
Test(origin, statements_of_the_default_policy_and_its_tools)
{
	fe_run r;
	fe_open(&r);
	r.pol = sbx_parse("examples/omp.sbx", NULL, 0, r.d);
	cr_assert_not_null(r.pol, "run from the repository root: %s", fe_diag(&r));
	size_t tools = 0;
	for (size_t i = 0; i < r.pol->nstmts; i++) {
		const sb_origin *o = r.pol->stmts[i].origin;
		cr_assert_not_null(o);
		cr_assert_not_null(o->text, "%s:%d", o->file, o->line);
		tools += !strncmp(o->file, "tools/", 6);
		char path[512];
		snprintf(path, sizeof path, "examples/%s", o->file);
		FILE *f = fopen(path, "r");
		cr_assert_not_null(f, "%s", path);
		char line[4096];
		for (int l = 1; l <= o->line; l++)
			cr_assert_not_null(fgets(line, sizeof line, f), "%s:%d", path, l);
		fclose(f);
		size_t first = strcspn(o->text, "\n");   /* the part on the first line */
		cr_assert(eq(int, strncmp(line + o->col - 1, o->text, first), 0), "%s:%d:%d: %.*s",
			  o->file, o->line, o->col, (int)o->len, o->text);
		cr_expect(eq(chr, o->text[o->len - 1], ';'), "%s:%d", o->file, o->line);
	}
	cr_expect(tools > 10, "the tool presets' statements are in the policy (%zu)", tools);
	fe_done(&r);
}
