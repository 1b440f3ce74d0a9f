#ifdef __linux__ /* Linux only; other systems: runtime/linux/linux_other.c */
/* ll_mechanism.c - the planner's choice of mechanism (ll_plan.c): masks
 * where namespaces can be had, the write gate where seccomp can have a
 * listener, else the complement expansion; the masks themselves are
 * planned by ll_masks.c through the callbacks here.  */
#include "runtime/linux/linux.h"
#include "runtime/linux/ll_internal.h"
#include "runtime/linux/ll_plan_internal.h"

#include <stdlib.h>

#include "compiler/eval/eval.h"
#include "compiler/common/xalloc.h"

static uint64_t cb_allowed(void *ctx, const char *p)
{
	return sb_llp_allowed_at(ctx, p);
}

static uint64_t cb_below(void *ctx, const char *dir)
{
	char *g = sb_llp_generic(dir);
	uint64_t a = sb_llp_allowed_at(ctx, g);
	free(g);
	return a;
}

static void cb_missing(void *ctx, const char *p)
{
	planner *pl = ctx;
	sb_strv_push_unique(&pl->breaks.missing, &pl->breaks.nmissing, p);
}

/* The rule that denies something at (or just below) a mask point.  */
static void cb_src(void *ctx, const char *p, const char **file, int *line)
{
	planner *pl = ctx;
	char *g = sb_llp_generic(p);
	const char *pts[2] = { p, g };
	*file = NULL;
	*line = 0;
	/* the classification decided both points already (sb_llp_allowed_at
	 * remembers the denying rule): no decide() of its own */
	for (size_t k = 0; k < 2 && !*line; k++) {
		const sb_rule *r = sb_llp_deny_rule_at(pl, pts[k]);
		if (r) {
			*file = sb_llp_rule_file(r);
			*line = sb_llp_rule_line(r);
		}
	}
	free(g);
}

/* Masks where namespaces can be had, and the write gate where seccomp
 * can have a listener; returns SB_REFUSED when masks were demanded
 * (--mechanism masks) and cannot be had.  */
int sb_llp_plan_mechanism(planner *pl, const sb_linux_opts *o)
{
	sb_ll_plan *plan = pl->plan;
	plan->mechanism = "complement expansion";
	bool mounts = o->mechanism != SB_LL_MECH_COMPLEMENT;
	bool gate = o->gate != SB_LL_GATE_OFF;
	if (!mounts && !gate)
		return 0;
	char **fp = xcalloc(pl->nforced + 1, sizeof *fp);
	uint64_t *fm = xcalloc(pl->nforced + 1, sizeof *fm);
	const char **fw = xcalloc(pl->nforced + 1, sizeof *fw);
	bool *fmasked = xcalloc(pl->nforced + 1, sizeof *fmasked);
	for (size_t i = 0; i < pl->nforced; i++) {
		fp[i] = pl->forced[i].path;
		fm[i] = pl->forced[i].mask;
		fw[i] = pl->forced[i].why;
		fmasked[i] = false;
	}
	sb_ll_mask_input in = {
		.ctx = pl, .allowed = cb_allowed, .allowed_below = cb_below,
		.missing = cb_missing, .src = cb_src, .cand = pl->cand, .ncand = pl->ncand,
		.forced = fp, .forced_mask = fm, .forced_why = fw, .forced_masked = fmasked,
		.nforced = pl->nforced, .allow_shm = o->allow_shm, .mounts = mounts, .gate = gate,
		.terminals = o->terminals, .nterminals = o->nterminals, .stats = pl->stats,
	};
	sb_ll_masks_plan(plan, &in);
	char why[256];
	if (sb_ll_masks_gated(&plan->masks) && !sb_gate_available(why, sizeof why)) {
		/* the masks and the complement take the gate's denies */
		plan->gate_off = xstrdup(why);
		sb_ll_rules_note(&plan->r, SB_LL_NOTE_NARROWER, NULL, 0,
				 "write gate unavailable (%s): masks and the complement expansion "
				 "enforce the write denies", why);
		sb_ll_masks_clear(&plan->masks);
		sb_strv_free(pl->breaks.missing, pl->breaks.nmissing);
		pl->breaks.missing = NULL;
		pl->breaks.nmissing = 0;
		in.gate = gate = false;
		for (size_t i = 0; i < pl->nforced; i++)
			fmasked[i] = false;
		if (mounts)
			sb_ll_masks_plan(plan, &in);
	}
	int rc = 0;
	bool userns = false;
	if (sb_ll_masks_mounts(&plan->masks) == 0) {
		/* nothing to mount: no namespace */
	} else if (!sb_ns_masks_available(&userns, why, sizeof why)) {
		plan->fallback = xstrdup(why);
		sb_ll_masks_clear(&plan->masks);
		sb_strv_free(pl->breaks.missing, pl->breaks.nmissing);
		pl->breaks.missing = NULL;
		pl->breaks.nmissing = 0;
		sb_ll_rules_note(&plan->r, SB_LL_NOTE_NARROWER, NULL, 0,
				 "masks unavailable (%s): the complement expansion enforces every "
				 "deny%s", why, gate ? " but the write gate's" : "");
		if (o->mechanism == SB_LL_MECH_MASK) {
			sb_diag_report(pl->d, SB_SEV_ERROR, NULL, "masks",
				       "masks were demanded (--mechanism masks) but cannot be "
				       "had: %s", why);
			rc = SB_REFUSED;
		}
		for (size_t i = 0; i < pl->nforced; i++)
			fmasked[i] = false;
		in.mounts = false;
		if (gate)
			sb_ll_masks_plan(plan, &in);
	} else {
		plan->userns = userns;
		plan->mechanism = userns ? "masks (user + mount namespace)"
					 : "masks (mount namespace)";
		for (size_t i = 0; i < pl->nforced; i++)
			pl->forced[i].masked = fmasked[i];
		/* bound-back paths are points of their own: decide() applies
		 * there, not what the mask around them adds back */
		for (size_t i = 0; i < plan->masks.n; i++)
			for (size_t k = 0; k < plan->masks.v[i].nexpose; k++)
				sb_llp_add_cand(pl, plan->masks.v[i].expose[k].path);
		sb_llp_sort_cand(pl);
	}
	if (plan->masks.n)
		pl->use_masks = true;   /* what a mask or the gate takes is added back */
	plan->gate = sb_ll_masks_gated(&plan->masks) > 0;
	if (plan->gate)
		sb_ll_masks_gate_inodes(&plan->masks, &plan->gate_inodes, &plan->ngate_inodes, 4096);
	free(fp);
	free(fm);
	free(fw);
	free(fmasked);
	return rc;
}
#endif /* __linux__ */
