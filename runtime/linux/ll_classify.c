#ifdef __linux__ /* Linux only; other systems: runtime/linux/linux_other.c */
/* ll_classify.c - the planner's symbolic classification (ll_plan.c, step
 * 2): what decide() allows at a point, in all of a subtree and in some of
 * it, with what the masks add back and the forced denies take away; the
 * classifier the complement expansion (ll_expand.c) calls.  */
#include "runtime/linux/linux.h"
#include "runtime/linux/ll_internal.h"
#include "runtime/linux/ll_plan_internal.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/common/path.h"
#include "compiler/common/strmap.h"
#include "compiler/common/xalloc.h"

static const char generic_child[] = ".sb-any-name";

static uint64_t allowed_uncached(planner *pl, const char *point);

/* decide() of the five operations at a point, remembered: classifying a
 * directory asks again about every candidate below it, so the points
 * near the root were decided once per ancestor (bench/analysis.md,
 * launch).  The linuxized profile is complete before the first question
 * (sb_llp_linuxize), so an answer never goes stale.  */
uint64_t sb_llp_allowed_at(planner *pl, const char *point)
{
	if (!pl->allowed_memo)
		pl->allowed_memo = sb_strmap_new();
	void **slot = sb_strmap_slot(pl->allowed_memo, point, strlen(point), true);
	if (*slot)   /* stored + 1: a created slot holds NULL */
		return (uint64_t)((uintptr_t)*slot - 1);
	uint64_t m = allowed_uncached(pl, point);   /* touches only deny_rule_memo: the slot stays */
	*slot = (void *)(uintptr_t)(m + 1);
	return m;
}

/* The first rule, in the order of sb_llp_queried_ops, that denies an
 * operation at a point, or NULL: remembered by sb_llp_allowed_at, so the
 * masks' source (cb_src in ll_mechanism.c) needs no decide() of its own.  */
const sb_rule *sb_llp_deny_rule_at(planner *pl, const char *point)
{
	sb_llp_allowed_at(pl, point);
	if (!pl->deny_rule_memo)
		return NULL;
	void **slot = sb_strmap_slot(pl->deny_rule_memo, point, strlen(point), false);
	return slot ? *slot : NULL;
}

static uint64_t allowed_uncached(planner *pl, const char *point)
{
	bool ok[Q_N];
	const sb_rule *deny_rule = NULL;
	for (size_t i = 0; i < Q_N; i++) {
		sb_decision d = sb_llp_decide_indexed(pl, sb_llp_queried_ops[i], point);
		ok[i] = d.kind == SB_DEC_ALLOW;
		if (!ok[i] && d.rule && !deny_rule)
			deny_rule = d.rule;
		if (d.kind == SB_DEC_UNKNOWN && !pl->unknown_noted) {
			pl->unknown_noted = true;
			sb_ll_rules_note(&pl->plan->r, SB_LL_NOTE_NARROWER,
					 d.rule ? sb_llp_rule_file(d.rule) : NULL, d.rule ? sb_llp_rule_line(d.rule) : 0,
					 "an undecidable rule (%s) is treated as deny",
					 d.reason ? d.reason : "unknown");
		}
	}
	if (deny_rule) {
		if (!pl->deny_rule_memo)
			pl->deny_rule_memo = sb_strmap_new();
		*sb_strmap_slot(pl->deny_rule_memo, point, strlen(point), true) = (void *)deny_rule;
	}
	uint64_t m = 0;
	if (ok[Q_READ])
		m |= R_READ;
	if (ok[Q_READ] && ok[Q_EXEC])
		m |= SB_LL_EXECUTE;
	if (ok[Q_WRITE])
		m |= R_WRITE;
	if (ok[Q_CREATE])
		m |= R_CREATE;
	if (ok[Q_UNLINK])
		m |= R_UNLINK;
	if (ok[Q_CREATE] && ok[Q_UNLINK])
		m |= SB_LL_REFER;
	return m;
}

/* What the Landlock rules may grant at a point: decide(), plus, with
 * `masks`, what a mask there takes away (ll_masks.c).  */
static uint64_t allowed_eff(planner *pl, const char *point, bool masks)
{
	uint64_t a = sb_llp_allowed_at(pl, point);
	if (masks)
		a |= sb_ll_masks_addback(&pl->plan->masks, point);
	return a;
}

/* A child of `p` no rule names: what any other entry there is decided as.  */
char *sb_llp_generic(const char *p)
{
	/* one allocation and two copies: called for every point the plan
	 * classifies, where xasprintf's formatting showed in callgrind */
	size_t n = strcmp(p, "/") == 0 ? 0 : strlen(p), k = strlen(generic_child);
	char *g = xmalloc(n + 1 + k + 1);
	memcpy(g, p, n);
	g[n] = '/';
	memcpy(g + n + 1, generic_child, k + 1);
	return g;
}

/* An entry no candidate, mask or bound-back path is at or below: with
 * name-blind rules, decide() and the masks answer for it exactly as for
 * any sibling of the same kind, so the expansion decides once per
 * directory (bench/analysis.md, planning).  */
static bool plain_point(planner *pl, const char *path)
{
	if (!pl->name_blind)
		return false;
	/* cand is sorted: the names that start with `path` are contiguous
	 * from its lower bound, and every candidate at or below it is one.  */
	size_t lo = 0, hi = pl->ncand, n = strlen(path);
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (strcmp(pl->cand[mid], path) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (size_t i = lo; i < pl->ncand && strncmp(pl->cand[i], path, n) == 0; i++)
		if (sb_path_is_under(pl->cand[i], path))
			return false;
	/* the mask points below the entry's directory (memo_enter_dir) */
	for (size_t i = 0; i < pl->memo.nmask_below; i++)
		if (sb_path_is_under(pl->memo.mask_below[i], path))
			return false;
	return true;
}

/* The expansion lists a directory's entries in a row: remember the
 * directory, reset the memo of its plain entries, and keep the mask
 * points (masked paths, paths bound back) below it, so plain_point()
 * looks at those few instead of every mask for each of its entries.  */
static void memo_enter_dir(planner *pl, const char *path, size_t dlen, bool masks)
{
	if (pl->memo.dir && strlen(pl->memo.dir) == dlen && memcmp(pl->memo.dir, path, dlen) == 0)
		return;
	free(pl->memo.dir);
	pl->memo.dir = xstrndup(path, dlen);
	pl->memo.set[0] = pl->memo.set[1] = false;
	pl->memo.nmask_below = 0;
	if (!masks)
		return;
	for (size_t i = 0; i < pl->plan->masks.n; i++) {
		const sb_ll_mask *m = &pl->plan->masks.v[i];
		for (size_t k = 0; k <= m->nexpose; k++) {
			const char *x = k == 0 ? m->path : m->expose[k - 1].path;
			/* memo.dir is "" for "/" */
			if (!sb_path_is_strictly_under(x, dlen ? pl->memo.dir : "/"))
				continue;
			SB_GROW(pl->memo.mask_below, pl->memo.nmask_below, pl->memo.cap_mask_below, 8);
			pl->memo.mask_below[pl->memo.nmask_below++] = x;
		}
	}
}

static void classify_uncached(planner *pl, const char *path, bool is_dir, bool masks,
			      uint64_t *all, uint64_t *any);

/* What is allowed in all of the subtree at `path` and in some of it
 * (decide() at the point, its generic child and every candidate below).
 * The memo is the expansion's only: its entries come a directory at a
 * time, with one view.  */
void sb_llp_classify_points(planner *pl, const char *path, bool is_dir, llp_view v,
			    uint64_t *all, uint64_t *any)
{
	const char *slash = strrchr(path, '/');
	if (v.expanding && slash)
		memo_enter_dir(pl, path, (size_t)(slash - path), v.masks);
	if (!v.expanding || !slash || !plain_point(pl, path)) {
		classify_uncached(pl, path, is_dir, v.masks, all, any);
		return;
	}
	if (!pl->memo.set[is_dir]) {
		classify_uncached(pl, path, is_dir, v.masks, &pl->memo.all[is_dir],
				  &pl->memo.any[is_dir]);
		pl->memo.set[is_dir] = true;
	}
	*all = pl->memo.all[is_dir];
	*any = pl->memo.any[is_dir];
}

static void classify_uncached(planner *pl, const char *path, bool is_dir, bool masks,
			      uint64_t *all, uint64_t *any)
{
	uint64_t a = allowed_eff(pl, path, masks);
	*all = a;
	*any = a;
	if (!is_dir)
		return;
	char *g = sb_llp_generic(path);
	a = allowed_eff(pl, g, masks);
	free(g);
	*all &= a;
	*any |= a;
	for (size_t i = 0; i < pl->ncand; i++) {
		if (!sb_path_is_strictly_under(pl->cand[i], path))
			continue;
		a = allowed_eff(pl, pl->cand[i], masks);
		*all &= a;
		*any |= a;
		g = sb_llp_generic(pl->cand[i]);
		a = allowed_eff(pl, g, masks);
		free(g);
		*all &= a;
		*any |= a;
	}
}

/* A directory the expansion leaves without a right decide() grants on it:
 * new entries there, or listing it, fail.  Said at launch (linux_exec.c).  */
static void note_breaking(planner *pl, const char *path, uint64_t mixed, bool masks)
{
	if (masks && sb_ll_masks_hidden(&pl->plan->masks, path))
		return;   /* a mask's own doing: the plan lists it */
	if (mixed & SB_LL_MAKE_REG) {   /* most entries: not mixed, no child path built */
		char *g = sb_llp_generic(path);
		if (sb_llp_allowed_at(pl, g) & SB_LL_MAKE_REG)
			sb_strv_push_unique(&pl->breaks.no_create, &pl->breaks.nno_create, path);
		free(g);
	}
	if ((mixed & SB_LL_READ_DIR) && (sb_llp_allowed_at(pl, path) & SB_LL_READ_DIR))
		sb_strv_push_unique(&pl->breaks.no_list, &pl->breaks.nno_list, path);
}

/* The rights in `want` allowed in all of the subtree at `path`, and those
 * allowed in some of it (the expansion descends there), seen as `v` says.  */
void sb_llp_classify_at(planner *pl, const char *path, bool is_dir, uint64_t want, llp_view v,
			uint64_t *allow_all, uint64_t *mixed)
{
	uint64_t all, any;
	sb_llp_classify_points(pl, path, is_dir, v, &all, &any);
	uint64_t mx = any & ~all;
	if (v.forced)
		for (size_t i = 0; i < pl->nforced; i++) {
			const forced *f = &pl->forced[i];
			if (f->masked)
				continue;
			if (sb_path_is_under(path, f->path)) {
				all &= ~f->mask;
				mx &= ~f->mask;
			} else if (is_dir && sb_path_is_strictly_under(f->path, path)) {
				mx |= all & f->mask;
				all &= ~f->mask;
			}
		}
	if (v.masks) {
		/* A rule on a hidden inode would never apply through the tmpfs
		 * (Landlock skips the hidden mount point) and could apply
		 * through a hard link elsewhere: no rule in a hidden tree, only
		 * descend towards the paths bound back in.  */
		int h = sb_ll_masks_hidden(&pl->plan->masks, path);
		if (h) {
			all = 0;
			mx = h > 1 ? want : 0;
		}
	}
	*allow_all = all & want;
	*mixed = mx & want;
	if (v.expanding && is_dir)
		note_breaking(pl, path, *mixed, v.masks);
}

void sb_llp_classify(void *ctx, const char *path, bool is_dir, uint64_t want,
		     uint64_t *allow_all, uint64_t *mixed)
{
	planner *pl = ctx;
	llp_view v = { .forced = true, .masks = pl->use_masks, .expanding = true };
	sb_llp_classify_at(pl, path, is_dir, want, v, allow_all, mixed);
}

/* Inside a hidden tree with paths bound back below (the home, /dev) the
 * classifier gives no rule to anything off the way to them: visit only
 * that way, not every entry (a /dev of a hundred nodes, a large home).  */
char **sb_llp_names_to_visit(void *ctx, const char *dir, size_t *n)
{
	planner *pl = ctx;
	if (!pl->use_masks || sb_ll_masks_hidden(&pl->plan->masks, dir) != 2)
		return NULL;
	char **names = sb_ll_masks_names_below(&pl->plan->masks, dir, n);
	return names ? names : xmalloc(sizeof *names);
}
#endif /* __linux__ */
