#ifdef __linux__ /* Linux only; other systems: runtime/linux/linux_other.c */
/* ll_linuxize.c - the planner's step 1 (ll_plan.c): the profile Landlock
 * can express.  An allow filter it cannot express is dropped, a deny
 * filter is widened to the subpath of its literal prefix; both only make
 * Linux stricter.  Also the linuxized profile's decisions.  */
#include "runtime/linux/linux.h"
#include "runtime/linux/ll_internal.h"
#include "runtime/linux/ll_plan_internal.h"

#include <stdlib.h>
#include <string.h>

#include "compiler/eval/eval.h"
#include "compiler/common/xalloc.h"

/* The file operations whose decisions the plan enforces.  */
const sb_op sb_llp_queried_ops[Q_N] = {
	SB_OP_FILE_READ_DATA, SB_OP_PROCESS_EXEC, SB_OP_FILE_WRITE_DATA,
	SB_OP_FILE_WRITE_CREATE, SB_OP_FILE_WRITE_UNLINK,
};

static bool op_relevant(sb_op op)
{
	for (size_t i = 0; i < Q_N; i++)
		for (sb_op o = sb_llp_queried_ops[i];; o = sb_op_parent(o)) {
			if (o == op)
				return true;
			if (o == SB_OP_DEFAULT)
				break;
		}
	return false;
}

bool sb_llp_rule_relevant(const sb_rule *r)
{
	for (size_t i = 0; i < r->nops; i++)
		if (op_relevant(r->ops[i]))
			return true;
	return false;
}

const char *sb_llp_rule_file(const sb_rule *r)
{
	return r->origin ? r->origin->file : r->loc.file;
}

int sb_llp_rule_line(const sb_rule *r)
{
	return r->origin ? r->origin->line : r->loc.line;
}

/* The longest directory that contains every path a prefix or an anchored
 * regex can match, or NULL when there is none below "/".  */
static char *literal_dir(const char *s, bool is_regex)
{
	if (is_regex && *s != '^')
		return NULL;
	char *buf = xmalloc(strlen(s) + 1);   /* the literal part is never longer */
	size_t n = 0;
	const char *p = s;
	if (is_regex) {
		p++;
		for (; *p; p++) {
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
		for (; *p; p++)
			buf[n++] = *p;
	}
	buf[n] = '\0';
	char *slash = strrchr(buf, '/');
	if (!slash || slash == buf) {
		free(buf);
		return NULL;
	}
	*slash = '\0';
	return buf;
}

/* The filters a rule keeps, in order.  */
typedef struct filters {
	sb_filter **v;
	size_t n, cap;
} filters;

static void filters_add(filters *fs, sb_filter *f)
{
	SB_GROW(fs->v, fs->n, fs->cap, 4);
	fs->v[fs->n++] = f;
}

/* Drop the filters added after the first `keep`.  */
static void filters_cut(filters *fs, size_t keep)
{
	while (fs->n > keep)
		sb_filter_free(fs->v[--fs->n]);
}

/* Widen a deny filter to literal/subpath ones; returns false when the
 * widening would reach "/" (or cannot be computed).  */
static bool widen_deny(const sb_filter *f, filters *out)
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
			filters_add(out, sb_filter_clone(f));
		}
		break;
	case SB_F_PREFIX:
	case SB_F_REGEX:
		dir = v ? literal_dir(v, f->kind == SB_F_REGEX) : NULL;
		if (!dir)
			ok = false;
		else {
			filters_add(out, sb_filter_path(SB_F_SUBPATH, sb_str_lit(dir), f->loc));
		}
		break;
	case SB_F_REQUIRE_ANY:
		for (size_t i = 0; i < f->nkids && ok; i++)
			ok = widen_deny(f->kids[i], out);
		break;
	case SB_F_REQUIRE_ALL:
		/* all of A, B: inside A, so A's widening covers it */
		ok = false;
		for (size_t i = 0; i < f->nkids && !ok; i++) {
			size_t before = out->n;
			ok = widen_deny(f->kids[i], out);
			if (!ok)
				filters_cut(out, before);
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
static bool keep_allow(const sb_filter *f, filters *out)
{
	bool exact = true;
	if ((f->kind == SB_F_LITERAL || f->kind == SB_F_SUBPATH)) {
		char *v = sb_str_value(f->arg);
		if (v) {
			filters_add(out, sb_filter_clone(f));
			free(v);
			return true;
		}
		return false;
	}
	if (f->kind == SB_F_REQUIRE_ANY) {
		for (size_t i = 0; i < f->nkids; i++)
			exact = keep_allow(f->kids[i], out) && exact;
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
 * first question, once the profile is complete (sb_llp_linuxize).  */
sb_decision sb_llp_decide(planner *pl, sb_op op, const char *path)
{
	if (!pl->ev)
		pl->ev = sb_eval_new(pl->lp, 0);
	return sb_eval_decide(pl->ev, op, path, 0);
}

/* The same answers through the rule index: the planner asks several
 * questions about each of many points (bench/analysis.md, launch).  */
sb_decision sb_llp_decide_indexed(planner *pl, sb_op op, const char *path)
{
	if (!pl->ev)
		pl->ev = sb_eval_new(pl->lp, 0);
	return sb_eval_decide_indexed(pl->ev, op, path, 0);
}

int sb_llp_linuxize(planner *pl, const sb_linux_opts *o)
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
		if (!sb_llp_rule_relevant(r) || r->nfilters == 0) {
			sb_profile_add_rule(pl->lp, sb_rule_clone(r));
			continue;
		}
		filters nf = { 0 };
		for (size_t k = 0; k < r->nfilters; k++) {
			const sb_filter *f = r->filters[k];
			if (r->action == SB_ALLOW) {
				if (!keep_allow(f, &nf))
					sb_ll_rules_note(&plan->r, SB_LL_NOTE_NARROWER, sb_llp_rule_file(r),
							 sb_llp_rule_line(r),
							 "allow with a %s filter cannot be expressed in "
							 "Landlock: dropped (Linux denies more)",
							 filter_kind_name(f->kind));
			} else {
				size_t before = nf.n;
				if (widen_deny(f, &nf)) {
					if (f->kind != SB_F_LITERAL && f->kind != SB_F_SUBPATH)
						sb_ll_rules_note(&plan->r, SB_LL_NOTE_NARROWER,
								 sb_llp_rule_file(r), sb_llp_rule_line(r),
								 "deny with a %s filter widened to the "
								 "subpath of its literal prefix",
								 filter_kind_name(f->kind));
				} else {
					filters_cut(&nf, before);
					plan->unenforceable++;
					sb_ll_rules_note(&plan->r, SB_LL_NOTE_UNENFORCEABLE, sb_llp_rule_file(r),
							 sb_llp_rule_line(r),
							 "deny with a %s filter cannot be enforced by "
							 "Landlock%s",
							 filter_kind_name(f->kind),
							 o->allow_unenforceable ? " (ignored: opted in)" : "");
				}
			}
		}
		if (nf.n == 0) {         /* never leave a rule unfiltered */
			free(nf.v);
			continue;
		}
		sb_rule *c = sb_rule_new(r->action, r->loc);
		for (size_t k = 0; k < r->nops; k++)
			sb_rule_add_op(c, r->ops[k], r->op_names ? r->op_names[k] : NULL);
		for (size_t k = 0; k < nf.n; k++)
			sb_rule_add_filter(c, nf.v[k]);
		free(nf.v);
		c->origin = r->origin;
		sb_profile_add_rule(pl->lp, c);
	}
	return 0;
}
#endif /* __linux__ */
