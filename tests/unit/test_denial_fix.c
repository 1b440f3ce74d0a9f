/* Unit tests for the trace's fixes (runtime/common/denial_fix.c): the
 * statements they propose are written by the .sbx writer
 * (compiler/common/sbx_text.h), quoted where the language needs it.  */
#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/common/denial.h"

static void expect_fix(sb_tracer *t, sb_access a, const char *path, const char *want)
{
	char *fix = sb_tracer_fix(t, a, path);
	cr_expect(eq(str, fix, (char *)want), "%s %s", sb_access_word(a), path);
	free(fix);
}

Test(denial_fix, statements_through_the_writer)
{
	sb_tracer_cfg cfg = { .home = "/nonexistent-home/u" };
	sb_tracer *t = sb_tracer_new(&cfg);
	expect_fix(t, SB_ACC_READ, "/srv/plain", "the policy statement `allow read /srv/plain;`");
	expect_fix(t, SB_ACC_READ, "/srv/a b\"c\\d",
		   "the policy statement `allow read \"/srv/a b\\\"c\\\\d\";`");
	expect_fix(t, SB_ACC_EXEC, "/nonexistent-home/u/bin/x",
		   "the policy statement `allow exec ~/bin/x;`");
	expect_fix(t, SB_ACC_EXEC, "/nonexistent-home/u/my bin/x",
		   "the policy statement `allow exec \"/nonexistent-home/u/my bin/x\";`");
	expect_fix(t, SB_ACC_LIST, "/nonexistent-home/u",
		   "the policy statement `allow read exactly home;` (on macOS; on Linux a "
		   "directory's listing cannot be granted without its subtree)");
	expect_fix(t, SB_ACC_CONNECT, "api.example.com",
		   "the policy statement `network allow \"api.example.com\";`");
	sb_tracer_free(t);
	cfg.allow_hosts_var = true;
	cfg.extra_read_var = true;
	t = sb_tracer_new(&cfg);
	expect_fix(t, SB_ACC_CONNECT, "api.example.com",
		   "the policy statement `network allow \"api.example.com\";` or "
		   "OMP_SANDBOX_ALLOW_HOSTS=api.example.com");
	expect_fix(t, SB_ACC_READ, "/nonexistent-home/u/.config/x",
		   "OMP_SANDBOX_EXTRA_READ=~/.config/x");
	sb_tracer_free(t);
}

#include <stdio.h>
#include "frontend_util.h"

/* The deciding rule's statement comes from its origin record, whether the
 * evaluator finds the rule (Linux) or the platform names it ("FILE:LINE",
 * macOS); a name the profile does not hold is shown without a statement.  */
Test(denial_fix, statement_from_the_origin_record)
{
	fe_run r = fe_compile("default allow;\n"
			      "deny read\n    /srv   # data\n    /opt;\n");
	cr_assert_not_null(r.prof, "%s", fe_diag(&r));
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);
	sb_tracer_cfg cfg = { .bound = r.prof, .home = "/nonexistent-home/u", .out = out };
	sb_tracer *t = sb_tracer_new(&cfg);
	sb_denial d = { .access = SB_ACC_READ, .path = "/srv/a", .pid = 7, .process = "cat" };
	sb_tracer_denied(t, &d);
	d.path = "/opt/b";
	d.origin = "t.sbx:2";
	sb_tracer_denied(t, &d);
	d.path = "/opt/c";
	d.origin = "gone.sbx:9";
	sb_tracer_denied(t, &d);
	sb_tracer_free(t);
	fclose(out);
	cr_expect(strstr(buf, "sandbox: denied read /srv/a \xe2\x80\x94 t.sbx:2 \"deny read ...\"; "
			      "to allow: ") != NULL, "%s", buf);
	cr_expect(strstr(buf, "sandbox: denied read /opt/b \xe2\x80\x94 t.sbx:2 \"deny read ...\"; ") !=
		  NULL, "%s", buf);
	cr_expect(strstr(buf, "sandbox: denied read /opt/c \xe2\x80\x94 gone.sbx:9; to allow: ") != NULL,
		  "%s", buf);
	free(buf);
	fe_done(&r);
}
