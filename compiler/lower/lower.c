/* lower.c - policy (ast.h) -> profile IR (ir.h), in the order-robust form
 * of docs/language.md "From policy to SBPL":
 *   - `default` first, then one rule per (statement, access class) in
 *     statement order, each carrying its source file:line;
 *   - an unfiltered rule after a rule naming a related operation gets
 *     (subpath "/"), so it beats the earlier filtered rules in both models;
 *   - a parent-operation rule after an overlapping child-operation rule of
 *     the other action also names the child operation (docs/sbpl-model.md,
 *     "Emitting order-robustly", rule 4);
 *   - after a read or stat-only re-allow inside an earlier denied read
 *     region, stat on each directory strictly between the region's root and
 *     the re-allowed path (realpath() lstats every component).
 * Machine-specific paths stay (param ...) unless bound with -D.  */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "compiler/front/ast.h"
#include "compiler/common/arena.h"
#include "compiler/common/path.h"
#include "compiler/common/strmap.h"
#include "compiler/common/xalloc.h"

static bool op_is_ancestor(sb_op anc, sb_op op)
{
	for (sb_op o = sb_op_parent(op); o != SB_OP_DEFAULT; o = sb_op_parent(o))
		if (o == anc)
			return true;
	return false;
}

/* The operation of each access class: the operations make_robust adjusts
 * rules for (with SB_OP_FILE_READ_METADATA of the ancestor grants).  */
static const struct {
	unsigned bit;
	sb_op op;
} access_ops[] = {
	{SBX_ACC_READ, SB_OP_FILE_READ},
	{SBX_ACC_WRITE, SB_OP_FILE_WRITE},
	{SBX_ACC_STAT, SB_OP_FILE_READ_METADATA},
	{SBX_ACC_EXEC, SB_OP_PROCESS_EXEC},
};

/* The first two rules (number + 1) with path filters on two different
 * bases (filter_base), for one (op, action).  */
typedef struct {
	size_t e[2];
	char *base[2];
} base_pair;

/* Where earlier rules stand, so that each new rule looks only at the rules
 * it can relate to (see "index" below).  Rule numbers are positions in the
 * profile plus one (0 = none); every query is over all rules so far, so the
 * first rule to reach a key keeps it.  */
/* The (param ...) strings made so far: arena strings are never changed
 * after they are made, so every filter on one param shares one node (most
 * paths of a large policy are on HOME or WORKSPACE).  A few distinct
 * params at most; past PARAM_CACHE each is made anew.  */
enum { PARAM_CACHE = 32 };

typedef struct {
	sb_profile *prof;         /* the profile being built: its arena */
	/* The profile whose arena the rule being made goes in: `prof`, or
	 * for a streamed compile the scratch of the rules it does not keep
	 * (lower_ctx).  Shared strings (the params) always go in `prof`.  */
	sb_profile *build;
	sb_str *params[PARAM_CACHE];
	size_t nparams;
	bool seen_op[SB_OP__COUNT];
	/* The ops of seen_op in the order first seen: make_robust asks about
	 * these few per rule instead of the whole operation table.  */
	sb_op seen_list[SB_OP__COUNT];
	size_t nseen;
	bool child_op[SB_OP__COUNT]; /* below an op of access_ops: indexed */
	bool anc[SB_OP__COUNT][SB_OP__COUNT]; /* op_is_ancestor(a, b), asked per rule */
	size_t first_any[SB_OP__COUNT][2];  /* 'F': any rule (number + 1) */
	size_t first_wide[SB_OP__COUNT][2]; /* 'W': unfiltered or on no base */
	base_pair other[SB_OP__COUNT][2];
	/* The path trie (see "index" below): one node per base and path
	 * prefix cut at a '/', made in `nodes`.  */
	sb_arena nodes;
	sb_strmap *roots;         /* base -> its root node */
	sb_strmap *kids;          /* parent node's address, component -> node */
	struct pnode **walk;      /* scratch for trie_walk: the nodes of a path */
	size_t walkcap;
	size_t walk_full;         /* trie_walk: the nodes of the whole path */
	size_t walk_n;            /* the nodes the last walk found, still in walk */
	char *walk_base, *walk_suffix; /* its base and suffix */
	size_t walk_basecap, walk_suffixcap;
	char *kidkey;             /* scratch for a kids key */
	size_t kidkeycap;
	sb_strmap *seen;          /* ancestor_rule's filters so far (cleared per rule) */
	struct param_region {     /* bare-param regions in order of appearance */
		const sb_param *param;
		size_t e, f;
	} *param_regions;
	size_t nparam_regions, param_regioncap;
	char *key;                /* scratch for index_key */
	size_t keycap;
	char *base;               /* scratch for key_base */
	size_t basecap;
} lower_index;

/* A deny-read region: filter f of rule e (f = 0 for an unfiltered rule).  */
typedef struct {
	size_t e, f;
} region_at;

/* The first rule (number + 1) to reach a trie node for one (tag, op,
 * action); tags 'S' (a subpath filter on the path), 'L' (a literal on
 * it), 'D' (a filter on the path or below it).  */
typedef struct {
	unsigned char tag, op, action;
	size_t e;
} pfirst;

typedef struct pnode {
	pfirst *v;          /* a few per node: scanned */
	size_t n;
	bool has_region;
	region_at region;   /* the first deny-read region on the path */
} pnode;

typedef struct {
	const sbx_defines *defs;
	sb_diag *d;
	sb_profile *prof;
	int errors;
	lower_index ix;
	const char **gate;        /* per rule: the preset gating it, or NULL */
	size_t ngate, gatecap;
	/* Per rule, its ops (offsets into one pool): make_robust finds the
	 * place of an op in an earlier rule without the rule, which a
	 * streamed compile no longer has.  */
	unsigned char *opool;
	size_t nopool, opoolcap;
	size_t *opat;
	size_t nopat, opatcap;
	/* A streamed compile (sbx_lower_stream): each rule goes to `sink`
	 * once made.  Only the rules later rules read (the read denies, whose
	 * regions ancestor_rule consults) are kept, in prof's arena; the
	 * others are made in `scratch`, emptied before each next rule.  The
	 * preset gate is put on a copy as each rule is given (gate_presets
	 * does it after the whole lowering otherwise), and the params of the
	 * header are collected from what was given.  */
	const sbx_rule_sink *sink;
	sb_profile *scratch;
	const char *cur_gate;
	sb_param_set params;
} lower_ctx;

/* ---- string expressions for targets ---- */

/* A static absolute path as the kernel sees it (/tmp -> /private/tmp).  */
static sb_str *static_str(lower_ctx *c, const char *abs)
{
	char *alias = sb_path_private_alias(abs);
	sb_str *s = sb_str_lit_in(c->ix.build, alias);
	free(alias);
	return s;
}

/* Validate and normalise a -D value used as a path.  NULL after an error.  */
static char *define_path(lower_ctx *c, const char *name, const char *value, const sb_loc *loc)
{
	if (sb_path_bad_char(value) >= 0) {
		sb_diag_report(c->d, SB_SEV_ERROR, loc, "define",
			       "-D %s: the value contains a control character", name);
		c->errors++;
		return NULL;
	}
	const char *why = NULL;
	char *n = sb_path_normalize(value, &why);
	if (!n) {
		sb_diag_report(c->d, SB_SEV_ERROR, loc, "define", "-D %s=%s: %s", name, value,
			       why ? why : "not a normal absolute path");
		c->errors++;
		return NULL;
	}
	return n;
}

/* Param `name` plus a relative suffix, or the -D value when bound.
 * Appends the resulting expressions to *out.  */
static sb_str *param_str(lower_index *ix, const sb_param *p);

static void param_strs(lower_ctx *c, const char *name, bool list, const char *rel,
		       const sb_loc *loc, sb_str ***out, size_t *nout, size_t *cap)
{
	const sb_binding *b = c->defs ? sb_bindings_get(c->defs, name) : NULL;
	if (b) {
		for (size_t i = 0; i < b->nvalues; i++) {
			/* a list given as one -D value is colon-separated, like the
			 * env; empty elements are skipped */
			char *all = xstrdup(b->values[i]);
			char *save = NULL;
			char *tok = list ? strtok_r(all, ":", &save) : all;
			for (; tok; tok = list ? strtok_r(NULL, ":", &save) : NULL) {
				char *v = define_path(c, name, tok, loc);
				if (!v)
					continue;
				char *joined = sb_path_join(v, rel);
				SB_GROW(*out, *nout, *cap, 1);
				(*out)[(*nout)++] = static_str(c, joined);
				free(joined);
				free(v);
			}
			free(all);
		}
		return;
	}
	sb_param param = list ? sb_param_list(name) : sb_param_single(name);
	sb_str *s = param_str(&c->ix, &param);
	sb_param_clear(&param);
	if (rel[0]) {
		size_t rn = strlen(rel);
		char *suffix = xmalloc(rn + 2);   /* "/" rel: one per path, not formatted */
		suffix[0] = '/';
		memcpy(suffix + 1, rel, rn + 1);
		sb_str *parts[2] = {s, sb_str_lit_in(c->ix.build, suffix)};
		free(suffix);
		s = sb_str_append_in(c->ix.build, parts, 2);
	}
	SB_GROW(*out, *nout, *cap, 1);
	(*out)[(*nout)++] = s;
}

static void target_filters(lower_ctx *c, const sbx_target *t, sb_rule *r)
{
	sb_str **strs = NULL;
	size_t n = 0, cap = 0;
	switch (t->base) {
	case SBX_BASE_ABS:
		strs = xmalloc(sizeof *strs);
		strs[n++] = static_str(c, t->rel);
		break;
	case SBX_BASE_HOME:
		param_strs(c, "HOME", false, t->rel, &t->loc, &strs, &n, &cap);
		break;
	case SBX_BASE_WORKSPACE:
		param_strs(c, "WORKSPACE", false, t->rel, &t->loc, &strs, &n, &cap);
		break;
	case SBX_BASE_TMPDIR:
		param_strs(c, "TMPDIR", false, t->rel, &t->loc, &strs, &n, &cap);
		break;
	case SBX_BASE_PARAM:
		param_strs(c, t->name, false, t->rel, &t->loc, &strs, &n, &cap);
		break;
	case SBX_BASE_LIST:
		param_strs(c, t->name, true, t->rel, &t->loc, &strs, &n, &cap);
		break;
	}
	for (size_t i = 0; i < n; i++)
		sb_rule_add_filter(r, sb_filter_path_in(c->ix.build, t->exact ? SB_F_LITERAL : SB_F_SUBPATH,
							strs[i], t->loc));
	free(strs);
}

/* ---- path keys: a path expression as (param, "/suffix") ---- */

typedef struct {
	bool known;         /* false: cannot reason about it statically */
	const sb_param *param;  /* NULL for a static path */
	const char *suffix; /* "" or "/a/b" */
} path_key;

static path_key key_of(const sb_str *s)
{
	path_key k = {false, NULL, ""};
	if (!s)
		return k;
	switch (s->kind) {
	case SB_STR_LIT:
		if (s->text[0] != '/')
			return k;
		k.known = true;
		k.suffix = strcmp(s->text, "/") ? s->text : "";
		return k;
	case SB_STR_PARAM:
		k.known = true;
		k.param = &s->param;
		return k;
	case SB_STR_APPEND:
		if (s->nparts == 2 && s->parts[0]->kind == SB_STR_PARAM &&
		    s->parts[1]->kind == SB_STR_LIT && s->parts[1]->text[0] == '/') {
			k.known = true;
			k.param = &s->parts[0]->param;
			k.suffix = s->parts[1]->text;
		}
		return k;
	}
	return k;
}

static bool is_list_param(const sb_param *p)
{
	return p && sb_param_is_multi(p);
}

static bool same_param(const sb_param *a, const sb_param *b)
{
	return a->kind == b->kind && a->leaf_list == b->leaf_list && a->index == b->index &&
	       !strcmp(a->name, b->name) && !strcmp(a->leaf ? a->leaf : "", b->leaf ? b->leaf : "");
}

/* The shared string of a param (see PARAM_CACHE); the tool gate is part
 * of a param's identity too.  */
static sb_str *param_str(lower_index *ix, const sb_param *p)
{
	for (size_t i = 0; i < ix->nparams; i++) {
		const sb_param *q = &ix->params[i]->param;
		if (same_param(q, p) && !strcmp(q->tool ? q->tool : "", p->tool ? p->tool : ""))
			return ix->params[i];
	}
	sb_str *s = sb_str_param_in(ix->prof, p);
	if (ix->nparams < PARAM_CACHE)
		ix->params[ix->nparams++] = s;
	return s;
}

/* The base of a key: "S" for a static path, "P<spelling>" for a param, in
 * ix->base (valid until the next call: made for every filter of a large
 * policy, so neither formatted nor allocated).  */
static const char *key_base(lower_index *ix, const sb_param *p)
{
	char *owned = NULL;
	const char *name = !p ? "" : p->kind == SB_PARAM_SINGLE && !p->index
					    ? p->name
					    : (owned = sb_param_spelling(p));
	size_t n = strlen(name);
	SB_GROW(ix->base, n + 1, ix->basecap, 64);   /* tag, name, NUL */
	ix->base[0] = p ? 'P' : 'S';
	memcpy(ix->base + 1, name, n + 1);
	free(owned);
	return ix->base;
}

static bool same_base(path_key a, path_key b)
{
	if (!a.known || !b.known)
		return false;
	if (!a.param && !b.param)
		return true;
	return a.param && b.param && same_param(a.param, b.param) && !is_list_param(a.param);
}

/* ---- index: what each new rule must compare with ----
 *
 * make_robust asks for the first earlier rule of the other action that
 * names a child operation and may overlap the new rule; ancestor_rule asks
 * for the earlier read-deny regions above a re-allowed path.  Both are
 * answered from a path trie: per base ("S" for static paths or "P<name>"
 * for a param) one node per path prefix cut before each '/' and at the end,
 * holding the first rule that reached it per (tag, op, action) and the
 * first read-deny region on it; 'F' and 'W' (any rule, a rule that may
 * overlap anything) need no path.  One walk down a path answers every
 * prefix, where string keys hashed each prefix whole.  The answers are
 * exactly what the pairwise scans found.  */

static void index_init(lower_index *ix)
{
	memset(ix, 0, sizeof *ix);
	ix->nodes.min_block = 16384;
	ix->nodes.max_block = 4u << 20;   /* 2 MiB and up: huge pages (arena.h) */
	ix->roots = sb_strmap_new();
	ix->kids = sb_strmap_new();
	ix->seen = sb_strmap_new();
	for (int o = 0; o < SB_OP__COUNT; o++)
		for (size_t a = 0; a < sizeof access_ops / sizeof access_ops[0]; a++)
			ix->child_op[o] |= op_is_ancestor(access_ops[a].op, (sb_op)o);
	for (int a = 0; a < SB_OP__COUNT; a++)
		for (int o = 0; o < SB_OP__COUNT; o++)
			ix->anc[a][o] = op_is_ancestor((sb_op)a, (sb_op)o);
}

static void index_clear(lower_index *ix)
{
	sb_strmap_free(ix->roots);
	sb_strmap_free(ix->kids);
	sb_arena_clear(&ix->nodes);
	free(ix->walk);
	free(ix->walk_base);
	free(ix->walk_suffix);
	free(ix->kidkey);
	sb_strmap_free(ix->seen);
	for (size_t o = 0; o < SB_OP__COUNT; o++)
		for (int a = 0; a < 2; a++)
			for (int k = 0; k < 2; k++)
				free(ix->other[o][a].base[k]);
	free(ix->param_regions);
	free(ix->key);
	free(ix->base);
}

/* The base of a path filter whose suffixes compare (same_base), or NULL
 * when the filter may overlap anything.  Sets *k.  In ix->base (key_base).  */
static const char *filter_base(lower_index *ix, const sb_filter *f, path_key *k)
{
	if (f->kind != SB_F_LITERAL && f->kind != SB_F_SUBPATH)
		return NULL;
	*k = key_of(f->arg);
	if (!k->known || is_list_param(k->param))
		return NULL;
	return key_base(ix, k->param);
}

/* Key bytes: tag, op, action, base, NUL, suffix[0..sn), in ix->key (valid
 * until the next call).  */
static const char *index_key(lower_index *ix, char tag, sb_op op, sb_action a, const char *base,
			     const char *suffix, size_t sn, size_t *len)
{
	size_t bn = base ? strlen(base) : 0;
	size_t n = 3 + bn + 1 + sn;
	SB_GROW(ix->key, n - 1, ix->keycap, 64);   /* n bytes */
	ix->key[0] = tag;
	ix->key[1] = (char)(op + 1);
	ix->key[2] = (char)(a + 1);
	memcpy(ix->key + 3, base ? base : "", bn);
	ix->key[3 + bn] = '\0';
	memcpy(ix->key + 4 + bn, suffix ? suffix : "", sn);
	*len = n;
	return ix->key;
}

static size_t walk_on(lower_index *ix, struct pnode *node, size_t n, const char *suffix,
		      size_t sn, size_t at, bool create);

/* The trie's nodes along `suffix` ("" or "/c1/c2...") under `base`: the
 * root (the base itself) and the node of each prefix cut before a '/' and
 * at the end (the cuts of prefix_cuts), in ix->walk (valid until the next
 * call).  With `create` every node is made; otherwise the walk stops at the
 * first prefix no rule reached.  Returns how many nodes were found.  */
static size_t trie_walk(lower_index *ix, const char *base, const char *suffix, bool create)
{
	size_t sn = strlen(suffix), most = 2;
	for (size_t i = 0; i < sn; i++)
		most += suffix[i] == '/';
	ix->walk_full = sn ? most - 1 : 1;
	SB_GROW(ix->walk, most - 1, ix->walkcap, 16);   /* most nodes */
	size_t bn = strlen(base), n = 0, at = 0;
	pnode *node;
	void **v;
	if (ix->walk_n && !strcmp(base, ix->walk_base)) {
		/* paths come grouped by directory: the nodes of the components
		 * this path shares with the last one are still in ix->walk */
		const char *prev = ix->walk_suffix;
		size_t pn = strlen(prev);
		node = ix->walk[n++];
		while (at < sn && n < ix->walk_n) {
			size_t end = at + 1;
			while (end < sn && suffix[end] != '/')
				end++;
			/* one component, the ones before it equal: not a path
			 * relation (compiler/common/path.h), and inline (the
			 * call cost 1.4M instructions at 10^4 statements) */
			if (end > pn || memcmp(suffix + at, prev + at, end - at) ||
			    (prev[end] != '/' && prev[end] != '\0'))
				break;
			node = ix->walk[n++];
			at = end;
		}
	} else {
		v = sb_strmap_slot(ix->roots, base, bn, create);
		if (!v) {
			ix->walk_n = 0;
			return 0;
		}
		if (!*v)
			*v = sb_arena_alloc(&ix->nodes, sizeof(pnode));
		node = *v;
		ix->walk[n++] = node;
	}
	n = walk_on(ix, node, n, suffix, sn, at, create);
	SB_GROW(ix->walk_base, bn, ix->walk_basecap, 64);
	memcpy(ix->walk_base, base, bn + 1);
	SB_GROW(ix->walk_suffix, sn, ix->walk_suffixcap, 64);
	memcpy(ix->walk_suffix, suffix, sn + 1);
	ix->walk_n = n;
	return n;
}

/* trie_walk from `node`, the n-th node, at suffix[at]: the rest.  */
static size_t walk_on(lower_index *ix, pnode *node, size_t n, const char *suffix, size_t sn,
		      size_t at, bool create)
{
	void **v;
	/* component i runs from just after the '/' of cut i - 1 to cut i */
	while (at < sn) {
		size_t end = at + 1;
		while (end < sn && suffix[end] != '/')
			end++;
		size_t cn = end - at - 1, kn = sizeof node + cn;
		SB_GROW(ix->kidkey, kn - 1, ix->kidkeycap, 64);   /* kn bytes */
		memcpy(ix->kidkey, &node, sizeof node);
		memcpy(ix->kidkey + sizeof node, suffix + at + 1, cn);
		v = sb_strmap_slot(ix->kids, ix->kidkey, kn, create);
		if (!v)
			return n;
		if (!*v)
			*v = sb_arena_alloc(&ix->nodes, sizeof(pnode));
		node = *v;
		ix->walk[n++] = node;
		at = end;
	}
	return n;
}

/* Record e (a rule number) at a node for (tag, op, action) unless an
 * earlier rule reached it first.  */
static void node_first_set(lower_index *ix, pnode *node, char tag, sb_op op, sb_action a, size_t e)
{
	for (size_t i = 0; i < node->n; i++)
		if (node->v[i].tag == (unsigned char)tag && node->v[i].op == (unsigned char)op &&
		    node->v[i].action == (unsigned char)a)
			return;
	if ((node->n & (node->n - 1)) == 0) {   /* 0 or a power of two: grow */
		pfirst *nv = sb_arena_alloc(&ix->nodes, (node->n ? 2 * node->n : 2) * sizeof *nv);
		if (node->n)
			memcpy(nv, node->v, node->n * sizeof *nv);
		node->v = nv;
	}
	node->v[node->n++] = (pfirst){(unsigned char)tag, (unsigned char)op, (unsigned char)a, e + 1};
}

/* The first rule (number + 1) at a node for (tag, op, action), or 0.  */
static size_t node_first_get(const pnode *node, char tag, sb_op op, sb_action a)
{
	for (size_t i = 0; i < node->n; i++)
		if (node->v[i].tag == (unsigned char)tag && node->v[i].op == (unsigned char)op &&
		    node->v[i].action == (unsigned char)a)
			return node->v[i].e;
	return 0;
}

static void first_set_any(size_t (*t)[2], sb_op op, sb_action a, size_t e)
{
	if (!t[op][a])
		t[op][a] = e + 1;
}

static size_t min_found(size_t a, size_t b)
{
	return !a ? b : !b ? a : a < b ? a : b;
}

static void index_filters(lower_index *ix, const sb_rule *r, sb_op op, size_t e)
{
	sb_action a = r->action;
	first_set_any(ix->first_any, op, a, e);
	if (!r->nfilters)
		first_set_any(ix->first_wide, op, a, e);
	for (size_t f = 0; f < r->nfilters; f++) {
		path_key k;
		const char *base = filter_base(ix, r->filters[f], &k);
		if (!base) {
			first_set_any(ix->first_wide, op, a, e);
			continue;
		}
		base_pair *o = &ix->other[op][a];
		if (!o->base[0]) {
			o->e[0] = e + 1;
			o->base[0] = xstrdup(base);
		} else if (!o->base[1] && strcmp(o->base[0], base)) {
			o->e[1] = e + 1;
			o->base[1] = xstrdup(base);
		}
		size_t nn = trie_walk(ix, base, k.suffix, true);
		node_first_set(ix, ix->walk[nn - 1], r->filters[f]->kind == SB_F_SUBPATH ? 'S' : 'L',
			       op, a, e);
		for (size_t i = 0; i < nn; i++)
			node_first_set(ix, ix->walk[i], 'D', op, a, e);
	}
}

static bool rule_denies_read(const sb_rule *r);

static void region_set(lower_index *ix, const char *base, const char *suffix, size_t e, size_t f)
{
	size_t nn = trie_walk(ix, base, suffix, true);
	pnode *node = ix->walk[nn - 1];
	if (node->has_region)
		return;
	node->has_region = true;
	node->region = (region_at){e, f};
}

static void index_regions(lower_index *ix, const sb_rule *r, size_t e)
{
	if (!r->nfilters)
		region_set(ix, "S", "", e, 0);   /* everywhere */
	for (size_t f = 0; f < r->nfilters; f++) {
		if (r->filters[f]->kind != SB_F_SUBPATH)
			continue;
		path_key k;
		const char *base = filter_base(ix, r->filters[f], &k);
		if (!base)
			continue;
		region_set(ix, base, k.suffix, e, f);
		if (!k.param || k.suffix[0])
			continue;
		bool seen = false;
		for (size_t i = 0; i < ix->nparam_regions && !seen; i++)
			seen = same_param(ix->param_regions[i].param, k.param);
		if (seen)
			continue;
		SB_GROW(ix->param_regions, ix->nparam_regions, ix->param_regioncap, 8);
		ix->param_regions[ix->nparam_regions++] = (struct param_region){k.param, e, f};
	}
}

static void stream_rule(lower_ctx *c, sb_rule *r, size_t e);

/* Remember rule e's ops (see lower_ctx.opool).  */
static void note_ops(lower_ctx *c, const sb_rule *r)
{
	SB_GROW(c->opat, c->nopat, c->opatcap, 64);
	c->opat[c->nopat++] = c->nopool;
	SB_GROW(c->opool, c->nopool + r->nops, c->opoolcap, 256);
	for (size_t j = 0; j < r->nops; j++)
		c->opool[c->nopool++] = (unsigned char)r->ops[j];
}

/* Append a rule to the profile and to the index.  */
static void add_rule(lower_ctx *c, sb_rule *r)
{
	size_t e = c->prof->nrules;
	sb_profile_add_rule(c->prof, r);
	note_ops(c, r);
	for (size_t j = 0; j < r->nops; j++) {
		if ((unsigned)r->ops[j] >= SB_OP__COUNT)
			continue;
		if (!c->ix.seen_op[r->ops[j]]) {
			c->ix.seen_op[r->ops[j]] = true;
			c->ix.seen_list[c->ix.nseen++] = r->ops[j];
		}
		if (c->ix.child_op[r->ops[j]])
			index_filters(&c->ix, r, r->ops[j], e);
	}
	if (rule_denies_read(r))
		index_regions(&c->ix, r, e);
	if (c->sink)
		stream_rule(c, r, e);
}

/* The first earlier rule (number + 1) of action `a` naming `op` that may
 * overlap r, or 0.  Two rules may overlap, erring towards yes, when either
 * is unfiltered or two of their filters may: a filter other than a
 * literal or subpath, or on another base, may overlap anything; on the
 * same base, literals overlap when equal, a literal and a subpath when the
 * literal lies under the subpath, two subpaths when one lies under the
 * other.  */
static size_t first_overlapping(lower_index *ix, const sb_rule *r, sb_op op, sb_action a)
{
	size_t best = ix->first_wide[op][a];
	if (!r->nfilters)
		return ix->first_any[op][a];
	for (size_t f = 0; f < r->nfilters; f++) {
		path_key k;
		const char *base = filter_base(ix, r->filters[f], &k);
		if (!base)
			return ix->first_any[op][a];
		/* a filter on another base may overlap */
		const base_pair *o = &ix->other[op][a];
		if (o->base[0] && strcmp(o->base[0], base))
			best = min_found(best, o->e[0]);
		else if (o->base[1])
			best = min_found(best, o->e[1]);
		/* subpaths at or above, literals at, and (for a subpath) anything
		 * below: the nodes of the path that rules reached */
		size_t nn = trie_walk(ix, base, k.suffix, false);
		for (size_t i = 0; i < nn; i++)
			best = min_found(best, node_first_get(ix->walk[i], 'S', op, a));
		if (nn && nn == ix->walk_full) {
			const pnode *at = ix->walk[nn - 1];
			best = min_found(best, node_first_get(at, 'L', op, a));
			if (r->filters[f]->kind == SB_F_SUBPATH)
				best = min_found(best, node_first_get(at, 'D', op, a));
		}
	}
	return best;
}

/* ---- operations ---- */

static bool rule_names(const sb_rule *r, sb_op op)
{
	for (size_t i = 0; i < r->nops; i++)
		if (r->ops[i] == op)
			return true;
	return false;
}

/* Comments the emitter writes under the origin of an adjusted rule.  */
#define NOTE_EVERYWHERE                                                        \
	"sbc: (subpath \"/\") so this rule also overrides the earlier filtered ones"
#define NOTE_CHILD                                                             \
	"sbc: also names the child operation, which Seatbelt consults before its parent"
#define NOTE_EVERYWHERE_AND_CHILD                                              \
	"sbc: (subpath \"/\") so this rule also overrides the earlier filtered ones; "   \
	"also names the child operation, which Seatbelt consults before its parent"
#define NOTE_ANCESTORS                                                         \
	"sbc: stat on the directories above the paths just re-allowed, for realpath()"

/* A child operation to add: found in rule e (number + 1) at op index j.  */
typedef struct {
	size_t e, j;
	sb_op op;
} child_op;

static int child_cmp(const void *a, const void *b)
{
	const child_op *x = a, *y = b;
	if (x->e != y->e)
		return x->e < y->e ? -1 : 1;
	return x->j < y->j ? -1 : x->j > y->j;
}

/* The order-robust adjustments for a new rule naming `op` (see top).  */
static void make_robust(lower_ctx *c, sb_rule *r, sb_op op, const sb_loc *loc)
{
	if (op == SB_OP_NETWORK_ALL)
		return;   /* unfiltered network rules: the last one wins */
	bool related = false;
	for (size_t i = 0; i < c->ix.nseen; i++) {
		sb_op eo = c->ix.seen_list[i];
		if (eo != SB_OP_DEFAULT && (eo == op || c->ix.anc[eo][op] || c->ix.anc[op][eo]))
			related = true;
	}
	bool everywhere = false, child = false;
	if (!r->nfilters && related) {
		sb_rule_add_filter(r, sb_filter_path_in(c->ix.build, SB_F_SUBPATH,
							sb_str_lit_in(c->ix.build, "/"), *loc));
		everywhere = true;
	}
	/* child operations named earlier with the other action, in the order
	 * of the earlier rules that name them */
	sb_action other = r->action == SB_ALLOW ? SB_DENY : SB_ALLOW;
	child_op found[SB_OP__COUNT];
	size_t nfound = 0;
	/* in the order seen, not of the table: `found` is sorted below, and
	 * no two ops share a place (rule, op index) */
	for (size_t i = 0; i < c->ix.nseen; i++) {
		sb_op eo = c->ix.seen_list[i];
		if (!c->ix.anc[op][eo])
			continue;
		if (!c->ix.child_op[eo])
			abort();   /* make_robust is only for the ops of access_ops */
		size_t e = first_overlapping(&c->ix, r, eo, other);
		if (!e)
			continue;
		const unsigned char *ops = c->opool + c->opat[e - 1];
		size_t j = 0;
		while (ops[j] != (unsigned char)eo)
			j++;
		found[nfound++] = (child_op){e, j, eo};
	}
	if (nfound)
		qsort(found, nfound, sizeof *found, child_cmp);
	for (size_t i = 0; i < nfound; i++) {
		if (rule_names(r, found[i].op))
			continue;
		sb_rule_add_op(r, found[i].op, NULL);
		child = true;
	}
	if (everywhere && child)
		r->note = NOTE_EVERYWHERE_AND_CHILD;
	else if (everywhere)
		r->note = NOTE_EVERYWHERE;
	else if (child)
		r->note = NOTE_CHILD;
}

/* ---- D8: stat on the directories above a re-allowed path ---- */

static bool rule_denies_read(const sb_rule *r)
{
	return r->action == SB_DENY &&
	       (rule_names(r, SB_OP_FILE_READ) || rule_names(r, SB_OP_FILE_READ_METADATA) ||
		rule_names(r, SB_OP_FILE_ALL));
}

/* Add (literal s) unless `seen` (keys of the filters added so far) has it.  */
static void add_unique_filter(lower_index *ix, sb_rule *r, sb_strmap *seen, sb_str *s,
			      const sb_loc *loc)
{
	path_key k = key_of(s);
	size_t len;
	const char *base = key_base(ix, k.param);
	const char *key = index_key(ix, base[0], SB_OP_DEFAULT, SB_ALLOW, base + 1, k.suffix,
				    strlen(k.suffix), &len);
	void **v = sb_strmap_slot(seen, key, len, true);
	if (*v) {
		sb_str_free(s);
		return;
	}
	*v = s;
	sb_rule_add_filter(r, sb_filter_path_in(ix->build, SB_F_LITERAL, s, *loc));
}

static sb_str *key_str(lower_index *ix, const sb_param *param, const char *suffix)
{
	sb_profile *p = ix->build;
	if (!param)
		return sb_str_lit_in(p, suffix[0] ? suffix : "/");
	if (!suffix[0])
		return param_str(ix, param);
	sb_str *parts[2] = {param_str(ix, param), sb_str_lit_in(p, suffix)};
	return sb_str_append_in(p, parts, 2);
}

/* Ancestors strictly between region root `reg` and target `t`.  */
static void ancestors(lower_index *ix, path_key reg, path_key t, sb_rule *out, sb_strmap *seen,
		      const sb_loc *loc)
{
	if (!reg.known || !t.known || is_list_param(reg.param))
		return;
	if (same_base(reg, t)) {
		size_t rn = strlen(reg.suffix);
		if (!sb_path_is_strictly_under(t.suffix, reg.suffix))
			return;
		for (size_t i = rn + 1; t.suffix[i]; i++) {
			if (t.suffix[i] != '/')
				continue;
			char *prefix = xstrndup(t.suffix, i);
			add_unique_filter(ix, out, seen, key_str(ix, reg.param, prefix), loc);
			free(prefix);
		}
		return;
	}
	/* runtime: a bare root and another param, e.g. HOME..WORKSPACE, which
	 * the binder expands to the directories strictly between the two (none
	 * when the second is not below the first).  For workspace/a/b the
	 * workspace and workspace/a follow: they are inside the region exactly
	 * when the workspace is, and stat on them is what realpath() needs. */
	if (reg.param && t.param && !reg.suffix[0] && !same_param(reg.param, t.param) &&
	    t.param->kind != SB_PARAM_ANCESTORS && (!t.suffix[0] || !is_list_param(t.param))) {
		sb_param between = sb_param_ancestors(reg.param->name, t.param->name,
						      t.param->kind == SB_PARAM_LIST);
		add_unique_filter(ix, out, seen, param_str(ix, &between), loc);
		sb_param_clear(&between);
		if (t.suffix[0])
			add_unique_filter(ix, out, seen, param_str(ix, t.param), loc);
		for (size_t i = 1; t.suffix[0] && t.suffix[i]; i++) {
			if (t.suffix[i] != '/')
				continue;
			char *prefix = xstrndup(t.suffix, i);
			add_unique_filter(ix, out, seen, key_str(ix, t.param, prefix), loc);
			free(prefix);
		}
	}
}

/* One ancestors() call: region filter f of rule e, target filter j.  */
typedef struct {
	size_t e, f, j;
} anc_call;

static int anc_cmp(const void *a, const void *b)
{
	const anc_call *x = a, *y = b;
	if (x->e != y->e)
		return x->e < y->e ? -1 : 1;
	if (x->f != y->f)
		return x->f < y->f ? -1 : 1;
	return x->j < y->j ? -1 : x->j > y->j;
}

static void push_call(anc_call **v, size_t *n, size_t *cap, size_t e, size_t f, size_t j)
{
	SB_GROW(*v, *n, *cap, 16);
	(*v)[(*n)++] = (anc_call){e, f, j};
}

/* The read-deny regions that can add ancestors of the allow's filters, in
 * rule order: the first rule of each region key is enough, as later ones
 * add the same filters again.  */
static void ancestor_rule(lower_ctx *c, const sb_rule *allow, const sb_loc *loc)
{
	sb_profile *p = c->prof;
	sb_rule *anc = sb_rule_new_in(c->ix.build, SB_ALLOW, *loc);
	sb_rule_add_op(anc, SB_OP_FILE_READ_METADATA, NULL);
	anc->origin = allow->origin;
	anc->note = NOTE_ANCESTORS;
	anc_call *calls = NULL;
	size_t ncalls = 0, cap = 0;
	for (size_t j = 0; j < allow->nfilters; j++) {
		path_key t = key_of(allow->filters[j]->arg);
		if (!t.known)
			continue;
		if (!is_list_param(t.param)) {
			/* same base: regions strictly above the target */
			const char *base = key_base(&c->ix, t.param);
			size_t nn = trie_walk(&c->ix, base, t.suffix, false);
			for (size_t i = 0; i < nn && i + 1 < c->ix.walk_full; i++) {
				const pnode *at = c->ix.walk[i];
				if (at->has_region)
					push_call(&calls, &ncalls, &cap, at->region.e, at->region.f, j);
			}
		}
		if (t.param && t.param->kind != SB_PARAM_ANCESTORS &&
		    (!t.suffix[0] || !is_list_param(t.param)))
			for (size_t i = 0; i < c->ix.nparam_regions; i++)
				if (!same_param(c->ix.param_regions[i].param, t.param))
					push_call(&calls, &ncalls, &cap, c->ix.param_regions[i].e,
						  c->ix.param_regions[i].f, j);
	}
	if (ncalls)   /* qsort(NULL, 0, ...) is undefined */
		qsort(calls, ncalls, sizeof *calls, anc_cmp);
	sb_strmap *seen = c->ix.seen;
	sb_strmap_clear(seen);
	path_key everywhere = {true, NULL, ""};
	for (size_t i = 0; i < ncalls; i++) {
		const sb_rule *e = p->rules[calls[i].e];
		path_key reg = e->nfilters ? key_of(e->filters[calls[i].f]->arg) : everywhere;
		ancestors(&c->ix, reg, key_of(allow->filters[calls[i].j]->arg), anc, seen, loc);
	}
	free(calls);
	if (anc->nfilters) {
		make_robust(c, anc, SB_OP_FILE_READ_METADATA, loc);
		anc->note = NOTE_ANCESTORS;
		add_rule(c, anc);
	} else {
		sb_rule_free(anc);
	}
}

/* ---- statements ---- */

/* Make the rules that follow in prof's arena (keep) or, streaming, in the
 * scratch, which is emptied: the rules made there before were given to
 * the sink, and nothing made since reads them.  */
static void build_in(lower_ctx *c, bool keep)
{
	if (!c->sink || keep) {
		c->ix.build = c->prof;
		return;
	}
	sb_arena_rewind(c->scratch->arena);
	c->ix.build = c->scratch;
}

static sb_rule *stmt_rule(lower_ctx *c, const sbx_stmt *s, sb_action action, sb_op op)
{
	sb_rule *r = sb_rule_new_in(c->ix.build, action, s->loc);
	sb_rule_add_op(r, op, NULL);
	r->origin = s->origin;
	return r;
}

/* Host rules: the egress list (network on|off and network allow|deny in
 * policy order) travels as data beside the rules.  Seatbelt cannot decide by
 * host name, so when host rules decide anything the SBPL denies the network
 * and allows only the launcher's proxy (docs/egress.md).  */
#define NOTE_EGRESS                                                            \
	"sbc: egress by host name: only the launcher's proxy is reachable; it decides by host"

static void lower_egress(lower_ctx *c, const sbx_policy *p)
{
	const sbx_stmt *last = NULL;
	for (size_t i = 0; i < p->nstmts; i++)
		if (p->stmts[i].kind == SBX_STMT_HOSTS)
			last = &p->stmts[i];
	if (!last)
		return;
	sb_egress *eg = &c->prof->egress;
	for (size_t i = 0; i < p->nstmts; i++) {
		const sbx_stmt *s = &p->stmts[i];
		if (s->kind != SBX_STMT_NETWORK && s->kind != SBX_STMT_HOSTS)
			continue;
		const sb_origin *origin =
			s->origin ? s->origin : sb_origin_new(c->d, "policy", s->loc.line, 0, NULL, 0);
		if (s->kind == SBX_STMT_NETWORK)
			sb_egress_add(eg, s->action == SB_ALLOW, true, NULL, origin);
		for (size_t j = 0; j < s->nhosts; j++) {
			sb_host_pat pat = s->hosts[j];
			if (pat.name)
				pat.name = xasprintf("%s", pat.name);
			sb_egress_add(eg, s->action == SB_ALLOW, false, &pat, origin);
		}
	}
	if (!sb_egress_filtered(eg))
		return;
	build_in(c, false);
	add_rule(c, stmt_rule(c, last, SB_DENY, SB_OP_NETWORK_ALL));
	sb_rule *r = stmt_rule(c, last, SB_ALLOW, SB_OP_NETWORK_OUTBOUND);
	sb_rule_add_filter(r, sb_filter_opaque_in(c->ix.build, "(remote ip (param \"EGRESS_PROXY\"))",
						  last->loc));
	r->note = NOTE_EGRESS;
	add_rule(c, r);
}

static void lower_rule(lower_ctx *c, const sbx_stmt *s)
{
	for (size_t a = 0; a < sizeof access_ops / sizeof access_ops[0]; a++) {
		if (!(s->access & access_ops[a].bit))
			continue;
		/* kept: the read denies, which are regions (rule_denies_read:
		 * make_robust adds only operations below the statement's own) */
		build_in(c, s->action == SB_DENY && (access_ops[a].op == SB_OP_FILE_READ ||
						     access_ops[a].op == SB_OP_FILE_READ_METADATA));
		sb_rule *r = stmt_rule(c, s, s->action, access_ops[a].op);
		for (size_t t = 0; t < s->ntargets; t++)
			target_filters(c, &s->targets[t], r);
		if (s->ntargets && !r->nfilters) {
			/* every target was a -D list bound to nothing: no rule */
			sb_rule_free(r);
			continue;
		}
		make_robust(c, r, access_ops[a].op, &s->loc);
		add_rule(c, r);
		if (s->action == SB_ALLOW && r->nfilters &&
		    (access_ops[a].op == SB_OP_FILE_READ || access_ops[a].op == SB_OP_FILE_READ_METADATA))
			ancestor_rule(c, r, &s->loc);
	}
}

/* ---- presets ---- */

/* `old` behind the gate param: all in p's arena (the old append's node
 * stays there).  */
static sb_str *gated_str(sb_profile *p, sb_str *old, const sb_param *param)
{
	size_t n = old->kind == SB_STR_APPEND ? old->nparts : 1;
	sb_str **parts = xcalloc(n + 1, sizeof *parts);
	parts[0] = sb_str_param_in(p, param);
	if (old->kind == SB_STR_APPEND)
		memcpy(parts + 1, old->parts, n * sizeof *parts);
	else
		parts[1] = old;
	sb_str *s = sb_str_append_in(p, parts, n + 1);
	free(parts);
	return s;
}

static void gate_filter(sb_profile *p, sb_filter *f, const sb_param *param)
{
	for (size_t i = 0; i < f->nkids; i++)
		gate_filter(p, f->kids[i], param);
	if (f->arg)
		f->arg = gated_str(p, f->arg, param);
}

/* A gated copy of f in p's arena, f unchanged (streaming: a kept rule is
 * read later on its plain paths).  */
static sb_filter *gated_copy(sb_profile *p, const sb_filter *f, const sb_param *param)
{
	sb_filter *g = sb_arena_alloc(p->arena, sizeof *g);
	*g = *f;
	if (f->nkids) {
		g->kids = sb_arena_alloc(p->arena, f->nkids * sizeof *g->kids);
		for (size_t i = 0; i < f->nkids; i++)
			g->kids[i] = gated_copy(p, f->kids[i], param);
	}
	if (f->arg)
		g->arg = gated_str(p, f->arg, param);
	return g;
}

/* Give rule e to the sink, gated as gate_presets would gate it, and
 * forget it unless it is kept (build_in).  */
static void stream_rule(lower_ctx *c, sb_rule *r, size_t e)
{
	const sb_rule *out = r;
	if (c->cur_gate && r->nfilters) {
		sb_profile *p = c->scratch;
		sb_rule *g = sb_arena_alloc(p->arena, sizeof *g);
		*g = *r;
		g->filters = sb_arena_alloc(p->arena, r->nfilters * sizeof *g->filters);
		sb_param gate = sb_param_gate(c->cur_gate);
		for (size_t j = 0; j < r->nfilters; j++)
			g->filters[j] = gated_copy(p, r->filters[j], &gate);
		sb_param_clear(&gate);
		out = g;
	}
	sb_param_set_add_rule(&c->params, out);
	c->sink->rule(c->sink->ctx, out);
	bool kept = r->arena == c->prof->arena;
	if (rule_denies_read(r) && !kept)
		abort();   /* ancestor_rule reads it later: build_in must keep it */
	if (!kept)
		c->prof->rules[e] = NULL;   /* in the scratch: gone at the next rule */
}

/* Prefix every path of a preset's rules (ancestor rules included) with the
 * preset's gate list: bound to one empty string the path is unchanged, bound
 * to nothing the rule vanishes (sb_profile_bind drops a rule whose filters
 * all expand to nothing).  Done after lowering, so the order-robust
 * adjustments and the ancestors are computed on the plain paths; dropping a
 * whole statement's rules leaves the other rules deciding as before.  */
static void gate_presets(lower_ctx *c)
{
	for (size_t e = 0; e < c->prof->nrules && e < c->ngate; e++) {
		if (!c->gate[e])
			continue;
		sb_param gate = sb_param_gate(c->gate[e]);
		sb_rule *r = c->prof->rules[e];
		for (size_t j = 0; j < r->nfilters; j++)
			gate_filter(c->prof, r->filters[j], &gate);
		sb_param_clear(&gate);
	}
}

static void note_gate(lower_ctx *c, const char *preset)
{
	size_t n = c->prof->nrules;
	SB_GROW(c->gate, n, c->gatecap, 64);
	for (size_t e = c->ngate; e < n; e++)
		c->gate[e] = preset;
	c->ngate = n;
}

static const char *basename_of(const char *file)
{
	const char *slash = strrchr(file, '/');
	return slash && slash[1] ? slash + 1 : file;
}

static sb_profile *lower(const sbx_policy *p, const sbx_defines *defs, sb_diag *d,
			 const sbx_rule_sink *sink)
{
	lower_ctx c = {.defs = defs, .d = d, .prof = sb_profile_new_arena(), .sink = sink};
	index_init(&c.ix);
	c.ix.prof = c.prof;
	if (sink)
		c.scratch = sb_profile_new_arena();
	build_in(&c, false);
	c.prof->version = 1;
	const sbx_stmt *deflt = NULL;
	for (size_t i = 0; i < p->nstmts; i++) {
		const sbx_stmt *s = &p->stmts[i];
		if (s->kind != SBX_STMT_DEFAULT)
			continue;
		if (deflt) {
			sb_diag_report(d, SB_SEV_ERROR, &s->loc, "default",
				       "a second 'default' statement; a policy has exactly one");
			sb_diag_note(d, &deflt->loc, "the first 'default' is here");
			c.errors++;
		} else {
			deflt = s;
		}
	}
	if (!deflt) {
		sb_loc at = {.file = p->file, .line = 0, .col = 0};
		sb_diag_report(d, SB_SEV_ERROR, p->file ? &at : NULL, "default",
			       "the policy has no 'default allow;' or 'default deny;' statement");
		c.errors++;
	} else {
		sb_rule *r = stmt_rule(&c, deflt, deflt->action, SB_OP_DEFAULT);
		add_rule(&c, r);
	}
	for (size_t i = 0; i < p->nstmts; i++) {
		const sbx_stmt *s = &p->stmts[i];
		c.cur_gate = s->kind == SBX_STMT_RULE ? s->preset : NULL;
		if (s->kind == SBX_STMT_NETWORK) {
			build_in(&c, false);
			add_rule(&c, stmt_rule(&c, s, s->action, SB_OP_NETWORK_ALL));
		} else if (s->kind == SBX_STMT_RULE) {
			lower_rule(&c, s);
		}
		if (!sink)
			note_gate(&c, c.cur_gate);
	}
	c.cur_gate = NULL;
	lower_egress(&c, p);
	index_clear(&c.ix);
	free(c.opool);
	free(c.opat);
	if (sink) {
		/* the rules went to the sink; the kept ones die with the arena */
		c.prof->nrules = 0;
		sb_profile_free(c.scratch);
	} else {
		gate_presets(&c);
	}
	free(c.gate);
	size_t n = 0;
	sb_param *params = sink ? sb_param_set_take(&c.params, &n) : sb_profile_params(c.prof, &n);
	if (c.errors) {
		sb_param_array_free(params, n);
		sb_profile_free(c.prof);
		return NULL;
	}
	c.prof->source_policy = xstrdup(basename_of(p->file ? p->file : "policy"));
	char **spellings = xcalloc(n ? n : 1, sizeof *spellings);
	size_t len = 0;
	for (size_t i = 0; i < n; i++) {
		spellings[i] = sb_param_spelling(&params[i]);
		len += strlen(spellings[i]) + 1;
	}
	char *list = xcalloc(1, len + 8);
	for (size_t i = 0; i < n; i++) {
		strcat(list, i ? " " : "");
		strcat(list, spellings[i]);
		free(spellings[i]);
	}
	free(spellings);
	sb_param_array_free(params, n);
	char *line = xasprintf("params bound at launch: %s", n ? list : "none");
	sb_profile_add_header(c.prof, line);
	free(line);
	free(list);
	return c.prof;
}

sb_profile *sbx_lower(const sbx_policy *p, const sbx_defines *defs, sb_diag *d)
{
	return lower(p, defs, d, NULL);
}

sb_profile *sbx_lower_stream(const sbx_policy *p, const sbx_defines *defs, sb_diag *d,
			     const sbx_rule_sink *sink)
{
	return lower(p, defs, d, sink);
}
