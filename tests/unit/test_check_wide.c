/* test_check_wide.c - the wide-root pass.  */
#include <criterion/criterion.h>
#include <string.h>

#include "test_check_fixture.h"

#define HAS(f, s) cr_expect(strstr((f)->buf, (s)) != NULL, "missing <%s> in:\n%s", (s), (f)->buf)
#define HASNT(f, s) cr_expect(strstr((f)->buf, (s)) == NULL, "unexpected <%s> in:\n%s", (s), (f)->buf)
#define EMPTY(f) cr_expect_eq((f)->len, 0, "expected no diagnostics, got:\n%s", (f)->buf)

static fx f;

static void setup(void)
{
	fx_init(&f, "w.sbx");
}

static void teardown(void)
{
	fx_clear(&f);
}

TestSuite(check_wide, .init = setup, .fini = teardown);

Test(check_wide, seed_policy_is_clean)
{
	fx_add(&f, 1, "default allow");
	fx_add(&f, 2, "deny write");
	fx_add(&f, 3, "allow write workspace /private/tmp tmpdir ~/.omp $EXTRA_WRITE");
	fx_add(&f, 4, "deny read home");
	fx_add(&f, 5, "allow read ~/.omp workspace $EXTRA_READ");
	fx_add(&f, 6, "stat-only exactly home");
	cr_expect_eq(fx_run(&f, sb_check_wide), 0);
	EMPTY(&f);
}

Test(check_wide, write_on_root_home_and_ancestors)
{
	fx_add(&f, 1, "default allow");
	fx_add(&f, 2, "deny write");
	fx_add(&f, 3, "allow write /");
	fx_add(&f, 4, "allow write home");
	fx_add(&f, 5, "allow write /Users /home");
	fx_add(&f, 6, "allow write /Users/me");
	cr_expect_eq(fx_run(&f, sb_check_wide), 5);
	HAS(&f, "w.sbx:3:13: error: write grant on / is too wide: it is the whole file system");
	HAS(&f, "w.sbx:4:13: error: write grant on ~ is too wide: it is the home directory");
	HAS(&f, "w.sbx:5:13: error: write grant on /Users is too wide: it contains the home directory");
	HAS(&f, "w.sbx:5:20: error: write grant on /home is too wide");
	HAS(&f, "w.sbx:6:13: error: write grant on /Users/me is too wide: it is a home directory");
	HAS(&f, "[wide-root]");
}

Test(check_wide, unfiltered_write)
{
	fx_add(&f, 1, "default deny");
	fx_add(&f, 2, "allow write");
	cr_expect_eq(fx_run(&f, sb_check_wide), 1);
	HAS(&f, "w.sbx:2:1: error: write grant everywhere is too wide: it applies everywhere");
}

Test(check_wide, narrow_writes_are_fine)
{
	fx_add(&f, 1, "default deny");
	fx_add(&f, 2, "allow write ~/src /Users/me/src /usr/local exactly / exactly home workspace tmpdir");
	cr_expect_eq(fx_run(&f, sb_check_wide), 0);
	EMPTY(&f);
}

Test(check_wide, read_reallow_after_deny)
{
	fx_add(&f, 1, "default allow");
	fx_add(&f, 2, "deny read home");
	fx_add(&f, 3, "allow read /Users");
	cr_expect_eq(fx_run(&f, sb_check_wide), 1);
	HAS(&f, "w.sbx:3:12: error: read grant on /Users re-allows too much: it contains the home directory;");
	HAS(&f, "w.sbx:2:1: note: the read deny it re-opens is here");
}

Test(check_wide, read_before_deny_is_not_a_reallow)
{
	fx_add(&f, 1, "default allow");
	fx_add(&f, 2, "allow read /");
	fx_add(&f, 3, "deny read home");
	fx_add(&f, 4, "deny read /etc");
	fx_add(&f, 5, "allow read home");
	cr_expect_eq(fx_run(&f, sb_check_wide), 1);
	HASNT(&f, "w.sbx:2:");
	HAS(&f, "w.sbx:5:12: error: read grant on ~ re-allows too much");
}

Test(check_wide, read_under_default_deny)
{
	fx_add(&f, 1, "default deny");
	fx_add(&f, 2, "allow read / /usr");
	cr_expect_eq(fx_run(&f, sb_check_wide), 1);
	HAS(&f, "w.sbx:2:12: error: read grant on / re-allows too much: it is the whole file system and the default is deny");
}

Test(check_wide, missing_default_counts_as_deny)
{
	fx_add(&f, 1, "allow read home");
	cr_expect_eq(fx_run(&f, sb_check_wide), 1);
}

Test(check_wide, stat_and_exec_are_not_wide)
{
	fx_add(&f, 1, "default deny");
	fx_add(&f, 2, "allow stat-only /");
	fx_add(&f, 3, "allow exec /");
	fx_add(&f, 4, "deny write /");
	cr_expect_eq(fx_run(&f, sb_check_wide), 0);
	EMPTY(&f);
}

Test(check_wide, acknowledged)
{
	fx_add(&f, 1, "default deny");
	fx_add(&f, 2, "allow read / ack=wide why=system_libraries");
	cr_expect_eq(fx_run(&f, sb_check_wide), 0);
	EMPTY(&f);
}

Test(check_wide, needless_ack_warns)
{
	fx_add(&f, 1, "default allow");
	fx_add(&f, 2, "allow write /opt ack=wide why=x");
	fx_add(&f, 3, "allow write workspace ack=wide why=runtime");
	cr_expect_eq(fx_run(&f, sb_check_wide), 0);
	HAS(&f, "w.sbx:2:1: warning: `acknowledge wide` on a rule that grants nothing wide");
	HAS(&f, "[unused-ack]");
	HASNT(&f, "w.sbx:3:");
}

Test(check_wide, bound_home)
{
	fx_define(&f, "HOME", "/srv/u");
	fx_define(&f, "WORKSPACE", "/srv");
	fx_add(&f, 1, "default allow");
	fx_add(&f, 2, "deny write");
	fx_add(&f, 3, "allow write /srv/u/src /Users/x/y");
	fx_add(&f, 4, "allow write workspace");
	cr_expect_eq(fx_run(&f, sb_check_wide), 1);
	HAS(&f, "w.sbx:4:13: error: write grant on workspace (/srv) is too wide: it contains the home directory");
}

Test(check_wide, case_folded_ancestor)
{
	fx_add(&f, 1, "default allow");
	fx_add(&f, 2, "allow write /users");
	cr_expect_eq(fx_run(&f, sb_check_wide), 1);
}
