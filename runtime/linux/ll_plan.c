#ifdef __linux__ /* Linux only; other systems: runtime/linux/linux_other.c */
/* ll_plan.c - bound profile IR -> one Landlock ruleset (plan).
 *
 * Soundness is the contract: the kernel must never allow a file access that
 * sb_eval_decide() denies for the same bound profile.  The planner gets there in
 * three steps, each of which can only make Linux stricter:
 *  1. "linuxize" the profile: an ALLOW filter Landlock cannot express
 *     (regex, prefix, vnode-type, require-*, opaque, unbound) is dropped, and
 *     a DENY filter is widened to the subpath of its literal prefix.  Dropping
 *     an allow or widening a deny never turns a deny into an allow under the
 *     last-match model, so decide(P') is narrower than decide(P).
 *  2. P' has only literal/subpath filters, so every path's decision equals
 *     that of a candidate point (a filter path) or of a "generic child" of
 *     one.  A subtree is uniformly allowed iff every point inside it is.
 *  3. complement expansion (ll_expand.c) puts a rule on each node whose
 *     subtree is uniformly allowed, descending into mixed ones; forced denies
 *     (/dev, $XDG_RUNTIME_DIR, bind-mount aliases) and an alias check on
 *     every rule close the inode-sharing leaks.
 * This file runs the steps in order (sb_ll_plan_build); each step is a
 * file of its own, listed in runtime/linux/ll_plan_internal.h.  The view a
 * point is classified in (forced denies, masks, the expansion's walk) is a
 * parameter of each call (llp_view), not a mode of the planner.  */
#include "runtime/linux/linux.h"
#include "runtime/linux/ll_internal.h"
#include "runtime/linux/ll_plan_internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "compiler/eval/eval.h"
#include "compiler/common/strmap.h"
#include "compiler/common/xalloc.h"

static void list_paths(FILE *f, char *const *v, size_t n)
{
	for (size_t i = 0; i < n && i < 6; i++)
		fprintf(f, "%s%s", i ? ", " : "", v[i]);
	if (n > 6)
		fprintf(f, " and %zu more", n - 6);
}

/* One sentence for the launch: what breaks, and why.  */
static void build_warnings(planner *pl)
{
	sb_ll_plan *plan = pl->plan;
	/* Said at launch: a directory where new files cannot be created, and
	 * any narrowing when masks were wanted but could not be had.  An
	 * unlistable ancestor alone (the complement chosen on purpose) is
	 * left to --plan.  */
	if (!pl->breaks.nno_create && !(plan->fallback && pl->breaks.nno_list))
		return;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = xopen_memstream(&buf, &len);
	fputs("the Linux sandbox is narrower than the policy here", f);
	if (plan->fallback)
		fprintf(f, " (masks unavailable: %s; the complement expansion enforces the "
			   "denies)", plan->fallback);
	if (pl->breaks.nno_create) {
		fputs(": new files cannot be created directly in ", f);
		list_paths(f, pl->breaks.no_create, pl->breaks.nno_create);
	}
	if (pl->breaks.nno_list) {
		fputs(pl->breaks.nno_create ? "; listing fails in " : ": listing fails in ", f);
		list_paths(f, pl->breaks.no_list, pl->breaks.nno_list);
	}
	if (pl->breaks.nmissing) {
		fputs("; denied paths that do not exist cannot be masked: ", f);
		list_paths(f, pl->breaks.missing, pl->breaks.nmissing);
		fputs(" (create them before the launch to lift this)", f);
	}
	fclose(f);
	SB_GROW(plan->warnings, plan->nwarnings, plan->cap_warnings, 4);
	plan->warnings[plan->nwarnings++] = buf;
}

/* ---- entry points ---- */

static double now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static void planner_clear(planner *pl)
{
	sb_strv_free(pl->cand, pl->ncand);
	for (size_t i = 0; i < pl->nforced; i++) {
		free(pl->forced[i].path);
		free(pl->forced[i].why);
	}
	free(pl->forced);
	sb_strv_free(pl->breaks.no_create, pl->breaks.nno_create);
	sb_strv_free(pl->breaks.no_list, pl->breaks.nno_list);
	sb_strv_free(pl->breaks.missing, pl->breaks.nmissing);
	free(pl->memo.dir);
	free(pl->memo.mask_below);
	if (pl->allowed_memo)
		sb_strmap_free(pl->allowed_memo);
	if (pl->deny_rule_memo)
		sb_strmap_free(pl->deny_rule_memo);
	sb_eval_free(pl->ev);
	sb_ll_stats_free(pl->stats);
	sb_profile_free(pl->lp);
	memset(pl, 0, sizeof *pl);
}

int sb_ll_plan_build(const sb_profile *bound, const sb_linux_opts *o, sb_ll_plan **out, sb_diag *d)
{
	double t0 = now_ms();
	sb_ll_plan *plan = xcalloc(1, sizeof *plan);
	planner pl = { .orig = bound, .plan = plan, .d = d, .stats = sb_ll_stats_new() };
	*out = NULL;   /* the plan is handed over only when it is complete */
	plan->bound = bound;
	sb_ll_probe_kernel(&plan->probe);
	plan->plan_abi = plan->probe.eff_abi > 0 ? plan->probe.eff_abi : SB_LL_MAX_KNOWN_ABI;
	plan->home = o->home ? xstrdup(o->home) : NULL;

	sb_llp_linuxize(&pl, o);
	sb_llp_collect_candidates(&pl);
	sb_ll_scan_other_ops(bound, plan, o);

	/* forced denies: /dev (replaced by the device allowlist) and the
	 * per-user runtime dir (agent sockets, podman auth).  */
	sb_llp_add_forced(&pl, "/dev", R_ALL, "devices: the allowlist replaces /dev");
	char runtime_dir[64];
	snprintf(runtime_dir, sizeof runtime_dir, "/run/user/%u", (unsigned)o->uid);
	struct stat st;
	if (sb_ll_stat(pl.stats, runtime_dir, &st) == 0)
		sb_llp_add_forced(&pl, runtime_dir, R_ALL, "the per-user runtime directory");
	const char *xdg = o->xdg_runtime_dir;
	char *xdg_real = xdg && xdg[0] == '/' ? realpath(xdg, NULL) : NULL;
	if (xdg_real) {
		sb_llp_add_forced(&pl, xdg_real, R_ALL, "the per-user runtime directory");
		free(xdg_real);
	}
	sb_mounts m = { 0 };
	if (sb_mounts_read(&m, "/proc/self/mountinfo") < 0)
		sb_ll_rules_note(&plan->r, SB_LL_NOTE_INFO, NULL, 0,
				 "cannot read /proc/self/mountinfo: bind-mount aliases not checked");
	sb_llp_add_pseudo_fs(&pl, &m);
	sb_llp_add_aliases(&pl, &m);
	plan->allow_shm = o->allow_shm;
	int mrc = sb_llp_plan_mechanism(&pl, o);

	int erc = mrc ? 0
		      : sb_ll_expand_names(&plan->r, "/", R_ALL, sb_llp_classify,
					   sb_llp_names_to_visit, &pl);
	if (mrc || erc < 0) {
		if (erc < 0)
			sb_diag_report(d, SB_SEV_ERROR, NULL, "landlock", "cannot open /: %s",
				       strerror(errno));
		sb_mounts_clear(&m);
		planner_clear(&pl);
		sb_ll_plan_free(plan);
		return SB_REFUSED;
	}
	/* the device rules follow decide() alone, also where /dev is masked */
	sb_llp_add_devices(&pl, o);
	sb_llp_check_rule_aliases(&pl, &m);
	sb_mounts_clear(&m);
	build_warnings(&pl);

	planner_clear(&pl);
	plan->plan_ms = now_ms() - t0;

	if (plan->unenforceable && !o->allow_unenforceable) {
		for (size_t i = 0; i < plan->r.nnotes; i++) {
			const sb_ll_note *n = &plan->r.notes[i];
			if (n->kind != SB_LL_NOTE_UNENFORCEABLE)
				continue;
			sb_loc loc = { .file = n->src_file, .line = n->src_line };
			sb_diag_report(d, SB_SEV_ERROR, n->src_file ? &loc : NULL, "not-enforceable",
				       "%s", n->text);
		}
		sb_diag_report(d, SB_SEV_NOTE, NULL, "not-enforceable",
			       "refusing to run: %zu deny rule(s) cannot be enforced on Linux; "
			       "pass --allow-unenforceable to run without them",
			       plan->unenforceable);
		sb_ll_plan_free(plan);
		return SB_REFUSED;
	}
	*out = plan;
	return 0;
}

size_t sb_ll_plan_rule_count(const sb_ll_plan *plan)
{
	return plan ? plan->r.n : 0;
}

void sb_ll_plan_free(sb_ll_plan *plan)
{
	if (!plan)
		return;
	sb_ll_rules_clear(&plan->r);
	sb_ll_masks_clear(&plan->masks);
	free(plan->fallback);
	free(plan->gate_off);
	free(plan->gate_inodes);
	sb_strv_free(plan->warnings, plan->nwarnings);
	free(plan->home);
	free(plan);
}

const sb_ll_rules *sb_ll_plan_rules(const sb_ll_plan *plan)
{
	return &plan->r;
}

bool sb_ll_plan_unix_block(const sb_ll_plan *plan)
{
	return plan->unix_block;
}

bool sb_ll_plan_net_block(const sb_ll_plan *plan)
{
	return plan->net_block;
}
#endif /* __linux__ */

