/* linux_other.c - the Linux backend's entry points on other systems (macOS,
 * the Homebrew build): they refuse, so the programs link there and can never
 * run a command unconfined through the Linux path.  Unverified on macOS.  */
#ifndef __linux__
#include <stdio.h>
#include "runtime/linux/landlock_sys.h"
#include "runtime/linux/linux.h"

struct sb_ll_plan {
	int unused;
};

static const char not_linux[] = "Landlock enforcement exists on Linux only";

int sb_ll_plan_build(const sb_profile *bound, const sb_linux_opts *o, sb_ll_plan **out,
		     sb_diag *d)
{
	(void)bound;
	(void)o;
	*out = NULL;
	sb_diag_report(d, SB_SEV_ERROR, NULL, "platform", "%s", not_linux);
	return SB_REFUSED;
}

void sb_ll_plan_print(const sb_ll_plan *plan, FILE *out)
{
	(void)plan;
	fprintf(out, "# %s\n", not_linux);
}

size_t sb_ll_plan_rule_count(const sb_ll_plan *plan)
{
	(void)plan;
	return 0;
}

bool sb_ll_plan_looks_absent(const sb_ll_plan *plan, const char *path)
{
	(void)plan;
	(void)path;
	return false;
}

void sb_ll_plan_free(sb_ll_plan *plan)
{
	(void)plan;
}

sb_status sb_linux_exec(const sb_ll_plan *plan, const sb_linux_opts *o, const char *path,
		  char *const argv[], char *const envp[], sb_diag *d)
{
	(void)plan;
	(void)o;
	(void)path;
	(void)argv;
	(void)envp;
	sb_diag_report(d, SB_SEV_ERROR, NULL, "platform", "%s", not_linux);
	return SB_REFUSED;
}

sb_status sb_linux_exec_traced(const sb_ll_plan *plan, const sb_linux_opts *o, const char *path,
			       char *const argv[], char *const envp[], struct sb_tracer *t,
			       int (*exit_status_of)(sb_status), int *cmd_status, sb_diag *d)
{
	(void)t;
	(void)exit_status_of;
	(void)cmd_status;
	return sb_linux_exec(plan, o, path, argv, envp, d);
}

int sb_linux_doctor(FILE *out, int refused_exit_status)
{
	fprintf(out, "status: unavailable (%s)\n", not_linux);
	return 1;
}

#ifdef SB_TEST_HOOKS
void sb_ll_test_clamp_abi(int abi)
{
	(void)abi;
}

void sb_ll_test_fail(const char *step, int err)
{
	(void)step;
	(void)err;
}

bool sb_ll_test_should_fail(const char *step, int *err)
{
	(void)step;
	(void)err;
	return false;
}
#endif
#endif /* !__linux__ */
