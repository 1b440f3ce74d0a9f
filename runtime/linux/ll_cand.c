#ifdef __linux__ /* Linux only; other systems: runtime/linux/linux_other.c */
/* ll_cand.c - the planner's candidate points (ll_plan.c, step 2): every
 * literal or subpath of a relevant rule of the linuxized profile, in its
 * Linux spelling, sorted; and whether any rule looks at a name.  */
#include "runtime/linux/linux.h"
#include "runtime/linux/ll_internal.h"
#include "runtime/linux/ll_plan_internal.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "compiler/common/path.h"
#include "compiler/common/xalloc.h"

/* macOS spelling -> Linux path: /private/{tmp,var,etc}/x -> /{tmp,var,etc}/x.
 * decide() maps the other way, so the two agree.  */
static char *linux_path(const char *p)
{
	const char *stripped = sb_path_strip_private(p);
	return xstrdup(stripped ? stripped : p);
}

static bool macos_only(const char *p)
{
	static const char *const roots[] = {
		"/System", "/Library", "/Users", "/Applications", "/Volumes", "/private",
		"/var/folders", "/var/db", "/cores", "/Network",
	};
	for (size_t i = 0; i < sizeof roots / sizeof *roots; i++)
		if (sb_path_is_under(p, roots[i]))
			return true;
	return false;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void sb_llp_add_cand(planner *pl, const char *p)
{
	for (size_t i = 0; i < pl->ncand; i++)
		if (strcmp(pl->cand[i], p) == 0)
			return;
	SB_GROW(pl->cand, pl->ncand, pl->cap_cand, 32);
	pl->cand[pl->ncand++] = xstrdup(p);
}

/* A filter that decides on whole paths or on the node type only: two
 * entries of one directory that are neither candidates nor hold one match
 * it alike.  A prefix, a regex or an opaque filter can tell names apart.  */
static bool filter_name_blind(const sb_filter *f)
{
	switch (f->kind) {
	case SB_F_LITERAL:
	case SB_F_SUBPATH:
	case SB_F_VNODE_TYPE:
		return true;
	case SB_F_REQUIRE_ALL:
	case SB_F_REQUIRE_ANY:
	case SB_F_REQUIRE_NOT:
		for (size_t i = 0; i < f->nkids; i++)
			if (!filter_name_blind(f->kids[i]))
				return false;
		return true;
	default:
		return false;
	}
}

void sb_llp_collect_candidates(planner *pl)
{
	pl->name_blind = true;
	for (size_t i = 0; i < pl->lp->nrules; i++) {
		const sb_rule *r = pl->lp->rules[i];
		if (!sb_llp_rule_relevant(r))
			continue;
		for (size_t k = 0; k < r->nfilters; k++)
			if (!filter_name_blind(r->filters[k]))
				pl->name_blind = false;
	}
	sb_llp_add_cand(pl, "/");
	for (size_t i = 0; i < pl->lp->nrules; i++) {
		const sb_rule *r = pl->lp->rules[i];
		if (!sb_llp_rule_relevant(r))
			continue;
		for (size_t k = 0; k < r->nfilters; k++) {
			const sb_filter *f = r->filters[k];
			if (f->kind != SB_F_LITERAL && f->kind != SB_F_SUBPATH)
				continue;
			char *v = sb_str_value(f->arg);
			if (!v || v[0] != '/') {
				free(v);
				continue;
			}
			if (sb_path_is_private_aliased(v)) {
				sb_ll_rules_note(&pl->plan->r, SB_LL_NOTE_INFO, sb_llp_rule_file(r),
						 sb_llp_rule_line(r),
						 "%s never matches: Seatbelt and decide() see it as "
						 "/private%s; bind paths in their /private form", v, v);
				if (r->action == SB_DENY) {
					sb_loc loc = { .file = sb_llp_rule_file(r), .line = sb_llp_rule_line(r) };
					sb_diag_report(pl->d, SB_SEV_WARNING, loc.file ? &loc : NULL,
						       "sbpl-alias",
						       "deny on %s never matches (Seatbelt and decide() "
						       "see /private%s), so it protects nothing; bind "
						       "the /private form", v, v);
				}
			}
			const char *why = NULL;
			char *norm = sb_path_normalize(v, &why);
			char *lp = linux_path(norm ? norm : v);
			struct stat st;
			if (r->action == SB_ALLOW && sb_ll_lstat(pl->stats, lp, &st) < 0)
				sb_ll_rules_note(&pl->plan->r, SB_LL_NOTE_SKIPPED, sb_llp_rule_file(r),
						 sb_llp_rule_line(r), "%s: %s, skipped", v,
						 macos_only(v) ? "macOS-only path" : "does not exist here");
			else if (r->action == SB_ALLOW && f->kind == SB_F_LITERAL &&
				 S_ISDIR(st.st_mode))
				sb_ll_rules_note(&pl->plan->r, SB_LL_NOTE_NARROWER, sb_llp_rule_file(r),
						 sb_llp_rule_line(r),
						 "%s: a literal directory cannot be granted without "
						 "its subtree; it gets no rule of its own", v);
			sb_llp_add_cand(pl, lp);
			free(lp);
			free(norm);
			free(v);
		}
	}
	sb_llp_sort_cand(pl);
}

void sb_llp_sort_cand(planner *pl)
{
	qsort(pl->cand, pl->ncand, sizeof *pl->cand, cmp_str);
}
#endif /* __linux__ */
