/* ll_run - test driver for the Linux backend until sbrun is in main:
 *   ll_run -p SPEC [-D NAME=VALUE]... [--home H] [--plan|--count|--doctor]
 *          [--clamp-abi N] [--fail STEP:ERRNO] [--min-abi N]
 *          [--allow-unsandboxed] [--allow-unenforceable] [--allow-shm]
 *          [--mechanism auto|masks|complement]
 *          -- /abs/cmd args...
 * Builds the plan from a llspec profile (llspec.h) and runs the command
 * through sb_linux_exec.  Test hooks (--clamp-abi, --fail) exist only here
 * (libsbrt-test).  */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <string.h>

#include "compiler/common/diag.h"
#include "compiler/common/path.h"
#include "runtime/linux/landlock_sys.h"
#include "runtime/linux/linux.h"
#include "runtime/linux/ll_internal.h"
#include "llspec.h"
#include "compiler/common/exit_status.h"

extern char **environ;

static int errno_of(const char *s)
{
	static const struct { const char *n; int e; } t[] = {
		{ "ENOSYS", ENOSYS }, { "EOPNOTSUPP", EOPNOTSUPP }, { "EPERM", EPERM },
		{ "EINVAL", EINVAL }, { "E2BIG", E2BIG }, { "EACCES", EACCES },
	};
	for (size_t i = 0; i < sizeof t / sizeof *t; i++)
		if (!strcmp(s, t[i].n))
			return t[i].e;
	return atoi(s);
}

/* As runtime/cli/run.c does for sbrun.  */
static int exit_status_of(int rc)
{
	return rc == SB_CMD_NOT_FOUND ? SB_EXIT_NOTFOUND
	     : rc == SB_CMD_NOT_EXECUTABLE ? SB_EXIT_NOEXEC
	     : rc < 0 ? SB_EXIT_SETUP : rc;
}

int main(int argc, char **argv)
{
	const char *spec = NULL;
	llspec_def defs[64];
	size_t ndefs = 0;
	bool plan_only = false, count = false, doctor = false;
	sb_linux_opts o = { .min_abi = SB_LL_MIN_ABI_DEFAULT, .uid = getuid(),
			    .xdg_runtime_dir = getenv("XDG_RUNTIME_DIR") };
	int i;
	for (i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "--"))
			break;
		if (!strcmp(a, "-p") && i + 1 < argc)
			spec = argv[++i];
		else if (!strcmp(a, "-D") && i + 1 < argc && ndefs < 64) {
			const char *kv = argv[++i], *eq = strchr(kv, '=');
			if (!eq)
				return 2;
			snprintf(defs[ndefs].name, sizeof defs[ndefs].name, "%.*s", (int)(eq - kv), kv);
			/* As sbrun binds launch paths: /tmp, /var, /etc in their
			 * /private form, or a rule on them never matches (a
			 * checkout under /tmp made the probe unreadable).  */
			char *v = eq[1] == '/' ? sb_path_private_alias(eq + 1) : strdup(eq + 1);
			snprintf(defs[ndefs].value, sizeof defs[ndefs].value, "%s", v ? v : "");
			free(v);
			ndefs++;
		} else if (!strcmp(a, "--home") && i + 1 < argc)
			o.home = argv[++i];
		else if (!strcmp(a, "--plan"))
			plan_only = true;
		else if (!strcmp(a, "--count"))
			count = true;
		else if (!strcmp(a, "--doctor"))
			doctor = true;
		else if (!strcmp(a, "--clamp-abi") && i + 1 < argc)
			sb_ll_test_clamp_abi(atoi(argv[++i]));
		else if (!strcmp(a, "--min-abi") && i + 1 < argc)
			o.min_abi = atoi(argv[++i]);
		else if (!strcmp(a, "--fail") && i + 1 < argc) {
			char step[32];
			const char *c = strchr(argv[++i], ':');
			if (!c)
				return 2;
			snprintf(step, sizeof step, "%.*s", (int)(c - argv[i]), argv[i]);
			sb_ll_test_fail(step, errno_of(c + 1));
		} else if (!strcmp(a, "--allow-unsandboxed"))
			o.allow_unsandboxed = true;
		else if (!strcmp(a, "--allow-unenforceable"))
			o.allow_unenforceable = true;
		else if (!strcmp(a, "--mechanism") && i + 1 < argc) {
			const char *m = argv[++i];
			o.mechanism = !strcmp(m, "masks") ? SB_LL_MECH_MASK
				      : !strcmp(m, "complement") ? SB_LL_MECH_COMPLEMENT : SB_LL_MECH_AUTO;
		}
		else if (!strcmp(a, "--allow-shm"))
			o.allow_shm = true;
		else {
			fprintf(stderr, "ll_run: unknown option %s\n", a);
			return 2;
		}
	}
	if (doctor)
		return sb_linux_doctor(stdout, SB_EXIT_SETUP);
	if (!spec || (!plan_only && !count && i + 1 >= argc)) {
		fprintf(stderr, "usage: ll_run -p SPEC [-D N=V]... -- CMD ARGS...\n");
		return 2;
	}
	sb_diag *d = sb_diag_new(stderr, SB_FMT_TEXT);
	sb_diag_set_tool(d, "ll_run");
	sb_profile *p = llspec_load_any(spec, defs, ndefs, d);
	if (!p)
		return 2;
	sb_ll_plan *plan = NULL;
	int rc = sb_ll_plan_build(p, &o, &plan, d);
	if (plan_only || count) {
		if (plan_only && plan)
			sb_ll_plan_print(plan, stdout);
		if (count)
			printf("rules %zu\n", sb_ll_plan_rule_count(plan));
	} else if (rc == 0) {
		rc = sb_linux_exec(plan, &o, argv[i + 1], argv + i + 1, environ, d);
	}
	sb_ll_plan_free(plan);
	sb_profile_free(p);
	sb_diag_free(d);
	return exit_status_of(rc);
}
