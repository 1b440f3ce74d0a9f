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
