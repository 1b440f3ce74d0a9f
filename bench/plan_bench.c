/* plan_bench.c - time the Linux Landlock planner (sb_ll_plan_build) alone,
 * without process start-up, on a policy bound to a given home, workspace
 * and temp dir.  Used by bench/run.sh inside the tree made by gen_tree.sh.
 * Usage: plan_bench POLICY.sbx HOME WORKSPACE TMPDIR REPS
 * Prints "rules=<n> median_ms=<t> min_ms=<t> max_ms=<t> reps=<n>".  */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <string.h>
#include <time.h>
#include "compiler/front/ast.h"
#include "compiler/common/diag.h"
#include "compiler/ir/ir.h"
#include "runtime/linux/linux.h"
#include "runtime/linux/ll_internal.h"   /* sb_ll_mechanism */

static double now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* Bind the three roots; every list param is bound empty (no extras), as a
 * launch without OMP_SANDBOX_EXTRA_* would.  */
static sb_profile *bind_roots(const sb_profile *p, const char *home, const char *ws,
			      const char *tmp)
{
	sb_bindings b = {0};
	sb_bindings_set(&b, "HOME", home);
	sb_bindings_set(&b, "WORKSPACE", ws);
	sb_bindings_set(&b, "TMPDIR", tmp);
	size_t n = 0;
	sb_param *params = sb_profile_params(p, &n);
	for (size_t i = 0; i < n; i++)
		if (params[i].kind == SB_PARAM_LIST && !params[i].index)
			sb_bindings_set_list(&b, params[i].name, NULL, 0);
	sb_param_array_free(params, n);
	sb_profile *bound = sb_profile_bind(p, &b, NULL, NULL);
	sb_bindings_clear(&b);
	return bound;
}

int main(int argc, char **argv)
{
	if (argc != 6 && argc != 7) {
		fprintf(stderr, "usage: plan_bench POLICY.sbx HOME WORKSPACE TMPDIR REPS "
			"[auto|masks|complement]\n");
		return 2;
	}
	sb_ll_mechanism mech = SB_LL_MECH_AUTO;
	if (argc == 7 && strcmp(argv[6], "masks") == 0)
		mech = SB_LL_MECH_MASK;
	else if (argc == 7 && strcmp(argv[6], "complement") == 0)
		mech = SB_LL_MECH_COMPLEMENT;
	else if (argc == 7 && strcmp(argv[6], "auto") != 0) {
		fprintf(stderr, "plan_bench: bad mechanism %s\n", argv[6]);
		return 2;
	}
	int reps = atoi(argv[5]);
	if (reps < 1 || reps > 100000) {
		fprintf(stderr, "plan_bench: bad REPS\n");
		return 2;
	}
	sb_diag *d = sb_diag_new(stderr, SB_FMT_TEXT);
	sbx_policy *pol = sbx_parse(argv[1], NULL, 0, d);
	sb_profile *prof = pol ? sbx_lower(pol, NULL, d) : NULL;
	sb_profile *bound = prof ? bind_roots(prof, argv[2], argv[3], argv[4]) : NULL;
	if (!bound) {
		fprintf(stderr, "plan_bench: cannot compile and bind %s\n", argv[1]);
		return 1;
	}
	sb_linux_opts o = {.home = argv[2], .min_abi = 1, .mechanism = mech, .uid = getuid(),
			   .xdg_runtime_dir = getenv("XDG_RUNTIME_DIR")};
	double *t = calloc((size_t)reps, sizeof *t);
	size_t rules = 0;
	for (int i = 0; i < reps; i++) {
		sb_ll_plan *plan = NULL;
		double t0 = now_ms();
		int rc = sb_ll_plan_build(bound, &o, &plan, d);
		t[i] = now_ms() - t0;
		if (rc != 0 || !plan) {
			fprintf(stderr, "plan_bench: plan failed (%d)\n", rc);
			return 1;
		}
		rules = sb_ll_plan_rule_count(plan);
		sb_ll_plan_free(plan);
	}
	qsort(t, (size_t)reps, sizeof *t, cmp_double);
	printf("rules=%zu median_ms=%.3f min_ms=%.3f max_ms=%.3f reps=%d\n", rules,
	       t[reps / 2], t[0], t[reps - 1], reps);
	free(t);
	sb_profile_free(bound);
	sb_profile_free(prof);
	sbx_policy_free(pol);
	sb_diag_free(d);
	return 0;
}
