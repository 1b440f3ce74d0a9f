/* test_check_order.c - the rule-order pass.  */
#include <criterion/criterion.h>
#include <string.h>

#include "test_check_fixture.h"

#define HAS(f, s) cr_expect(strstr((f)->buf, (s)) != NULL, "missing <%s> in:\n%s", (s), (f)->buf)
#define HASNT(f, s) cr_expect(strstr((f)->buf, (s)) == NULL, "unexpected <%s> in:\n%s", (s), (f)->buf)
#define EMPTY(f) cr_expect_eq((f)->len, 0, "expected no diagnostics, got:\n%s", (f)->buf)

static fx f;

static void setup(void)
{
	fx_init(&f, "o.sbx");
	fx_add(&f, 1, "default allow");
}

static void teardown(void)
{
	fx_clear(&f);
}

TestSuite(check_order, .init = setup, .fini = teardown);

Test(check_order, seed_policy_is_clean)
{
	fx_add(&f, 2, "deny write");
	fx_add(&f, 3, "allow write workspace /private/tmp tmpdir ~/.omp $EXTRA_WRITE");
	fx_add(&f, 4, "allow write /private/var/folders /dev");
	fx_add(&f, 5, "deny read home");
	fx_add(&f, 6, "allow read ~/.omp workspace $EXTRA_READ");
	fx_add(&f, 7, "stat-only exactly home");
	cr_expect_eq(fx_run(&f, sb_check_order), 0);
	EMPTY(&f);
}

Test(check_order, exception_before_rule)
{
	fx_add(&f, 2, "allow read ~/.omp");
	fx_add(&f, 3, "deny read home");
	cr_expect_eq(fx_run(&f, sb_check_order), 0);
	HAS(&f, "o.sbx:2:12: warning: this allow on ~/.omp is an exception to the deny on ~ at line 3, "
		"but comes before it, so it never takes effect; move it after line 3 [exception-order]");
	HAS(&f, "o.sbx:3:11: note: the broader deny rule is here");
	HASNT(&f, "[dead-rule]");
}

Test(check_order, deny_exception_before_allow)
{
	fx_add(&f, 2, "deny write workspace/.git/hooks");
	fx_add(&f, 3, "allow write workspace");
	cr_expect_eq(fx_run(&f, sb_check_order), 0);
	HAS(&f, "o.sbx:2:12: warning: this deny on workspace/.git/hooks is an exception to the allow on workspace at line 3");
}

Test(check_order, exception_in_other_file_names_it)
{
	fx_add_in(&f, "base.sbx", 7, "allow stat-only exactly home");
	fx_add(&f, 3, "deny read home");
	fx_run(&f, sb_check_order);
	HAS(&f, "base.sbx:7:17: warning: this allow on exactly ~ is an exception to the deny on ~ at o.sbx:3");
}

Test(check_order, exception_after_rule_is_fine)
{
	fx_add(&f, 2, "deny read home");
	fx_add(&f, 3, "allow read ~/.omp");
	fx_add(&f, 4, "deny write workspace/.git/hooks");
	cr_expect_eq(fx_run(&f, sb_check_order), 0);
	EMPTY(&f);
}

Test(check_order, different_roots_only_maybe)
{
	fx_add(&f, 2, "allow read workspace");
	fx_add(&f, 3, "deny read home");
	fx_add(&f, 4, "allow write $EXTRA_WRITE");
	fx_add(&f, 5, "deny write /Users");
	cr_expect_eq(fx_run(&f, sb_check_order), 0);
	EMPTY(&f);
}

Test(check_order, dead_rule_same_action)
{
	fx_add(&f, 2, "deny write ~/a ~/b/c");
	fx_add(&f, 3, "deny write ~/a/x");
	fx_add(&f, 4, "deny write ~/b");
	fx_add(&f, 5, "deny write home");
	cr_expect_eq(fx_run(&f, sb_check_order), 0);
	HAS(&f, "o.sbx:2:1: warning: this rule never decides anything: later rules decide every access "
		"and path it names; remove it or move it after them [dead-rule]");
	HAS(&f, "o.sbx:5:1: note: decided by this later rule");
	HAS(&f, "o.sbx:3:1: warning: this rule never decides anything");
	HAS(&f, "o.sbx:4:1: warning: this rule never decides anything");
	HASNT(&f, "o.sbx:5:1: warning");
}

Test(check_order, dead_needs_every_access)
{
	fx_add(&f, 2, "allow read write ~/a");
	fx_add(&f, 3, "deny read home");
	fx_add(&f, 4, "allow write ~/a/b");
	cr_expect_eq(fx_run(&f, sb_check_order), 0);
	/* the read part is an exception placed too early, the write part lives */
	HAS(&f, "o.sbx:2:18: warning: this allow on ~/a is an exception to the deny on ~ at line 3");
	HASNT(&f, "[dead-rule]");
}

Test(check_order, dead_by_equal_other_action)
{
	fx_add(&f, 2, "allow write /opt/x");
	fx_add(&f, 3, "deny write /opt/x /opt/y");
	fx_run(&f, sb_check_order);
	HAS(&f, "o.sbx:2:1: warning: this rule never decides anything");
	HAS(&f, "o.sbx:3:1: note: decided by this later rule");
	HASNT(&f, "[exception-order]");
}

Test(check_order, exact_does_not_cover_subtree)
{
	fx_add(&f, 2, "deny write /opt/x");
	fx_add(&f, 3, "deny write exactly /opt/x");
	fx_add(&f, 4, "deny read exactly /opt/y");
	fx_add(&f, 5, "deny read /opt/y");
	fx_run(&f, sb_check_order);
	HASNT(&f, "o.sbx:2:");
	HAS(&f, "o.sbx:4:1: warning: this rule never decides anything");
}

Test(check_order, case_differences_are_not_certain)
{
	fx_add(&f, 2, "deny write /Opt/x");
	fx_add(&f, 3, "deny write /opt");
	cr_expect_eq(fx_run(&f, sb_check_order), 0);
	EMPTY(&f);
}

Test(check_order, lists_are_opaque)
{
	fx_add(&f, 2, "deny write $EXTRA_WRITE");
	fx_add(&f, 3, "deny write $EXTRA_WRITE /x");
	fx_add(&f, 4, "allow write /y");
	fx_add(&f, 5, "deny write $EXTRA_WRITE");
	fx_run(&f, sb_check_order);
	HASNT(&f, "[dead-rule]");
	HASNT(&f, "[exception-order]");
}

Test(check_order, stat_decided_by_later_read)
{
	fx_add(&f, 2, "allow stat-only ~/a");
	fx_add(&f, 3, "allow read home");
	fx_run(&f, sb_check_order);
	HAS(&f, "o.sbx:2:1: warning: this rule never decides anything");
	HASNT(&f, "[specificity]");
}

Test(check_order, specificity_pair)
{
	fx_add(&f, 2, "deny stat-only home");
	fx_add(&f, 3, "allow read ~/src");
	cr_expect_eq(fx_run(&f, sb_check_order), 0);
	HAS(&f, "o.sbx:2:16: warning: the read allow at line 3 overrides this stat-only deny only because "
		"sbc adds an explicit metadata rule");
	HAS(&f, "[specificity]");
	HAS(&f, "o.sbx:3:12: note: the overlapping read rule is here");
	HASNT(&f, "[dead-rule]");
}

Test(check_order, specificity_not_for_same_action_or_read_first)
{
	fx_add(&f, 2, "allow stat-only home");
	fx_add(&f, 3, "allow read ~/src");
	fx_add(&f, 4, "deny read /opt/x");
	fx_add(&f, 5, "allow stat-only /opt/x");
	fx_run(&f, sb_check_order);
	HASNT(&f, "[specificity]");
}

Test(check_order, unfiltered_after_filtered)
{
	fx_add(&f, 2, "allow write workspace");
	fx_add(&f, 3, "allow write /tmp");
	fx_add(&f, 4, "allow read /x");
	fx_add(&f, 5, "deny write");
	fx_run(&f, sb_check_order);
	HAS(&f, "o.sbx:5:1: warning: unfiltered write rule after 2 filtered rules for the same access "
		"overrides them all; Seatbelt reads an unfiltered rule as the operation's default, so put it "
		"before them [unfiltered-order]");
	HAS(&f, "o.sbx:2:1: note: overridden filtered rule");
	HAS(&f, "o.sbx:3:1: note: overridden filtered rule");
	HASNT(&f, "o.sbx:4:1: note");
	HASNT(&f, "[dead-rule]");
}

Test(check_order, unfiltered_dead_by_unfiltered)
{
	fx_add(&f, 2, "allow write");
	fx_add(&f, 3, "deny write");
	fx_run(&f, sb_check_order);
	HAS(&f, "o.sbx:2:1: warning: this rule never decides anything");
	HASNT(&f, "[unfiltered-order]");
}

Test(check_order, duplicates_left_to_names)
{
	fx_add(&f, 2, "deny write /x");
	fx_add(&f, 3, "deny write /x");
	cr_expect_eq(fx_run(&f, sb_check_order), 0);
	EMPTY(&f);
}

Test(check_order, bound_roots_compare)
{
	fx_define(&f, "WORKSPACE", "/Users/me/src/app");
	fx_add(&f, 2, "allow read workspace");
	fx_add(&f, 3, "deny read home");
	fx_run(&f, sb_check_order);
	HASNT(&f, "warning");
	fx_define(&f, "HOME", "/Users/me");
	fx_run(&f, sb_check_order);
	HAS(&f, "o.sbx:2:12: warning: this allow on workspace (/Users/me/src/app) is an exception to the deny on ~ (/Users/me)");
}
