/* test_check_names.c - names, repeats, empty reasons.  */
#include <criterion/criterion.h>
#include <string.h>

#include "test_check_fixture.h"

#define HAS(f, s) cr_expect(strstr((f)->buf, (s)) != NULL, "missing <%s> in:\n%s", (s), (f)->buf)
#define HASNT(f, s) cr_expect(strstr((f)->buf, (s)) == NULL, "unexpected <%s> in:\n%s", (s), (f)->buf)
#define EMPTY(f) cr_expect_eq((f)->len, 0, "expected no diagnostics, got:\n%s", (f)->buf)

static fx f;

static void setup(void)
{
	fx_init(&f, "n.sbx");
	fx_add(&f, 1, "default allow");
}

static void teardown(void)
{
	fx_clear(&f);
}

TestSuite(check_names, .init = setup, .fini = teardown);

Test(check_names, clean)
{
	fx_add(&f, 2, "list CACHES");
	fx_add(&f, 3, "network on");
	fx_add(&f, 4, "allow write $CACHES $EXTRA_WRITE workspace $HOME/x");
	fx_add(&f, 5, "allow read $EXTRA_READ ~/.gitconfig ack=sensitive why=git_needs_it");
	cr_expect_eq(fx_run(&f, sb_check_names), 0);
	EMPTY(&f);
}

Test(check_names, undefined_param)
{
	fx_add(&f, 2, "allow read /usr $NOPE/x");
	cr_expect_eq(fx_run(&f, sb_check_names), 1);
	HAS(&f, "n.sbx:2:17: error: undefined name $NOPE; declare it with `list $NOPE;` or bind it with "
		"-D NOPE=PATH [undefined]");
}

Test(check_names, param_bound_with_define)
{
	fx_define(&f, "CACHE", "/var/cache/x");
	fx_add(&f, 2, "allow write $CACHE");
	cr_expect_eq(fx_run(&f, sb_check_names), 0);
	EMPTY(&f);
}

Test(check_names, used_before_declaration)
{
	fx_add(&f, 2, "allow write $LATER");
	fx_add(&f, 3, "list LATER");
	cr_expect_eq(fx_run(&f, sb_check_names), 1);
	HAS(&f, "n.sbx:2:13: error: $LATER is used before its `list $LATER;` declaration [undefined]");
	HAS(&f, "n.sbx:3:1: note: declared here");
}

Test(check_names, list_declared_twice)
{
	fx_add(&f, 2, "list A");
	fx_add(&f, 3, "allow read $A");
	fx_add(&f, 4, "list A");
	fx_add(&f, 5, "list EXTRA_READ");
	cr_expect_eq(fx_run(&f, sb_check_names), 2);
	HAS(&f, "n.sbx:4:1: error: list $A is declared twice [duplicate]");
	HAS(&f, "n.sbx:2:1: note: the first declaration is here");
	HAS(&f, "n.sbx:5:1: error: $EXTRA_READ is predeclared; remove this `list` statement [duplicate]");
}

Test(check_names, second_default_but_network_may_repeat)
{
	fx_add(&f, 2, "network off");
	fx_add(&f, 3, "default deny");
	fx_add(&f, 4, "network on");
	cr_expect_eq(fx_run(&f, sb_check_names), 1);
	HAS(&f, "n.sbx:3:1: error: a second `default` statement; a policy has one [duplicate]");
	HAS(&f, "n.sbx:1:1: note: the first one is here");
	HASNT(&f, "n.sbx:4:");
}

Test(check_names, repeated_rule)
{
	fx_add(&f, 2, "deny write ~/a /b");
	fx_add(&f, 3, "deny write /b home/a");
	fx_add(&f, 4, "allow write /b ~/a");
	fx_add(&f, 5, "deny write read /b ~/a");
	cr_expect_eq(fx_run(&f, sb_check_names), 0);
	HAS(&f, "n.sbx:3:1: warning: this rule repeats an earlier one; remove one of them [duplicate]");
	HAS(&f, "n.sbx:2:1: note: the earlier rule is here");
	HASNT(&f, "n.sbx:4:");
	HASNT(&f, "n.sbx:5:");
}

Test(check_names, unfiltered_repeat)
{
	fx_add(&f, 2, "deny write");
	fx_add(&f, 3, "deny write /x");
	fx_add(&f, 4, "deny write");
	fx_run(&f, sb_check_names);
	HAS(&f, "n.sbx:4:1: warning: this rule repeats an earlier one");
	HASNT(&f, "n.sbx:3:");
}

Test(check_names, same_target_twice)
{
	fx_add(&f, 2, "allow read /opt/x ~/y /opt/x/");
	fx_add(&f, 3, "allow read /opt/x exactly /opt/x");
	cr_expect_eq(fx_run(&f, sb_check_names), 0);
	HAS(&f, "n.sbx:2:23: warning: the same target appears twice in this rule [duplicate]");
	HAS(&f, "n.sbx:2:12: note: first named here");
	HASNT(&f, "n.sbx:3:");
}

Test(check_names, empty_reason)
{
	fx_add(&f, 2, "allow read ~/.gitconfig ack=sensitive why=");
	fx_add(&f, 3, "allow read / ack=wide");
	fx_add(&f, 4, "allow read / ack=wide why=___");
	cr_expect_eq(fx_run(&f, sb_check_names), 3);
	HAS(&f, "n.sbx:2:1: error: `acknowledge` needs a reason: say why this grant is safe [empty]");
	HAS(&f, "n.sbx:3:1: error:");
	HAS(&f, "n.sbx:4:1: error:");
}

Test(check_names, unused_list)
{
	fx_add(&f, 2, "list UNUSED");
	fx_add(&f, 3, "list USED");
	fx_add(&f, 4, "deny read $USED");
	cr_expect_eq(fx_run(&f, sb_check_names), 0);
	HAS(&f, "n.sbx:2:1: warning: list $UNUSED is declared but no rule uses it [unused]");
	HASNT(&f, "list $USED is declared");
}
