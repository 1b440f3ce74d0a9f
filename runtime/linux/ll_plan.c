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
 *     every rule close the inode-sharing leaks.  */
#include "runtime/linux/linux.h"
#include "runtime/linux/ll_internal.h"

#include <errno.h>
#include <stdint.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "compiler/eval/eval.h"
#include "compiler/common/path.h"
#include "compiler/common/strmap.h"
#include "compiler/common/xalloc.h"


#define R_READ (SB_LL_READ_FILE | SB_LL_READ_DIR)
#define R_WRITE (SB_LL_WRITE_FILE | SB_LL_TRUNCATE)
#define R_CREATE (SB_LL_MAKE_REG | SB_LL_MAKE_DIR | SB_LL_MAKE_SYM | SB_LL_MAKE_FIFO | SB_LL_MAKE_SOCK)
#define R_UNLINK (SB_LL_REMOVE_FILE | SB_LL_REMOVE_DIR)
#define R_ALL (R_READ | SB_LL_EXECUTE | R_WRITE | R_CREATE | R_UNLINK | SB_LL_REFER)

/* The file operations whose decisions the plan enforces.  */
static const sb_op queried_ops[] = {
	SB_OP_FILE_READ_DATA, SB_OP_PROCESS_EXEC, SB_OP_FILE_WRITE_DATA,
	SB_OP_FILE_WRITE_CREATE, SB_OP_FILE_WRITE_UNLINK,
};
enum { Q_READ, Q_EXEC, Q_WRITE, Q_CREATE, Q_UNLINK, Q_N };

typedef struct forced {
	char *path;
	uint64_t mask;
	char *why;
	bool masked;               /* a mask enforces it (ll_masks.c) */
} forced;

typedef struct planner {
	const sb_profile *orig;
	sb_profile *lp;             /* linuxized profile (step 1) */
	sb_eval *ev;                /* decides for lp, made by lp_decide() */
	char **cand;                /* Linux candidate points, sorted, unique */
	size_t ncand;
	forced *forced;
	size_t nforced;
	sb_ll_plan *plan;
	bool no_forced;             /* classify without forced denies */
	bool use_masks;             /* add back what the masks take away */
	bool expanding;             /* classify() called by the expansion */
	sb_diag *d;
	bool unknown_noted;
	char **no_create, **no_list, **missing;   /* for the launch warning */
	size_t nno_create, nno_list, nmissing;
	bool name_blind;            /* no relevant rule looks at a name (see plain_point) */
	char *memo_dir;             /* classify_points() of a plain entry of memo_dir */
	bool memo_set[2];           /* [is_dir] */
	uint64_t memo_all[2], memo_any[2];
	sb_strmap *allowed_memo;    /* point -> allowed_at() + 1 (see allowed_at) */
	const char **mask_below;    /* mask points below memo_dir (memo_enter_dir) */
	size_t nmask_below, cap_mask_below;
} planner;

static const char generic_child[] = ".sb-any-name";

/* ---- step 1: linuxize ---- */

static bool op_relevant(sb_op op)
{
	for (size_t i = 0; i < Q_N; i++)
		for (sb_op o = queried_ops[i];; o = sb_op_parent(o)) {
			if (o == op)
				return true;
			if (o == SB_OP_DEFAULT)
				break;
		}
	return false;
}

static bool rule_relevant(const sb_rule *r)
{
	for (size_t i = 0; i < r->nops; i++)
		if (op_relevant(r->ops[i]))
			return true;
	return false;
}

static const char *rule_file(const sb_rule *r)
{
	return r->origin ? r->origin->file : r->loc.file;
}

static int rule_line(const sb_rule *r)
{
	return r->origin ? r->origin->line : r->loc.line;
}

/* The longest directory that contains every path a prefix or an anchored
 * regex can match, or NULL when there is none below "/".  */
static char *literal_dir(const char *s, bool is_regex)
{
	char buf[4096];
	size_t n = 0;
	const char *p = s;
	if (is_regex) {
		if (*p != '^')
			return NULL;
		p++;
		for (; *p && n + 1 < sizeof buf; p++) {
			if (*p == '\\' && p[1] && !strchr("0123456789bBdDsSwW", p[1])) {
				buf[n++] = *++p;
				continue;
			}
			if (strchr(".[]()|*+?{}$^\\", *p))
				break;
			buf[n++] = *p;
		}
		/* a quantifier applies to the previous char: drop it */
		if (*p && strchr("*?{", *p) && n)
			n--;
	} else {
		for (; *p && n + 1 < sizeof buf; p++)
			buf[n++] = *p;
	}
	buf[n] = '\0';
	char *slash = strrchr(buf, '/');
	if (!slash || slash == buf)
		return NULL;
	*slash = '\0';
	return xstrdup(buf);
}

/* Widen a deny filter to literal/subpath ones; returns false when the
 * widening would reach "/" (or cannot be computed).  */
static bool widen_deny(const sb_filter *f, sb_filter ***out, size_t *nout)
{
	char *v = f->arg ? sb_str_value(f->arg) : NULL;
	char *dir = NULL;
	bool ok = true;
	switch (f->kind) {
	case SB_F_LITERAL:
	case SB_F_SUBPATH:
		if (!v)
			ok = false;
		else {
			*out = xrealloc(*out, (*nout + 1) * sizeof **out);
			(*out)[(*nout)++] = sb_filter_clone(f);
		}
		break;
	case SB_F_PREFIX:
	case SB_F_REGEX:
		dir = v ? literal_dir(v, f->kind == SB_F_REGEX) : NULL;
		if (!dir)
			ok = false;
		else {
			*out = xrealloc(*out, (*nout + 1) * sizeof **out);
			(*out)[(*nout)++] = sb_filter_path(SB_F_SUBPATH, sb_str_lit(dir), f->loc);
		}
		break;
	case SB_F_REQUIRE_ANY:
		for (size_t i = 0; i < f->nkids && ok; i++)
			ok = widen_deny(f->kids[i], out, nout);
		break;
	case SB_F_REQUIRE_ALL:
		/* all of A, B: inside A, so A's widening covers it */
		ok = false;
		for (size_t i = 0; i < f->nkids && !ok; i++) {
			size_t before = *nout;
			ok = widen_deny(f->kids[i], out, nout);
			if (!ok)
				while (*nout > before)
					sb_filter_free((*out)[--*nout]);
		}
		break;
	default:
		ok = false;
	}
	free(v);
	free(dir);
	return ok;
}

/* Keep the exactly expressible parts of an allow filter.  */
static bool keep_allow(const sb_filter *f, sb_filter ***out, size_t *nout)
{
	bool exact = true;
	if ((f->kind == SB_F_LITERAL || f->kind == SB_F_SUBPATH)) {
		char *v = sb_str_value(f->arg);
		if (v) {
			*out = xrealloc(*out, (*nout + 1) * sizeof **out);
			(*out)[(*nout)++] = sb_filter_clone(f);
			free(v);
			return true;
		}
		return false;
	}
	if (f->kind == SB_F_REQUIRE_ANY) {
		for (size_t i = 0; i < f->nkids; i++)
			exact = keep_allow(f->kids[i], out, nout) && exact;
		return exact;
	}
	return false;
}

static const char *filter_kind_name(sb_filter_kind k)
{
	switch (k) {
	case SB_F_LITERAL: return "literal";
	case SB_F_SUBPATH: return "subpath";
	case SB_F_PREFIX: return "prefix";
	case SB_F_REGEX: return "regex";
	case SB_F_VNODE_TYPE: return "vnode-type";
	case SB_F_REQUIRE_ALL: return "require-all";
	case SB_F_REQUIRE_ANY: return "require-any";
	case SB_F_REQUIRE_NOT: return "require-not";
	default: return "opaque";
	}
}

/* The linuxized profile's decision; the evaluation context is made on the
 * first question, once the profile is complete (linuxize).  */
static sb_decision lp_decide(planner *pl, sb_op op, const char *path)
{
	if (!pl->ev)
		pl->ev = sb_eval_new(pl->lp, 0);
	return sb_eval_decide(pl->ev, op, path, 0);
}

/* The same answers through the rule index: the planner asks several
 * questions about each of many points (bench/analysis.md, launch).  */
static sb_decision lp_decide_indexed(planner *pl, sb_op op, const char *path)
{
	if (!pl->ev)
		pl->ev = sb_eval_new(pl->lp, 0);
	return sb_eval_decide_indexed(pl->ev, op, path, 0);
}

static int linuxize(planner *pl, const sb_linux_opts *o)
{
	sb_ll_plan *plan = pl->plan;
	pl->lp = sb_profile_new();
	pl->lp->version = pl->orig->version;
	/* Forms the reader kept but does not model make decide() answer
	 * "unknown" where they could matter; the plan treats that as deny.  */
	for (size_t i = 0; i < pl->orig->nunmodelled; i++) {
		const sb_unmodelled *u = &pl->orig->unmodelled[i];
		sb_profile_add_unmodelled(pl->lp, u->kind, u->text, u->reason, u->loc);
	}
	for (size_t i = 0; i < pl->orig->nrules; i++) {
		const sb_rule *r = pl->orig->rules[i];
		if (!rule_relevant(r) || r->nfilters == 0) {
			sb_profile_add_rule(pl->lp, sb_rule_clone(r));
			continue;
		}
		sb_filter **nf = NULL;
		size_t nn = 0;
		for (size_t k = 0; k < r->nfilters; k++) {
			const sb_filter *f = r->filters[k];
			if (r->action == SB_ALLOW) {
				if (!keep_allow(f, &nf, &nn))
					sb_ll_rules_note(&plan->r, SB_LL_NOTE_NARROWER, rule_file(r),
							 rule_line(r),
							 "allow with a %s filter cannot be expressed in "
							 "Landlock: dropped (Linux denies more)",
							 filter_kind_name(f->kind));
			} else {
				size_t before = nn;
				if (widen_deny(f, &nf, &nn)) {
					if (f->kind != SB_F_LITERAL && f->kind != SB_F_SUBPATH)
						sb_ll_rules_note(&plan->r, SB_LL_NOTE_NARROWER,
								 rule_file(r), rule_line(r),
								 "deny with a %s filter widened to the "
								 "subpath of its literal prefix",
								 filter_kind_name(f->kind));
				} else {
					while (nn > before)
						sb_filter_free(nf[--nn]);
					plan->unenforceable++;
					sb_ll_rules_note(&plan->r, SB_LL_NOTE_UNENFORCEABLE, rule_file(r),
							 rule_line(r),
							 "deny with a %s filter cannot be enforced by "
							 "Landlock%s",
							 filter_kind_name(f->kind),
							 o->allow_unenforceable ? " (ignored: opted in)" : "");
				}
			}
		}
		if (nn == 0) {           /* never leave a rule unfiltered */
			free(nf);
			continue;
		}
		sb_rule *c = sb_rule_new(r->action, r->loc);
		for (size_t k = 0; k < r->nops; k++)
			sb_rule_add_op(c, r->ops[k], r->op_names ? r->op_names[k] : NULL);
		for (size_t k = 0; k < nn; k++)
			sb_rule_add_filter(c, nf[k]);
		free(nf);
		c->origin = r->origin;
		sb_profile_add_rule(pl->lp, c);
	}
	return 0;
}

/* ---- candidates ---- */

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

static void add_cand(planner *pl, const char *p)
{
	for (size_t i = 0; i < pl->ncand; i++)
		if (strcmp(pl->cand[i], p) == 0)
			return;
	pl->cand = xrealloc(pl->cand, (pl->ncand + 1) * sizeof *pl->cand);
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

static void collect_candidates(planner *pl)
{
	pl->name_blind = true;
	for (size_t i = 0; i < pl->lp->nrules; i++) {
		const sb_rule *r = pl->lp->rules[i];
		if (!rule_relevant(r))
			continue;
		for (size_t k = 0; k < r->nfilters; k++)
			if (!filter_name_blind(r->filters[k]))
				pl->name_blind = false;
	}
	add_cand(pl, "/");
	for (size_t i = 0; i < pl->lp->nrules; i++) {
		const sb_rule *r = pl->lp->rules[i];
		if (!rule_relevant(r))
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
				sb_ll_rules_note(&pl->plan->r, SB_LL_NOTE_INFO, rule_file(r),
						 rule_line(r),
						 "%s never matches: Seatbelt and decide() see it as "
						 "/private%s; bind paths in their /private form", v, v);
				if (r->action == SB_DENY) {
					sb_loc loc = { .file = rule_file(r), .line = rule_line(r) };
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
			if (r->action == SB_ALLOW && lstat(lp, &st) < 0)
				sb_ll_rules_note(&pl->plan->r, SB_LL_NOTE_SKIPPED, rule_file(r),
						 rule_line(r), "%s: %s, skipped", v,
						 macos_only(v) ? "macOS-only path" : "does not exist here");
			else if (r->action == SB_ALLOW && f->kind == SB_F_LITERAL &&
				 S_ISDIR(st.st_mode))
				sb_ll_rules_note(&pl->plan->r, SB_LL_NOTE_NARROWER, rule_file(r),
						 rule_line(r),
						 "%s: a literal directory cannot be granted without "
						 "its subtree; it gets no rule of its own", v);
			add_cand(pl, lp);
			free(lp);
			free(norm);
			free(v);
		}
	}
	qsort(pl->cand, pl->ncand, sizeof *pl->cand, cmp_str);
}

/* ---- step 2: symbolic classification ---- */

static uint64_t allowed_uncached(planner *pl, const char *point);

/* decide() of the five operations at a point, remembered: classifying a
 * directory asks again about every candidate below it, so the points
 * near the root were decided once per ancestor (bench/analysis.md,
 * launch).  The linuxized profile is complete before the first question
 * (linuxize), so an answer never goes stale.  */
static uint64_t allowed_at(planner *pl, const char *point)
{
	if (!pl->allowed_memo)
		pl->allowed_memo = sb_strmap_new();
	void **slot = sb_strmap_slot(pl->allowed_memo, point, strlen(point), true);
	if (*slot)   /* stored + 1: a created slot holds NULL */
		return (uint64_t)((uintptr_t)*slot - 1);
	uint64_t m = allowed_uncached(pl, point);   /* touches no map: the slot stays */
	*slot = (void *)(uintptr_t)(m + 1);
	return m;
}

static uint64_t allowed_uncached(planner *pl, const char *point)
{
	bool ok[Q_N];
	for (size_t i = 0; i < Q_N; i++) {
		sb_decision d = lp_decide_indexed(pl, queried_ops[i], point);
		ok[i] = d.kind == SB_DEC_ALLOW;
		if (d.kind == SB_DEC_UNKNOWN && !pl->unknown_noted) {
			pl->unknown_noted = true;
			sb_ll_rules_note(&pl->plan->r, SB_LL_NOTE_NARROWER,
					 d.rule ? rule_file(d.rule) : NULL, d.rule ? rule_line(d.rule) : 0,
					 "an undecidable rule (%s) is treated as deny",
					 d.reason ? d.reason : "unknown");
		}
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

static char *generic(const char *p);

/* What the Landlock rules may grant at a point: decide(), plus what a mask
 * there takes away (ll_masks.c).  */
static uint64_t allowed_eff(planner *pl, const char *point)
{
	uint64_t a = allowed_at(pl, point);
	if (pl->use_masks)
		a |= sb_ll_masks_addback(&pl->plan->masks, point);
	return a;
}

static char *generic(const char *p)
{
	char *g = NULL;
	g = xasprintf("%s/%s", strcmp(p, "/") == 0 ? "" : p, generic_child);
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
	for (size_t i = 0; i < pl->nmask_below; i++)
		if (sb_path_is_under(pl->mask_below[i], path))
			return false;
	return true;
}

/* Is p strictly below the directory dir[0..dlen) ("" is "/")?  */
static bool below_dir(const char *p, const char *dir, size_t dlen)
{
	if (dlen == 0)
		return p[0] == '/' && p[1] != '\0';
	return strncmp(p, dir, dlen) == 0 && p[dlen] == '/' && p[dlen + 1] != '\0';
}

/* The expansion lists a directory's entries in a row: remember the
 * directory, reset the memo of its plain entries, and keep the mask
 * points (masked paths, paths bound back) below it, so plain_point()
 * looks at those few instead of every mask for each of its entries.  */
static void memo_enter_dir(planner *pl, const char *path, size_t dlen)
{
	if (pl->memo_dir && strlen(pl->memo_dir) == dlen && memcmp(pl->memo_dir, path, dlen) == 0)
		return;
	free(pl->memo_dir);
	pl->memo_dir = xstrndup(path, dlen);
	pl->memo_set[0] = pl->memo_set[1] = false;
	pl->nmask_below = 0;
	if (!pl->use_masks)
		return;
	for (size_t i = 0; i < pl->plan->masks.n; i++) {
		const sb_ll_mask *m = &pl->plan->masks.v[i];
		for (size_t k = 0; k <= m->nexpose; k++) {
			const char *x = k == 0 ? m->path : m->expose[k - 1].path;
			if (!below_dir(x, pl->memo_dir, dlen))
				continue;
			if (pl->nmask_below == pl->cap_mask_below) {
				pl->cap_mask_below = pl->cap_mask_below ? 2 * pl->cap_mask_below : 8;
				pl->mask_below = xrealloc(pl->mask_below,
							  pl->cap_mask_below * sizeof *pl->mask_below);
			}
			pl->mask_below[pl->nmask_below++] = x;
		}
	}
}

static void classify_uncached(planner *pl, const char *path, bool is_dir, uint64_t *all,
			      uint64_t *any);

static void classify_points(planner *pl, const char *path, bool is_dir, uint64_t *all,
			    uint64_t *any)
{
	const char *slash = strrchr(path, '/');
	if (pl->expanding && slash)
		memo_enter_dir(pl, path, (size_t)(slash - path));
	if (!pl->expanding || !slash || !plain_point(pl, path)) {
		classify_uncached(pl, path, is_dir, all, any);
		return;
	}
	if (!pl->memo_set[is_dir]) {
		classify_uncached(pl, path, is_dir, &pl->memo_all[is_dir], &pl->memo_any[is_dir]);
		pl->memo_set[is_dir] = true;
	}
	*all = pl->memo_all[is_dir];
	*any = pl->memo_any[is_dir];
}

static void classify_uncached(planner *pl, const char *path, bool is_dir, uint64_t *all,
			      uint64_t *any)
{
	uint64_t a = allowed_eff(pl, path);
	*all = a;
	*any = a;
	if (!is_dir)
		return;
	char *g = generic(path);
	a = allowed_eff(pl, g);
	free(g);
	*all &= a;
	*any |= a;
	for (size_t i = 0; i < pl->ncand; i++) {
		if (!sb_path_is_strictly_under(pl->cand[i], path))
			continue;
		a = allowed_eff(pl, pl->cand[i]);
		*all &= a;
		*any |= a;
		g = generic(pl->cand[i]);
		a = allowed_eff(pl, g);
		free(g);
		*all &= a;
		*any |= a;
	}
}

static void push(char ***v, size_t *n, const char *s)
{
	for (size_t i = 0; i < *n; i++)
		if (strcmp((*v)[i], s) == 0)
			return;
	*v = xrealloc(*v, (*n + 1) * sizeof **v);
	(*v)[(*n)++] = xstrdup(s);
}

/* A directory the expansion leaves without a right decide() grants on it:
 * new entries there, or listing it, fail.  Said at launch (linux_exec.c).  */
static void note_breaking(planner *pl, const char *path, uint64_t mixed)
{
	if (pl->use_masks && sb_ll_masks_hidden(&pl->plan->masks, path))
		return;   /* a mask's own doing: the plan lists it */
	if (mixed & SB_LL_MAKE_REG) {   /* most entries: not mixed, no child path built */
		char *g = generic(path);
		if (allowed_at(pl, g) & SB_LL_MAKE_REG)
			push(&pl->no_create, &pl->nno_create, path);
		free(g);
	}
	if ((mixed & SB_LL_READ_DIR) && (allowed_at(pl, path) & SB_LL_READ_DIR))
		push(&pl->no_list, &pl->nno_list, path);
}

static void classify(void *ctx, const char *path, bool is_dir, uint64_t want, uint64_t *allow_all,
		     uint64_t *mixed)
{
	planner *pl = ctx;
	uint64_t all, any;
	classify_points(pl, path, is_dir, &all, &any);
	uint64_t mx = any & ~all;
	if (!pl->no_forced)
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
	if (pl->use_masks) {
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
	if (pl->expanding && is_dir)
		note_breaking(pl, path, *mixed);
}

/* Inside a hidden tree with paths bound back below (the home, /dev) the
 * classifier gives no rule to anything off the way to them: visit only
 * that way, not every entry (a /dev of a hundred nodes, a large home).  */
static char **names_to_visit(void *ctx, const char *dir, size_t *n)
{
	planner *pl = ctx;
	if (!pl->use_masks || sb_ll_masks_hidden(&pl->plan->masks, dir) != 2)
		return NULL;
	char **names = sb_ll_masks_names_below(&pl->plan->masks, dir, n);
	return names ? names : xrealloc(NULL, sizeof *names);
}

static void add_forced(planner *pl, const char *path, uint64_t mask, const char *why)
{
	for (size_t i = 0; i < pl->nforced; i++)
		if (strcmp(pl->forced[i].path, path) == 0) {
			pl->forced[i].mask |= mask;
			return;
		}
	pl->forced = xrealloc(pl->forced, (pl->nforced + 1) * sizeof *pl->forced);
	pl->forced[pl->nforced++] = (forced){ xstrdup(path), mask, xstrdup(why), false };
}

/* ---- step 3: devices, aliases, expansion ---- */

typedef struct device {
	const char *path;
	uint64_t rights;
	bool opt_in;
} device;

static const device devices[] = {
	{ "/dev", SB_LL_READ_DIR, false },
	{ "/dev/null", SB_LL_READ_FILE | SB_LL_WRITE_FILE, false },
	{ "/dev/zero", SB_LL_READ_FILE | SB_LL_WRITE_FILE, false },
	{ "/dev/full", SB_LL_READ_FILE | SB_LL_WRITE_FILE, false },
	{ "/dev/random", SB_LL_READ_FILE, false },
	{ "/dev/urandom", SB_LL_READ_FILE, false },
	{ "/dev/tty", SB_LL_READ_FILE | SB_LL_WRITE_FILE | SB_LL_IOCTL_DEV, false },
	{ "/dev/ptmx", SB_LL_READ_FILE | SB_LL_WRITE_FILE | SB_LL_IOCTL_DEV, false },
	{ "/dev/pts", SB_LL_READ_FILE | SB_LL_WRITE_FILE | SB_LL_IOCTL_DEV | SB_LL_READ_DIR, false },
	{ "/dev/shm", R_READ | R_WRITE | R_CREATE | R_UNLINK | SB_LL_REFER, true },
};

/* A terminal of the launch outside the device table: a character device
 * directly in /dev (a console; /dev/pts is a rule of its own).  */
bool sb_ll_extra_terminal(const char *path)
{
	if (strncmp(path, "/dev/", 5) != 0 || strchr(path + 5, '/') || path[5] == '\0' ||
	    path[5] == '.')
		return false;
	for (size_t i = 0; i < sizeof devices / sizeof *devices; i++)
		if (strcmp(devices[i].path, path) == 0)
			return false;
	return true;
}

static void add_device(planner *pl, const device *dv, const char *label)
{
	int fd = open(dv->path, O_PATH | O_NOFOLLOW | O_CLOEXEC);
	struct stat st;
	if (fd < 0)
		return;
	if (fstat(fd, &st) < 0 || S_ISLNK(st.st_mode) ||
	    (strcmp(label, "terminal") == 0 && !S_ISCHR(st.st_mode))) {
		/* e.g. /dev/ptmx -> pts/ptmx: the /dev/pts rule covers it */
		close(fd);
		return;
	}
	bool is_dir = S_ISDIR(st.st_mode);
	uint64_t all, any;
	pl->no_forced = true;
	classify_points(pl, dv->path, is_dir, &all, &any);
	pl->no_forced = false;
	uint64_t rights = dv->rights & all;
	if (dv->rights & SB_LL_IOCTL_DEV) {
		sb_decision d = lp_decide(pl, SB_OP_FILE_IOCTL, dv->path);
		if (d.kind == SB_DEC_ALLOW && (all & SB_LL_READ_FILE))
			rights |= SB_LL_IOCTL_DEV;
	}
	if (!is_dir)
		rights &= SB_LL_FILE_RIGHTS;
	if (!rights) {
		close(fd);
		return;
	}
	sb_ll_rules_add(&pl->plan->r, dv->path, fd, rights, is_dir, label);
}

/* The DEV mask's private /dev/shm (masks.c) exists only once the masks
 * are made: its rule gets no descriptor now (fd -1) and is placed on the
 * fresh tmpfs at launch (linux_exec.c).  decide() still bounds it.  */
static void add_private_shm(planner *pl, const device *dv)
{
	const sb_ll_masks *ms = &pl->plan->masks;
	bool private = false;
	for (size_t i = 0; i < ms->n; i++)
		private = private || (ms->v[i].kind == SB_MASK_DEV && ms->v[i].private_shm);
	if (!private)
		return;
	uint64_t all, any;
	pl->no_forced = true;
	classify_points(pl, dv->path, true, &all, &any);
	pl->no_forced = false;
	if (dv->rights & all)
		sb_ll_rules_add(&pl->plan->r, dv->path, -1, dv->rights & all, true, "private-shm");
}

static void add_devices(planner *pl, const sb_linux_opts *o)
{
	for (size_t i = 0; i < sizeof devices / sizeof *devices; i++) {
		if (devices[i].opt_in && !o->allow_shm) {
			add_private_shm(pl, &devices[i]);
			continue;
		}
		add_device(pl, &devices[i], "device");
	}
	for (size_t i = 0; i < o->nterminals; i++) {
		if (!sb_ll_extra_terminal(o->terminals[i]))
			continue;
		bool seen = false;
		for (size_t j = 0; j < i; j++)
			seen = seen || strcmp(o->terminals[j], o->terminals[i]) == 0;
		if (seen)
			continue;
		device tty = { o->terminals[i], SB_LL_READ_FILE | SB_LL_WRITE_FILE | SB_LL_IOCTL_DEV, false };
		add_device(pl, &tty, "terminal");
	}
}

/* Deny points: existing candidates whose own or generic-child decision
 * denies some right.  Their bind-mount aliases become forced denies.  */
static void add_aliases(planner *pl, const sb_mounts *m)
{
	size_t base = pl->nforced;
	for (size_t i = 0; i < pl->ncand + base; i++) {
		const char *c;
		uint64_t dm;
		if (i < pl->ncand) {
			c = pl->cand[i];
			struct stat st;
			if (stat(c, &st) < 0)
				continue;
			char *g = generic(c);
			dm = R_ALL & ~(allowed_at(pl, c) & allowed_at(pl, g));
			free(g);
		} else {
			c = pl->forced[i - pl->ncand].path;
			dm = pl->forced[i - pl->ncand].mask;
		}
		if (!dm)
			continue;
		char **al = NULL;
		bool *same = NULL;
		size_t nal = 0;
		sb_mounts_aliases(m, c, &al, &nal, &same);
		for (size_t k = 0; k < nal; k++) {
			struct stat st;
			/* Every mount of the root file system shows a part of "/":
			 * only a mount of "/" itself is an alias of it; a bind of
			 * /usr/share/doc on /tmp/x is not (it is what its path
			 * says, like any other directory there).  */
			bool unrelated = strcmp(c, "/") == 0 && !same[k];
			if (!unrelated && lstat(al[k], &st) == 0) {
				add_forced(pl, al[k], dm, "bind-mount alias of a denied path");
				sb_ll_rules_note(&pl->plan->r, SB_LL_NOTE_NARROWER, NULL, 0,
						 "%s: bind-mount alias of %s, denied like it", al[k], c);
			}
			free(al[k]);
		}
		free(al);
		free(same);
	}
}

/* A procfs, sysfs or devtmpfs mounted elsewhere (a chroot below /tmp) is
 * the same kernel interface as /proc, /sys or /dev: it gets no right the
 * canonical place does not have (writing /tmp/c/proc/self/comm must fail
 * as /proc/self/comm does).  */
static void add_pseudo_fs(planner *pl, const sb_mounts *m)
{
	static const struct {
		const char *type, *home;
	} pseudo[] = { { "proc", "/proc" }, { "sysfs", "/sys" }, { "devtmpfs", "/dev" } };
	for (size_t i = 0; i < m->n; i++)
		for (size_t k = 0; k < sizeof pseudo / sizeof *pseudo; k++) {
			const sb_mount *mt = &m->v[i];
			if (!mt->fstype || strcmp(mt->fstype, pseudo[k].type) != 0 ||
			    sb_path_is_under(mt->mountpoint, pseudo[k].home))
				continue;
			uint64_t denied = R_ALL;
			if (strcmp(pseudo[k].home, "/dev") != 0) {
				char *g = generic(pseudo[k].home);
				denied = R_ALL & ~(allowed_at(pl, pseudo[k].home) & allowed_at(pl, g));
				free(g);
			}
			struct stat st;
			if (!denied || lstat(mt->mountpoint, &st) < 0)
				continue;
			add_forced(pl, mt->mountpoint, denied, "a pseudo file system");
			sb_ll_rules_note(&pl->plan->r, SB_LL_NOTE_NARROWER, NULL, 0,
					 "%s: a %s like %s, denied what %s is denied", mt->mountpoint,
					 mt->fstype, pseudo[k].home, pseudo[k].home);
		}
}

/* A rule lands on an inode: every other path to that inode gets it too.
 * Remove the rights an inode alias is not allowed to have.  */
static void check_rule_aliases(planner *pl, const sb_mounts *m)
{
	sb_ll_rules *r = &pl->plan->r;
	for (size_t i = 0; i < r->n; i++) {
		char **al = NULL;
		bool *same = NULL;
		size_t nal = 0;
		sb_mounts_aliases(m, r->v[i].path, &al, &nal, &same);
		for (size_t k = 0; k < nal; k++) {
			/* a masked alias (a bind of $HOME hidden like $HOME) shows
			 * nothing: no right to withhold */
			if (same[k] && !(pl->use_masks &&
					 sb_ll_masks_hidden(&pl->plan->masks, al[k]))) {
				/* what decide() allows there (forced denies only
				 * narrow; they are not the question here) */
				uint64_t all, mx;
				pl->no_forced = true;
				classify(pl, al[k], r->v[i].is_dir, r->v[i].rights, &all, &mx);
				pl->no_forced = false;
				uint64_t lost = r->v[i].rights & ~all;
				if (lost) {
					char b[256];
					r->v[i].rights &= ~lost;
					sb_ll_rules_note(r, SB_LL_NOTE_NARROWER, NULL, 0,
							 "%s: rights %s withheld: the same inode is "
							 "reachable as %s, where they are denied",
							 r->v[i].path, sb_ll_rights_str(lost, b, sizeof b),
							 al[k]);
				}
			}
			free(al[k]);
		}
		free(al);
		free(same);
	}
	size_t w = 0;   /* drop emptied rules */
	for (size_t i = 0; i < r->n; i++) {
		if (r->v[i].rights == 0) {
			free(r->v[i].path);
			close(r->v[i].fd);
		} else {
			r->v[w++] = r->v[i];
		}
	}
	r->n = w;
}

/* ---- masks (ll_masks.c) ---- */

static uint64_t cb_allowed(void *ctx, const char *p)
{
	return allowed_at(ctx, p);
}

static uint64_t cb_below(void *ctx, const char *dir)
{
	char *g = generic(dir);
	uint64_t a = allowed_at(ctx, g);
	free(g);
	return a;
}

static void cb_missing(void *ctx, const char *p)
{
	planner *pl = ctx;
	push(&pl->missing, &pl->nmissing, p);
}

/* The rule that denies something at (or just below) a mask point.  */
static void cb_src(void *ctx, const char *p, const char **file, int *line)
{
	planner *pl = ctx;
	char *g = generic(p);
	const char *pts[2] = { p, g };
	*file = NULL;
	*line = 0;
	for (size_t k = 0; k < 2 && !*line; k++)
		for (size_t i = 0; i < Q_N; i++) {
			sb_decision d = lp_decide(pl, queried_ops[i], pts[k]);
			if (d.kind != SB_DEC_ALLOW && d.rule) {
				*file = rule_file(d.rule);
				*line = rule_line(d.rule);
				break;
			}
		}
	free(g);
}

/* Masks where namespaces can be had, and the write gate where seccomp
 * can have a listener; returns SB_REFUSED when masks were demanded
 * (--mechanism masks) and cannot be had.  */
static int plan_masks(planner *pl, const sb_linux_opts *o)
{
	sb_ll_plan *plan = pl->plan;
	plan->mechanism = "complement expansion";
	bool mounts = o->mechanism != SB_LL_MECH_COMPLEMENT;
	bool gate = o->gate != SB_LL_GATE_OFF;
	if (!mounts && !gate)
		return 0;
	char **fp = xrealloc(NULL, (pl->nforced + 1) * sizeof *fp);
	uint64_t *fm = xrealloc(NULL, (pl->nforced + 1) * sizeof *fm);
	const char **fw = xrealloc(NULL, (pl->nforced + 1) * sizeof *fw);
	bool *fmasked = xrealloc(NULL, (pl->nforced + 1) * sizeof *fmasked);
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
		.terminals = o->terminals, .nterminals = o->nterminals,
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
		sb_strv_free(pl->missing, pl->nmissing);
		pl->missing = NULL;
		pl->nmissing = 0;
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
		sb_strv_free(pl->missing, pl->nmissing);
		pl->missing = NULL;
		pl->nmissing = 0;
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
				add_cand(pl, plan->masks.v[i].expose[k].path);
		qsort(pl->cand, pl->ncand, sizeof *pl->cand, cmp_str);
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
	if (!pl->nno_create && !(plan->fallback && pl->nno_list))
		return;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = xopen_memstream(&buf, &len);
	fputs("the Linux sandbox is narrower than the policy here", f);
	if (plan->fallback)
		fprintf(f, " (masks unavailable: %s; the complement expansion enforces the "
			   "denies)", plan->fallback);
	if (pl->nno_create) {
		fputs(": new files cannot be created directly in ", f);
		list_paths(f, pl->no_create, pl->nno_create);
	}
	if (pl->nno_list) {
		fputs(pl->nno_create ? "; listing fails in " : ": listing fails in ", f);
		list_paths(f, pl->no_list, pl->nno_list);
	}
	if (pl->nmissing) {
		fputs("; denied paths that do not exist cannot be masked: ", f);
		list_paths(f, pl->missing, pl->nmissing);
		fputs(" (create them before the launch to lift this)", f);
	}
	fclose(f);
	plan->warnings = xrealloc(plan->warnings, (plan->nwarnings + 1) * sizeof *plan->warnings);
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
	sb_strv_free(pl->no_create, pl->nno_create);
	sb_strv_free(pl->no_list, pl->nno_list);
	sb_strv_free(pl->missing, pl->nmissing);
	free(pl->memo_dir);
	free(pl->mask_below);
	if (pl->allowed_memo)
		sb_strmap_free(pl->allowed_memo);
	sb_eval_free(pl->ev);
	sb_profile_free(pl->lp);
	memset(pl, 0, sizeof *pl);
}

int sb_ll_plan_build(const sb_profile *bound, const sb_linux_opts *o, sb_ll_plan **out, sb_diag *d)
{
	double t0 = now_ms();
	sb_ll_plan *plan = xrealloc(NULL, sizeof *plan);
	memset(plan, 0, sizeof *plan);
	planner pl = { .orig = bound, .plan = plan, .d = d };
	*out = NULL;   /* the plan is handed over only when it is complete */
	plan->bound = bound;
	sb_ll_probe_kernel(&plan->probe);
	plan->plan_abi = plan->probe.eff_abi > 0 ? plan->probe.eff_abi : SB_LL_MAX_KNOWN_ABI;
	plan->home = o->home ? xstrdup(o->home) : NULL;

	linuxize(&pl, o);
	collect_candidates(&pl);
	sb_ll_scan_other_ops(bound, plan, o);

	/* forced denies: /dev (replaced by the device allowlist) and the
	 * per-user runtime dir (agent sockets, podman auth).  */
	add_forced(&pl, "/dev", R_ALL, "devices: the allowlist replaces /dev");
	char runtime_dir[64];
	snprintf(runtime_dir, sizeof runtime_dir, "/run/user/%u", (unsigned)o->uid);
	struct stat st;
	if (stat(runtime_dir, &st) == 0)
		add_forced(&pl, runtime_dir, R_ALL, "the per-user runtime directory");
	const char *xdg = o->xdg_runtime_dir;
	char *xdg_real = xdg && xdg[0] == '/' ? realpath(xdg, NULL) : NULL;
	if (xdg_real) {
		add_forced(&pl, xdg_real, R_ALL, "the per-user runtime directory");
		free(xdg_real);
	}
	sb_mounts m = { 0 };
	if (sb_mounts_read(&m, "/proc/self/mountinfo") < 0)
		sb_ll_rules_note(&plan->r, SB_LL_NOTE_INFO, NULL, 0,
				 "cannot read /proc/self/mountinfo: bind-mount aliases not checked");
	add_pseudo_fs(&pl, &m);
	add_aliases(&pl, &m);
	plan->allow_shm = o->allow_shm;
	int mrc = plan_masks(&pl, o);

	pl.expanding = true;
	int erc = mrc ? 0 : sb_ll_expand_names(&plan->r, "/", R_ALL, classify, names_to_visit, &pl);
	pl.expanding = false;
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
	bool masks_on = pl.use_masks;
	pl.use_masks = false;
	add_devices(&pl, o);
	pl.use_masks = masks_on;
	check_rule_aliases(&pl, &m);
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
