/* eval.c - sb_eval_decide(): Seatbelt's per-operation decision model, with the
 * folk "text" model alongside and three-valued filter logic (eval.h,
 * docs/sbpl-model.md).  */
#include "compiler/eval/eval.h"

#include <regex.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/common/path.h"
#include "compiler/common/strmap.h"
#include "compiler/common/xalloc.h"

typedef enum { T_FALSE, T_TRUE, T_UNKNOWN } tri;

typedef struct ilist {
	size_t *v;
	size_t n, cap;
} ilist;

struct sb_eval {
	const sb_profile *p;
	unsigned flags;        /* SB_EVAL_* */
	/* filter address -> fcache: open addressing on the address itself,
	 * asked once per filter match (a string-keyed map was half the cost
	 * of a decision) */
	struct prep_slot {
		const sb_filter *f;    /* NULL: empty */
		struct fcache *c;
	} *prep;
	size_t prep_cap, prep_n;   /* cap: a power of two, 0 before the first */
	/* The index, built on the first indexed question.  */
	bool indexed;
	ilist always;          /* unfiltered rules and rules with a filter that
				  is not a literal or subpath of a known string */
	sb_strmap *literal;    /* string -> ilist of rules with (literal s) */
	sb_strmap *subpath;    /* string -> ilist of rules with (subpath s) */
	sb_strmap *prefix;     /* string -> ilist of rules with (prefix s) */
	size_t nprefix;
	char *last;            /* the last path asked about ... */
	size_t lastcap;
	ilist cands;           /* ... and its candidates */
	ilist scratch;
	/* Decisions for one (path, vnode), per operation: an operation that no
	 * candidate rule names decides as its parent does (both models walk
	 * the fallback chain and skip a level nothing names), so callers that
	 * ask every operation of a path (sbc diff) decide each level once.  */
	char *memo_path;
	size_t memo_cap;
	char *memo_alias;      /* memo_path's /private form, when it has one */
	bool memo_named[SB_OP__COUNT];
	/* slot 0: vnode 0 (unknown); slot b + 1: the single type 1 << b */
	bool memo_valid[9][SB_OP__COUNT];
	sb_decision memo[9][SB_OP__COUNT];
};

/* What the evaluator derives once per filter, kept in the evaluation
 * context (sb_eval) by the filter's address: the profile is never written.  */
typedef struct fcache {
	const char *str;           /* the resolved filter string, NULL when unbound */
	char *owned;               /* str when it had to be built (string-append) */
	size_t len;
	char *unbound;             /* first unbound param's spelling */
	bool re_ready, re_ok;
	regex_t re;
} fcache;

/* The first cause of an unknown, for the decision's reason.  */
typedef struct why {
	const char *reason;
	const char *what;
	sb_loc loc;
	bool set;
} why;

static void note_unknown(why *w, const char *reason, const char *what, sb_loc loc)
{
	if (w->set)
		return;
	w->reason = reason;
	w->what = what;
	w->loc = loc;
	w->set = true;
}

static void fcache_free(void *p)
{
	fcache *c = p;
	if (!c)
		return;
	if (c->re_ready && c->re_ok)
		regfree(&c->re);
	free(c->owned);
	free(c->unbound);
	free(c);
}

/* Concatenate an all-literal string expression; false at the first param.  */
static bool flatten_str(const sb_str *s, char **out, size_t *len, size_t *cap, char **unbound)
{
	switch (s->kind) {
	case SB_STR_LIT: {
		size_t n = strlen(s->text);
		SB_GROW(*out, *len + n, *cap, 64);   /* the text and the NUL */
		memcpy(*out + *len, s->text, n + 1);
		*len += n;
		return true;
	}
	case SB_STR_PARAM:
		*unbound = sb_param_spelling(&s->param);
		return false;
	case SB_STR_APPEND:
		for (size_t i = 0; i < s->nparts; i++)
			if (!flatten_str(s->parts[i], out, len, cap, unbound))
				return false;
		return true;
	}
	return false;
}

/* The table slot of f: its own, or the empty one where it goes.  */
static struct prep_slot *prep_find(struct prep_slot *v, size_t cap, const sb_filter *f)
{
	uint64_t h = (uint64_t)(uintptr_t)f * 0x9e3779b97f4a7c15ull;
	for (size_t i = (size_t)(h >> 32) & (cap - 1);; i = (i + 1) & (cap - 1))
		if (v[i].f == f || !v[i].f)
			return &v[i];
}

static void prep_grow(sb_eval *ev)
{
	size_t cap = ev->prep_cap ? ev->prep_cap * 2 : 64;
	struct prep_slot *v = xcalloc(cap, sizeof *v);
	for (size_t i = 0; i < ev->prep_cap; i++)
		if (ev->prep[i].f)
			*prep_find(v, cap, ev->prep[i].f) = ev->prep[i];
	free(ev->prep);
	ev->prep = v;
	ev->prep_cap = cap;
}

static fcache *prepare(sb_eval *ev, const sb_filter *f)
{
	if ((ev->prep_n + 1) * 2 > ev->prep_cap)
		prep_grow(ev);
	struct prep_slot *slot = prep_find(ev->prep, ev->prep_cap, f);
	if (slot->f)
		return slot->c;
	fcache *c = xcalloc(1, sizeof *c);
	slot->f = f;
	slot->c = c;
	ev->prep_n++;
	if (f->arg && f->arg->kind == SB_STR_LIT) {
		c->str = f->arg->text;
		c->len = strlen(c->str);
	} else if (f->arg) {
		size_t len = 0, cap = 0;
		if (flatten_str(f->arg, &c->owned, &len, &cap, &c->unbound)) {
			c->str = c->owned;
			c->len = len;
		} else {
			free(c->owned);
			c->owned = NULL;
		}
	}
	return c;
}

static tri match_filter(sb_eval *ev, const sb_filter *f, const char *q, size_t qlen, unsigned vnode,
			why *w);

static tri match_path(sb_eval *ev, const sb_filter *f, const char *q, size_t qlen, why *w)
{
	/* a literal string needs no prepared form (most filters of a bound
	 * profile): skip the table */
	fcache *c = NULL;
	const char *s;
	size_t n;
	if (f->kind != SB_F_REGEX && f->arg && f->arg->kind == SB_STR_LIT) {
		s = f->arg->text;
		n = strlen(s);
	} else {
		c = prepare(ev, f);
		if (!c->str) {
			note_unknown(w, "unbound param", c->unbound, f->loc);
			return T_UNKNOWN;
		}
		s = c->str;
		n = c->len;
	}
	switch (f->kind) {
	case SB_F_LITERAL:
		return qlen == n && memcmp(q, s, n) == 0 ? T_TRUE : T_FALSE;
	case SB_F_SUBPATH:
		if (n == 1 && s[0] == '/')
			return T_TRUE;
		if (n == 0 || s[n - 1] == '/')
			return T_FALSE; /* never matches a canonical path (reader warns) */
		return sb_path_is_under_n(q, qlen, s, n) ? T_TRUE : T_FALSE;
	case SB_F_PREFIX:
		return qlen >= n && memcmp(q, s, n) == 0 ? T_TRUE : T_FALSE;
	case SB_F_REGEX:
		if (!c->re_ready) {
			c->re_ready = true;
			c->re_ok = regcomp(&c->re, s, REG_EXTENDED | REG_NOSUB) == 0;
		}
		if (!c->re_ok) {
			note_unknown(w, "regex not understood (POSIX extended syntax assumed)", s, f->loc);
			return T_UNKNOWN;
		}
		return regexec(&c->re, q, 0, NULL, 0) == 0 ? T_TRUE : T_FALSE;
	default:
		return T_UNKNOWN;
	}
}

static tri match_filter(sb_eval *ev, const sb_filter *f, const char *q, size_t qlen, unsigned vnode,
			why *w)
{
	switch (f->kind) {
	case SB_F_LITERAL:
	case SB_F_SUBPATH:
	case SB_F_PREFIX:
	case SB_F_REGEX:
		return match_path(ev, f, q, qlen, w);
	case SB_F_VNODE_TYPE:
		if (!vnode) {
			note_unknown(w, "vnode type of the target unknown (give --vnode)", NULL, f->loc);
			return T_UNKNOWN;
		}
		return f->vnode_mask & vnode ? T_TRUE : T_FALSE;
	case SB_F_REQUIRE_ALL: {
		tri acc = T_TRUE;
		for (size_t i = 0; i < f->nkids; i++) {
			tri t = match_filter(ev, f->kids[i], q, qlen, vnode, w);
			if (t == T_FALSE)
				return T_FALSE;
			if (t == T_UNKNOWN)
				acc = T_UNKNOWN;
		}
		return acc;
	}
	case SB_F_REQUIRE_ANY: {
		tri acc = T_FALSE;
		for (size_t i = 0; i < f->nkids; i++) {
			tri t = match_filter(ev, f->kids[i], q, qlen, vnode, w);
			if (t == T_TRUE)
				return T_TRUE;
			if (t == T_UNKNOWN)
				acc = T_UNKNOWN;
		}
		return acc;
	}
	case SB_F_REQUIRE_NOT: {
		if (f->nkids != 1) {
			note_unknown(w, "malformed require-not", NULL, f->loc);
			return T_UNKNOWN;
		}
		tri t = match_filter(ev, f->kids[0], q, qlen, vnode, w);
		return t == T_UNKNOWN ? T_UNKNOWN : t == T_TRUE ? T_FALSE : T_TRUE;
	}
	case SB_F_OPAQUE:
		note_unknown(w, "filter not modelled", f->opaque, f->loc);
		return T_UNKNOWN;
	}
	return T_UNKNOWN;
}

/* A rule's filters are ORed; no filter matches everything.  */
static tri match_rule(sb_eval *ev, const sb_rule *r, const char *q, size_t qlen, unsigned vnode,
		      why *w)
{
	if (r->nfilters == 0)
		return T_TRUE;
	tri acc = T_FALSE;
	for (size_t i = 0; i < r->nfilters; i++) {
		/* Collect the cause of an unknown only if it turns out to matter. */
		why local = { 0 };
		tri t = match_filter(ev, r->filters[i], q, qlen, vnode, &local);
		if (t == T_TRUE)
			return T_TRUE;
		if (t == T_UNKNOWN) {
			acc = T_UNKNOWN;
			if (local.set)
				note_unknown(w, local.reason, local.what, local.loc);
		}
	}
	return acc;
}

static bool names_op(const sb_rule *r, sb_op op)
{
	for (size_t i = 0; i < r->nops; i++)
		if (r->ops[i] == op)
			return true;
	return false;
}

/* Candidates are offered in priority order; the first that matches decides,
 * unless an earlier "maybe" candidate with the other action could have
 * matched first: then the answer is unknown.  */
typedef struct fold {
	bool done;
	sb_decision_kind kind;
	const sb_rule *rule;
	sb_op via;
	unsigned maybe;            /* bit per action of earlier unknown candidates */
	why first;                 /* cause of the first unknown candidate */
	const sb_rule *maybe_rule;
} fold;

static void offer(fold *fd, const sb_rule *r, sb_op via, tri m, const why *w)
{
	if (fd->done || m == T_FALSE)
		return;
	unsigned bit = r->action == SB_ALLOW ? 1u : 2u;
	if (m == T_UNKNOWN) {
		if (!fd->maybe) {
			fd->maybe_rule = r;
			fd->first = *w;
		}
		fd->maybe |= bit;
		return;
	}
	fd->done = true;
	fd->via = via;
	if (fd->maybe & ~bit) {
		fd->kind = SB_DEC_UNKNOWN;
		fd->rule = fd->maybe_rule;
	} else {
		fd->kind = r->action == SB_ALLOW ? SB_DEC_ALLOW : SB_DEC_DENY;
		fd->rule = r;
	}
}

/* Nothing matched: the implicit allow, unless a maybe-deny was seen.  */
static void finish(fold *fd)
{
	if (fd->done)
		return;
	fd->done = true;
	fd->via = SB_OP_DEFAULT;
	fd->rule = NULL;
	if (fd->maybe & 2u) {
		fd->kind = SB_DEC_UNKNOWN;
		fd->rule = fd->maybe_rule;
	} else {
		fd->kind = SB_DEC_ALLOW;
	}
}

/* The rules a question looks at, in profile order: all of them, or the
 * candidates an index found (every rule that is not surely FALSE for the
 * path, and every unfiltered rule).  */
typedef struct cands {
	const size_t *v;   /* NULL: all rules */
	size_t n;
} cands;

static size_t cands_count(const cands *c, const sb_profile *p)
{
	return c->v ? c->n : p->nrules;
}

static const sb_rule *cands_at(const cands *c, const sb_profile *p, size_t k)
{
	return p->rules[c->v ? c->v[k] : k];
}

static void offer_level(fold *fd, sb_eval *ev, const cands *c, sb_op o, const char *q, size_t qlen,
			unsigned vnode)
{
	const sb_profile *p = ev->p;
	for (size_t k = cands_count(c, p); k-- > 0 && !fd->done;) {
		const sb_rule *r = cands_at(c, p, k);
		if (r->nfilters == 0 || !names_op(r, o))
			continue;
		why w = { 0 };
		offer(fd, r, o, match_rule(ev, r, q, qlen, vnode, &w), &w);
	}
	for (size_t k = cands_count(c, p); k-- > 0 && !fd->done;) {
		const sb_rule *r = cands_at(c, p, k);
		if (r->nfilters == 0 && names_op(r, o)) {
			offer(fd, r, o, T_TRUE, NULL);
			break;
		}
	}
}

static void per_op_model(fold *fd, sb_eval *ev, const cands *c, sb_op op, const char *q, size_t qlen,
			 unsigned vnode)
{
	for (sb_op o = op; !fd->done; o = sb_op_parent(o)) {
		offer_level(fd, ev, c, o, q, qlen, vnode);
		if (o == SB_OP_DEFAULT)
			break;
	}
	finish(fd);
}

static bool names_chain(const sb_rule *r, const sb_op *chain, size_t n)
{
	for (size_t k = 0; k < n; k++)
		if (names_op(r, chain[k]))
			return true;
	return false;
}

/* The folk model: the textually last matching rule for op or any ancestor
 * decides; `default` stays a fallback.  */
static void text_model(fold *fd, sb_eval *ev, const cands *c, sb_op op, const char *q, size_t qlen,
		       unsigned vnode)
{
	const sb_profile *p = ev->p;
	sb_op chain[16];
	size_t n = 0;
	for (sb_op o = op; o != SB_OP_DEFAULT && n < 16; o = sb_op_parent(o))
		chain[n++] = o;
	for (size_t k = cands_count(c, p); k-- > 0 && !fd->done;) {
		const sb_rule *r = cands_at(c, p, k);
		if (!names_chain(r, chain, n))
			continue;
		why w = { 0 };
		offer(fd, r, op, match_rule(ev, r, q, qlen, vnode, &w), &w);
	}
	if (!fd->done)
		offer_level(fd, ev, c, SB_OP_DEFAULT, q, qlen, vnode);
	finish(fd);
}


static sb_decision unknown(const char *reason, const char *what, sb_loc loc)
{
	sb_decision d = { .kind = SB_DEC_UNKNOWN, .text_kind = SB_DEC_UNKNOWN, .reason = reason,
			  .unknown_what = what, .unknown_loc = loc };
	return d;
}

static cands index_cands(sb_eval *ev, const char *q, size_t qlen);

static sb_decision decide(sb_eval *ev, bool indexed, sb_op op, const char *path, unsigned vnode,
			  bool resolve)
{
	const sb_profile *p = ev->p;
	sb_loc none = { 0 };
	if (!path || path[0] != '/')
		return unknown("path is not absolute", path, none);
	if (op == SB_OP_OTHER || (int)op < 0 || op >= SB_OP__COUNT)
		return unknown("operation not modelled", NULL, none);
	/* Containers whose rules the reader extracted add nothing the IR does
	 * not hold; any other form may decide anything (unless the caller asked
	 * for the modelled rules alone).  */
	for (size_t i = 0; i < p->nunmodelled && !(ev->flags & SB_EVAL_IGNORE_UNMODELLED); i++)
		if (p->unmodelled[i].kind != SB_UNMODELLED_INERT)
			return unknown(p->unmodelled[i].reason, p->unmodelled[i].text, p->unmodelled[i].loc);

	char *aliased = resolve && sb_path_is_private_aliased(path) ? sb_path_private_alias(path) : NULL;
	const char *q = aliased ? aliased : path;
	size_t qlen = strlen(q);

	cands c = { NULL, 0 };
	if (indexed)
		c = index_cands(ev, q, qlen);
	fold per = { 0 }, text = { 0 };
	per_op_model(&per, ev, &c, op, q, qlen, vnode);
	text_model(&text, ev, &c, op, q, qlen, vnode);
	free(aliased);

	sb_decision d = { 0 };
	d.kind = per.kind;
	d.rule = per.rule;
	d.via_op = per.via;
	if (per.kind == SB_DEC_UNKNOWN) {
		d.reason = per.first.reason ? per.first.reason : "unknown";
		d.unknown_what = per.first.what;
		d.unknown_loc = per.first.loc;
	} else if (!per.rule) {
		d.reason = "no rule and no default: allow assumed (unverified; always write a default)";
	}
	d.text_kind = text.kind;
	d.text_rule = text.rule;
	d.models_disagree = per.kind != SB_DEC_UNKNOWN && text.kind != SB_DEC_UNKNOWN && per.kind != text.kind;
	return d;
}

/* Once an index exists (a planner asks both kinds of question), it serves
 * these too: the same answers (a rule it leaves out cannot match), from
 * the few candidates instead of every rule (bench/analysis.md, launch).  */
sb_decision sb_eval_decide(sb_eval *ev, sb_op op, const char *path, unsigned vnode)
{
	return decide(ev, ev->indexed, op, path, vnode, true);
}

sb_decision sb_eval_decide_node(sb_eval *ev, sb_op op, const char *path, unsigned vnode)
{
	return decide(ev, ev->indexed, op, path, vnode, false);
}

/* ---- the index ---- */

static void ilist_push(ilist *l, size_t i)
{
	if (l->n && l->v[l->n - 1] == i)
		return;
	SB_GROW(l->v, l->n, l->cap, 4);
	l->v[l->n++] = i;
}

static ilist *bucket(sb_strmap *m, const char *s, size_t n, bool create)
{
	void **v = sb_strmap_slot(m, s, n, create);
	if (!v)
		return NULL;
	if (!*v) {
		*v = xcalloc(1, sizeof(ilist));
	}
	return *v;
}

static void ilist_free(void *v)
{
	ilist *l = v;
	if (l)
		free(l->v);
	free(l);
}

/* Where a filter goes: NULL when it may match any path.  */
static sb_strmap *filter_map(sb_eval *ix, const sb_filter *f, fcache **c)
{
	if (f->kind != SB_F_LITERAL && f->kind != SB_F_SUBPATH && f->kind != SB_F_PREFIX)
		return NULL;
	*c = prepare(ix, f);
	if (!(*c)->str)
		return NULL;
	if (f->kind == SB_F_LITERAL)
		return ix->literal;
	if (f->kind == SB_F_PREFIX)
		return ix->prefix;
	/* (subpath "/") matches everything; "" or a trailing '/' nothing */
	if ((*c)->len <= 1 || (*c)->str[(*c)->len - 1] == '/')
		return NULL;
	return ix->subpath;
}

sb_eval *sb_eval_new(const sb_profile *p, unsigned flags)
{
	sb_eval *ev = xcalloc(1, sizeof *ev);
	ev->p = p;
	ev->flags = flags;
	return ev;
}

static void build_index(sb_eval *ix)
{
	const sb_profile *p = ix->p;
	ix->indexed = true;
	ix->literal = sb_strmap_new();
	ix->subpath = sb_strmap_new();
	ix->prefix = sb_strmap_new();
	for (size_t i = 0; i < p->nrules; i++) {
		const sb_rule *r = p->rules[i];
		bool always = r->nfilters == 0;
		for (size_t k = 0; k < r->nfilters && !always; k++) {
			fcache *c = NULL;
			always = !filter_map(ix, r->filters[k], &c);
		}
		if (always) {
			ilist_push(&ix->always, i);
			continue;
		}
		for (size_t k = 0; k < r->nfilters; k++) {
			fcache *c = NULL;
			sb_strmap *m = filter_map(ix, r->filters[k], &c);
			ilist_push(bucket(m, c->str, c->len, true), i);
			ix->nprefix += m == ix->prefix;
		}
	}
}

void sb_eval_free(sb_eval *ix)
{
	if (!ix)
		return;
	sb_strmap *maps[] = { ix->literal, ix->subpath, ix->prefix };
	for (size_t i = 0; ix->indexed && i < sizeof maps / sizeof *maps; i++) {
		sb_strmap_each(maps[i], ilist_free);
		sb_strmap_free(maps[i]);
	}
	for (size_t i = 0; i < ix->prep_cap; i++)
		fcache_free(ix->prep[i].c);
	free(ix->prep);
	free(ix->always.v);
	free(ix->scratch.v);
	free(ix->cands.v);
	free(ix->last);
	free(ix->memo_path);
	free(ix->memo_alias);
	free(ix);
}

static void gather(ilist *out, sb_strmap *m, const char *s, size_t n)
{
	const ilist *l = bucket(m, s, n, false);
	for (size_t i = 0; l && i < l->n; i++)
		ilist_push(out, l->v[i]);
}

static int cmp_index(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	return x < y ? -1 : x > y;
}

/* The candidates for path q, in profile order; kept for the next question
 * (callers ask about one path for many operations in a row).  */
static cands index_cands(sb_eval *ix, const char *q, size_t qlen)
{
	static const size_t none[1];
	if (!ix->indexed)
		build_index(ix);
	if (!ix->last || strcmp(ix->last, q) != 0) {
		ilist *l = &ix->scratch;
		l->n = 0;
		for (size_t i = 0; i < ix->always.n; i++)
			ilist_push(l, ix->always.v[i]);
		gather(l, ix->literal, q, qlen);
		/* (subpath s) matches q when s is q or q continues with '/' */
		for (size_t i = 1; i <= qlen; i++)
			if (i == qlen || q[i] == '/')
				gather(l, ix->subpath, q, i);
		for (size_t i = 0; ix->nprefix && i <= qlen; i++)
			gather(l, ix->prefix, q, i);
		if (l->n)
			qsort(l->v, l->n, sizeof *l->v, cmp_index);
		ix->cands.n = 0;
		for (size_t i = 0; i < l->n; i++)
			if (i == 0 || l->v[i] != l->v[i - 1])
				ilist_push(&ix->cands, l->v[i]);
		SB_GROW(ix->last, qlen, ix->lastcap, 64);
		memcpy(ix->last, q, qlen + 1);
	}
	cands c = { ix->cands.v ? ix->cands.v : none, ix->cands.n };
	return c;
}

static void memo_reset(sb_eval *ix, const char *path)
{
	size_t n = strlen(path) + 1;
	SB_GROW(ix->memo_path, n - 1, ix->memo_cap, 64);   /* n bytes */
	memcpy(ix->memo_path, path, n);
	memset(ix->memo_valid, 0, sizeof ix->memo_valid);
	memset(ix->memo_named, 0, sizeof ix->memo_named);
	/* resolved once here: memo_get decides on it without resolving
	 * again (the planner asks five operations of each point) */
	free(ix->memo_alias);
	ix->memo_alias = sb_path_is_private_aliased(path) ? sb_path_private_alias(path) : NULL;
	const char *q = ix->memo_alias ? ix->memo_alias : path;
	cands c = index_cands(ix, q, strlen(q));
	for (size_t k = 0; k < c.n; k++) {
		const sb_rule *r = ix->p->rules[c.v[k]];
		for (size_t i = 0; i < r->nops; i++)
			if ((int)r->ops[i] >= 0 && r->ops[i] < SB_OP__COUNT)
				ix->memo_named[r->ops[i]] = true;
	}
}

static const sb_decision *memo_get(sb_eval *ix, unsigned slot, unsigned vnode, sb_op op)
{
	if (!ix->memo_valid[slot][op]) {
		sb_op up = sb_op_parent(op);
		if (op != SB_OP_DEFAULT && !ix->memo_named[op] && up != op && (int)up >= 0 &&
		    up < SB_OP__COUNT)
			ix->memo[slot][op] = *memo_get(ix, slot, vnode, up);
		else
			ix->memo[slot][op] = decide(ix, true, op,
						    ix->memo_alias ? ix->memo_alias : ix->memo_path,
						    vnode, false);
		ix->memo_valid[slot][op] = true;
	}
	return &ix->memo[slot][op];
}

/* The memo slot of a vnode value, or -1 for a mask of several types.  */
static int memo_slot(unsigned vnode)
{
	if (vnode == 0)
		return 0;
	for (int b = 0; b < 8; b++)
		if (vnode == 1u << b)
			return b + 1;
	return -1;
}

sb_decision sb_eval_decide_indexed(sb_eval *ix, sb_op op, const char *path, unsigned vnode)
{
	int slot = memo_slot(vnode);
	if (!path || path[0] != '/' || op == SB_OP_OTHER || (int)op < 0 || op >= SB_OP__COUNT ||
	    slot < 0)
		return decide(ix, true, op, path, vnode, true);
	if (!ix->memo_path || strcmp(ix->memo_path, path) != 0)
		memo_reset(ix, path);
	return *memo_get(ix, (unsigned)slot, vnode, op);
}

void sb_eval_decide_every_op(sb_eval *ix, const char *path, unsigned vnode,
			     sb_decision out[SB_OP__COUNT])
{
	int slot = memo_slot(vnode);
	if (!path || path[0] != '/' || slot < 0) {
		for (int op = 0; op < SB_OP_OTHER; op++)
			out[op] = decide(ix, true, (sb_op)op, path, vnode, true);
		return;
	}
	if (!ix->memo_path || strcmp(ix->memo_path, path) != 0)
		memo_reset(ix, path);
	for (int op = 0; op < SB_OP_OTHER; op++)
		out[op] = *memo_get(ix, (unsigned)slot, vnode, (sb_op)op);
}

int sb_op_from_convenience(const char *name)
{
	static const struct { const char *name; sb_op op; } conv[] = {
		{ "read", SB_OP_FILE_READ_DATA }, { "list", SB_OP_FILE_READ_DATA },
		{ "write", SB_OP_FILE_WRITE_DATA }, { "stat", SB_OP_FILE_READ_METADATA },
		{ "exec", SB_OP_PROCESS_EXEC }, { "create", SB_OP_FILE_WRITE_CREATE },
		{ "delete", SB_OP_FILE_WRITE_UNLINK },
	};
	for (size_t i = 0; i < sizeof conv / sizeof *conv; i++)
		if (!strcmp(name, conv[i].name))
			return conv[i].op;
	return -1;
}
