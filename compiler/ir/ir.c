/* ir.c - the profile IR: constructors, deep copies, frees, param binding
 * and the macOS list expansion (see ir.h).  */
#include "compiler/ir/ir.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/common/arena.h"
#include "compiler/common/path.h"
#include "compiler/common/xalloc.h"

/* Append to an array only ever grown here: its capacity is the power of
 * two at or above n, so it grows when n is 0 or a power of two (a profile
 * of a large policy appends 10^5 rules: growing by one copied them over
 * and over).  */
#define PUSH(arr, n, item)                                                  \
	do {                                                                \
		if (((n) & ((n) - 1)) == 0)                                 \
			(arr) = xrealloc((arr), ((n) ? 2 * (n) : 1) * sizeof *(arr)); \
		(arr)[(n)++] = (item);                                      \
	} while (0)


/* The same growth for an array in an arena: a new block at 0 and at each
 * power of two (the old one stays in the arena until it is cleared).  */
static void *arena_grow(sb_arena *a, void *arr, size_t n, size_t size)
{
	if (n & (n - 1))
		return arr;
	void *q = sb_arena_alloc(a, (n ? 2 * n : 1) * size);
	if (n)
		memcpy(q, arr, n * size);
	return q;
}

#define APUSH(a, arr, n, item)                                              \
	do {                                                                \
		(arr) = arena_grow((a), (arr), (n), sizeof *(arr));         \
		(arr)[(n)++] = (item);                                      \
	} while (0)

static char *arena_dup_or_null(sb_arena *a, const char *s)
{
	return s ? sb_arena_strdup(a, s) : NULL;
}

static sb_param param_in(sb_arena *a, const sb_param *p)
{
	return (sb_param){ .kind = p->kind, .name = arena_dup_or_null(a, p->name),
			   .leaf = arena_dup_or_null(a, p->leaf), .leaf_list = p->leaf_list,
			   .tool = arena_dup_or_null(a, p->tool), .index = p->index };
}

/* A literal or an append in an arena has no `param` (ir.h): most strings of
 * a compiled profile are one of those.  */
#define STR_NO_PARAM offsetof(sb_str, param)

static sb_str *str_lit_in(sb_arena *a, const char *value)
{
	size_t n = value ? strlen(value) : 0;
	sb_str *s = sb_arena_alloc(a, STR_NO_PARAM + n + 1);
	s->kind = SB_STR_LIT;
	s->in_arena = true;
	s->text = (char *)s + STR_NO_PARAM;
	if (n)
		memcpy(s->text, value, n);
	return s;
}

/* A deep copy of a heap string into the arena (an arena one is returned).  */
static sb_str *str_into(sb_arena *a, const sb_str *s)
{
	if (!s || s->in_arena)
		return (sb_str *)s;
	if (s->kind == SB_STR_LIT)
		return str_lit_in(a, s->text);
	sb_str *c = sb_arena_alloc(a, s->kind == SB_STR_PARAM ? sizeof *c : STR_NO_PARAM);
	c->kind = s->kind;
	c->in_arena = true;
	c->text = arena_dup_or_null(a, s->text);
	if (s->kind == SB_STR_PARAM)
		c->param = param_in(a, &s->param);
	if (s->nparts) {
		c->parts = sb_arena_alloc(a, s->nparts * sizeof *c->parts);
		for (size_t i = 0; i < s->nparts; i++)
			c->parts[i] = str_into(a, s->parts[i]);
		c->nparts = s->nparts;
	}
	return c;
}

static sb_filter *filter_into(sb_arena *a, const sb_filter *f)
{
	if (!f || f->in_arena)
		return (sb_filter *)f;
	sb_filter *c = sb_arena_alloc(a, sizeof *c);
	c->kind = f->kind;
	c->in_arena = true;
	c->arg = str_into(a, f->arg);
	c->vnode_mask = f->vnode_mask;
	c->opaque = arena_dup_or_null(a, f->opaque);
	c->loc = f->loc;
	if (f->nkids) {
		c->kids = sb_arena_alloc(a, f->nkids * sizeof *c->kids);
		for (size_t i = 0; i < f->nkids; i++)
			c->kids[i] = filter_into(a, f->kids[i]);
		c->nkids = f->nkids;
	}
	return c;
}

sb_str *sb_str_lit_in(sb_profile *p, const char *value)
{
	return str_lit_in(p->arena, value);
}

sb_str *sb_str_param_in(sb_profile *p, const sb_param *param)
{
	sb_str *s = sb_arena_alloc(p->arena, sizeof *s);
	s->kind = SB_STR_PARAM;
	s->in_arena = true;
	s->param = param_in(p->arena, param);
	return s;
}

sb_str *sb_str_append_in(sb_profile *p, sb_str **parts, size_t n)
{
	sb_str *s = sb_arena_alloc(p->arena, STR_NO_PARAM);
	s->kind = SB_STR_APPEND;
	s->in_arena = true;
	s->parts = sb_arena_alloc(p->arena, n * sizeof *s->parts);
	for (size_t i = 0; i < n; i++) {
		s->parts[i] = str_into(p->arena, parts[i]);
		if (s->parts[i] != parts[i])
			sb_str_free(parts[i]);
	}
	s->nparts = n;
	return s;
}

sb_filter *sb_filter_path_in(sb_profile *p, sb_filter_kind kind, sb_str *arg, sb_loc loc)
{
	sb_filter *f = sb_arena_alloc(p->arena, sizeof *f);
	f->kind = kind;
	f->in_arena = true;
	f->arg = str_into(p->arena, arg);
	if (f->arg != arg)
		sb_str_free(arg);
	f->loc = loc;
	return f;
}

sb_filter *sb_filter_opaque_in(sb_profile *p, const char *text, sb_loc loc)
{
	sb_filter *f = sb_arena_alloc(p->arena, sizeof *f);
	f->kind = SB_F_OPAQUE;
	f->in_arena = true;
	f->opaque = sb_arena_strdup(p->arena, text);
	f->loc = loc;
	return f;
}

sb_rule *sb_rule_new_in(sb_profile *p, sb_action action, sb_loc loc)
{
	sb_rule *r = sb_arena_alloc(p->arena, sizeof *r);
	r->arena = p->arena;
	r->action = action;
	r->loc = loc;
	return r;
}

sb_profile *sb_profile_new_arena(void)
{
	sb_profile *p = sb_profile_new();
	p->arena = xcalloc(1, sizeof *p->arena);
	/* small policies (the launcher compiles one per launch) stay in one
	 * 32 KiB block; 100k statements take about 20 blocks */
	p->arena->min_block = 32768;
	p->arena->max_block = 4u << 20;
	return p;
}

/* ---- strings ---- */

/* The text of a literal lives in the same block, just after it: one
 * allocation per string of a large profile instead of two.  */
sb_str *sb_str_lit(const char *value)
{
	size_t n = value ? strlen(value) : 0;
	sb_str *s = xcalloc(1, sizeof *s + n + 1);
	s->kind = SB_STR_LIT;
	s->text = (char *)(s + 1);
	if (n)
		memcpy(s->text, value, n);
	return s;
}

sb_str *sb_str_param(const sb_param *p)
{
	sb_str *s = xcalloc(1, sizeof *s);
	s->kind = SB_STR_PARAM;
	s->param = sb_param_copy(p);
	return s;
}

sb_str *sb_str_param_spelled(const char *spelling)
{
	sb_param p = sb_param_parse(spelling);
	sb_str *s = sb_str_param(&p);
	sb_param_clear(&p);
	return s;
}

sb_str *sb_str_append(sb_str **parts, size_t n)
{
	sb_str *s = xcalloc(1, sizeof *s);
	s->kind = SB_STR_APPEND;
	s->parts = xcalloc(n, sizeof *s->parts);
	memcpy(s->parts, parts, n * sizeof *parts);
	s->nparts = n;
	return s;
}

sb_str *sb_str_clone(const sb_str *s)
{
	if (!s)
		return NULL;
	if (s->kind == SB_STR_LIT)
		return sb_str_lit(s->text);
	sb_str *c = xcalloc(1, sizeof *c);
	c->kind = s->kind;
	c->text = s->text ? xstrdup(s->text) : NULL;
	if (s->kind == SB_STR_PARAM)
		c->param = sb_param_copy(&s->param);
	if (s->nparts) {
		c->parts = xcalloc(s->nparts, sizeof *c->parts);
		for (size_t i = 0; i < s->nparts; i++)
			c->parts[i] = sb_str_clone(s->parts[i]);
		c->nparts = s->nparts;
	}
	return c;
}

void sb_str_free(sb_str *s)
{
	if (!s || s->in_arena)
		return;
	for (size_t i = 0; i < s->nparts; i++)
		sb_str_free(s->parts[i]);
	free(s->parts);
	if (s->text != (char *)(s + 1))
		free(s->text);
	sb_param_clear(&s->param);
	free(s);
}

char *sb_str_value(const sb_str *s)
{
	if (!s)
		return NULL;
	if (s->kind == SB_STR_LIT)
		return xstrdup(s->text);
	if (s->kind == SB_STR_PARAM)
		return NULL;
	size_t len = 0;
	char **vals = xcalloc(s->nparts, sizeof *vals);
	char *out = NULL;
	for (size_t i = 0; i < s->nparts; i++) {
		vals[i] = sb_str_value(s->parts[i]);
		if (!vals[i])
			goto done;
		len += strlen(vals[i]);
	}
	out = xcalloc(len + 1, 1);
	for (size_t i = 0; i < s->nparts; i++)
		strcat(out, vals[i]);
done:
	for (size_t i = 0; i < s->nparts; i++)
		free(vals[i]);
	free(vals);
	return out;
}

/* ---- filters ---- */

sb_filter *sb_filter_path(sb_filter_kind kind, sb_str *arg, sb_loc loc)
{
	sb_filter *f = xcalloc(1, sizeof *f);
	f->kind = kind;
	f->arg = arg;
	f->loc = loc;
	return f;
}

sb_filter *sb_filter_vnode(unsigned mask, sb_loc loc)
{
	sb_filter *f = xcalloc(1, sizeof *f);
	f->kind = SB_F_VNODE_TYPE;
	f->vnode_mask = mask;
	f->loc = loc;
	return f;
}

sb_filter *sb_filter_logic(sb_filter_kind kind, sb_filter **kids, size_t n, sb_loc loc)
{
	sb_filter *f = xcalloc(1, sizeof *f);
	f->kind = kind;
	f->kids = xcalloc(n, sizeof *f->kids);
	if (n)
		memcpy(f->kids, kids, n * sizeof *kids);
	f->nkids = n;
	f->loc = loc;
	return f;
}

sb_filter *sb_filter_opaque(const char *text, sb_loc loc)
{
	sb_filter *f = xcalloc(1, sizeof *f);
	f->kind = SB_F_OPAQUE;
	f->opaque = xstrdup(text);
	f->loc = loc;
	return f;
}

sb_filter *sb_filter_clone(const sb_filter *f)
{
	if (!f)
		return NULL;
	sb_filter *c = xcalloc(1, sizeof *c);
	c->kind = f->kind;
	c->arg = sb_str_clone(f->arg);
	c->vnode_mask = f->vnode_mask;
	c->opaque = f->opaque ? xstrdup(f->opaque) : NULL;
	c->loc = f->loc;
	c->kids = xcalloc(f->nkids, sizeof *c->kids);
	for (size_t i = 0; i < f->nkids; i++)
		c->kids[i] = sb_filter_clone(f->kids[i]);
	c->nkids = f->nkids;
	return c;
}

void sb_filter_free(sb_filter *f)
{
	if (!f || f->in_arena)
		return;
	sb_str_free(f->arg);
	for (size_t i = 0; i < f->nkids; i++)
		sb_filter_free(f->kids[i]);
	free(f->kids);
	free(f->opaque);
	free(f);
}

/* ---- rules ---- */

sb_rule *sb_rule_new(sb_action action, sb_loc loc)
{
	sb_rule *r = xcalloc(1, sizeof *r);
	r->action = action;
	r->loc = loc;
	return r;
}

void sb_rule_add_op(sb_rule *r, sb_op op, const char *spelling)
{
	size_t n = r->nops;
	if (r->arena)
		APUSH(r->arena, r->ops, n, op);
	else
		PUSH(r->ops, n, op);
	/* op_names[i] NULL: the operation's own name (op_spelling in
	 * emit_sbpl.c); no array at all until a rule names one by another
	 * spelling (most rules of a compiled policy never do) */
	if (!spelling && !r->op_names) {
		r->nops++;
		return;
	}
	if (!r->op_names) {
		/* the capacity PUSH assumes for r->nops + 1 entries */
		size_t cap = 1;
		while (cap < r->nops + 1)
			cap *= 2;
		r->op_names = r->arena ? sb_arena_alloc(r->arena, cap * sizeof *r->op_names)
				       : xcalloc(cap, sizeof *r->op_names);
		r->op_names[r->nops++] = r->arena ? sb_arena_strdup(r->arena, spelling) : xstrdup(spelling);
		return;
	}
	if (r->arena)
		APUSH(r->arena, r->op_names, r->nops, arena_dup_or_null(r->arena, spelling));
	else
		PUSH(r->op_names, r->nops, spelling ? xstrdup(spelling) : NULL);
}

void sb_rule_add_filter(sb_rule *r, sb_filter *f)
{
	if (!r->arena) {
		PUSH(r->filters, r->nfilters, f);
		return;
	}
	sb_filter *a = filter_into(r->arena, f);
	if (a != f)
		sb_filter_free(f);
	APUSH(r->arena, r->filters, r->nfilters, a);
}

void sb_rule_add_modifier(sb_rule *r, const char *text)
{
	if (r->arena)
		APUSH(r->arena, r->modifiers, r->nmodifiers, sb_arena_strdup(r->arena, text));
	else
		PUSH(r->modifiers, r->nmodifiers, xstrdup(text));
}

sb_rule *sb_rule_clone(const sb_rule *r)
{
	sb_rule *c = sb_rule_new(r->action, r->loc);
	for (size_t i = 0; i < r->nops; i++)
		sb_rule_add_op(c, r->ops[i], r->op_names ? r->op_names[i] : NULL);
	for (size_t i = 0; i < r->nfilters; i++)
		sb_rule_add_filter(c, sb_filter_clone(r->filters[i]));
	for (size_t i = 0; i < r->nmodifiers; i++)
		sb_rule_add_modifier(c, r->modifiers[i]);
	c->origin = r->origin;
	c->note = r->note;
	c->call_loc = r->call_loc;
	c->call_name = r->call_name;
	return c;
}

void sb_rule_free(sb_rule *r)
{
	if (!r || r->arena)
		return;
	for (size_t i = 0; r->op_names && i < r->nops; i++)
		free(r->op_names[i]);
	free(r->ops);
	free(r->op_names);
	for (size_t i = 0; i < r->nfilters; i++)
		sb_filter_free(r->filters[i]);
	free(r->filters);
	for (size_t i = 0; i < r->nmodifiers; i++)
		free(r->modifiers[i]);
	free(r->modifiers);
	free(r);
}

/* ---- profiles ---- */

sb_profile *sb_profile_new(void)
{
	sb_profile *p = xcalloc(1, sizeof *p);
	p->version = 1;
	return p;
}

void sb_profile_add_rule(sb_profile *p, sb_rule *r) { PUSH(p->rules, p->nrules, r); }
void sb_profile_add_header(sb_profile *p, const char *line) { PUSH(p->header, p->nheader, xstrdup(line)); }
void sb_profile_add_import(sb_profile *p, const char *name) { PUSH(p->imports, p->nimports, xstrdup(name)); }

void sb_profile_add_unmodelled(sb_profile *p, sb_unmodelled_kind kind, const char *text,
			       const char *reason, sb_loc loc)
{
	sb_unmodelled u = { kind, xstrdup(text), xstrdup(reason), loc };
	PUSH(p->unmodelled, p->nunmodelled, u);
}

static sb_profile *profile_shell_clone(const sb_profile *p)
{
	sb_profile *c = sb_profile_new();
	c->version = p->version;
	for (size_t i = 0; i < p->nunmodelled; i++)
		sb_profile_add_unmodelled(c, p->unmodelled[i].kind, p->unmodelled[i].text,
					  p->unmodelled[i].reason, p->unmodelled[i].loc);
	for (size_t i = 0; i < p->nimports; i++)
		sb_profile_add_import(c, p->imports[i]);
	for (size_t i = 0; i < p->nheader; i++)
		sb_profile_add_header(c, p->header[i]);
	for (size_t i = 0; i < p->launch_params.n; i++) {
		const sb_binding *b = &p->launch_params.v[i];
		sb_bindings_set_list(&c->launch_params, b->name, (const char *const *)b->values,
				     b->nvalues);
		c->launch_params.v[c->launch_params.n - 1].is_list = b->is_list;
	}
	c->source_policy = p->source_policy ? xstrdup(p->source_policy) : NULL;
	sb_egress_copy(&c->egress, &p->egress);
	return c;
}

sb_profile *sb_profile_clone(const sb_profile *p)
{
	sb_profile *c = profile_shell_clone(p);
	for (size_t i = 0; i < p->nrules; i++)
		sb_profile_add_rule(c, sb_rule_clone(p->rules[i]));
	return c;
}

void sb_profile_free(sb_profile *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < p->nrules; i++)
		sb_rule_free(p->rules[i]);   /* nothing for an arena rule */
	free(p->rules);
	for (size_t i = 0; i < p->nunmodelled; i++) {
		free(p->unmodelled[i].text);
		free(p->unmodelled[i].reason);
	}
	free(p->unmodelled);
	for (size_t i = 0; i < p->nimports; i++)
		free(p->imports[i]);
	free(p->imports);
	for (size_t i = 0; i < p->nheader; i++)
		free(p->header[i]);
	free(p->header);
	sb_bindings_clear(&p->launch_params);
	free(p->source_policy);
	sb_egress_clear(&p->egress);
	if (p->arena) {
		sb_arena_clear(p->arena);
		free(p->arena);
	}
	free(p);
}

/* ---- bindings ---- */

static sb_binding *binding_slot(sb_bindings *b, const char *name)
{
	for (size_t i = 0; i < b->n; i++)
		if (strcmp(b->v[i].name, name) == 0) {
			for (size_t j = 0; j < b->v[i].nvalues; j++)
				free(b->v[i].values[j]);
			free(b->v[i].values);
			b->v[i].values = NULL;
			b->v[i].nvalues = 0;
			return &b->v[i];
		}
	SB_GROW(b->v, b->n, b->cap, 8);
	sb_binding *s = &b->v[b->n++];
	memset(s, 0, sizeof *s);
	s->name = xstrdup(name);
	return s;
}

void sb_bindings_set(sb_bindings *b, const char *name, const char *value)
{
	sb_binding *s = binding_slot(b, name);
	s->values = xcalloc(1, sizeof *s->values);
	s->values[0] = xstrdup(value);
	s->nvalues = 1;
	s->is_list = false;
}

void sb_bindings_set_list(sb_bindings *b, const char *name, const char *const *values, size_t n)
{
	sb_binding *s = binding_slot(b, name);
	s->values = xcalloc(n, sizeof *s->values);
	for (size_t i = 0; i < n; i++)
		s->values[i] = xstrdup(values[i]);
	s->nvalues = n;
	s->is_list = true;
}

const sb_binding *sb_bindings_get(const sb_bindings *b, const char *name)
{
	for (size_t i = 0; b && i < b->n; i++)
		if (strcmp(b->v[i].name, name) == 0)
			return &b->v[i];
	return NULL;
}

void sb_bindings_clear(sb_bindings *b)
{
	for (size_t i = 0; i < b->n; i++) {
		free(b->v[i].name);
		for (size_t j = 0; j < b->v[i].nvalues; j++)
			free(b->v[i].values[j]);
		free(b->v[i].values);
	}
	free(b->v);
	b->v = NULL;
	b->n = b->cap = 0;
}

static bool is_param_name(const char *s, size_t n)
{
	if (!n || !(isalpha((unsigned char)s[0]) || s[0] == '_'))
		return false;
	for (size_t i = 1; i < n; i++)
		if (!(isalnum((unsigned char)s[i]) || s[i] == '_'))
			return false;
	return true;
}

const char *sb_bindings_parse_define(sb_bindings *b, const char *arg)
{
	const char *eq = strchr(arg, '=');
	if (!eq || !is_param_name(arg, (size_t)(eq - arg)))
		return "expects NAME=VALUE (NAME: a letter or '_', then letters, digits, '_')";
	if (sb_path_bad_char(eq + 1) >= 0)
		return "the value contains a control character";
	char *name = xstrndup(arg, (size_t)(eq - arg));
	sb_bindings_set(b, name, eq + 1);
	free(name);
	return NULL;
}

/* ---- param expansion ---- */

typedef struct strlist {
	char **v;
	size_t n;
} strlist;

static void strlist_add(strlist *l, const char *s) { PUSH(l->v, l->n, xstrdup(s)); }

static void strlist_add_unique(strlist *l, const char *s)
{
	for (size_t i = 0; i < l->n; i++)
		if (strcmp(l->v[i], s) == 0)
			return;
	strlist_add(l, s);
}

static void strlist_clear(strlist *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
	l->v = NULL;
	l->n = 0;
}


/* Directories strictly between `top` and `leaf` (top exclusive, leaf
 * exclusive), outermost first.  None when leaf is not strictly below top.  */
static void ancestors_between(const char *top, const char *leaf, strlist *out)
{
	if (!sb_path_is_strictly_under(leaf, top))
		return;
	size_t start = strcmp(top, "/") == 0 ? 0 : strlen(top);
	for (size_t i = start + 1; leaf[i]; i++)
		if (leaf[i] == '/') {
			char *dir = xstrndup(leaf, i);
			strlist_add(out, dir);
			free(dir);
		}
}

/* The values a param stands for under `b`.  Returns false when it is
 * unbound.  Single params need exactly one value.  */
static bool param_values(const sb_param *p, const sb_bindings *b, strlist *out)
{
	if (p->kind == SB_PARAM_ANCESTORS || p->index) {
		/* the macOS launch form binds each element by its spelling
		 * ("HOME..WORKSPACE_1", sb_launch_expand_lists in runtime/common/launch.c), and reading
		 * that text back gives an ancestor param of that spelling */
		char *spelling = sb_param_spelling(p);
		const sb_binding *exact = sb_bindings_get(b, spelling);
		free(spelling);
		if (exact && !exact->is_list && exact->nvalues == 1) {
			strlist_add(out, exact->values[0]);
			return true;
		}
		if (p->index)
			return false;
	}
	if (p->kind == SB_PARAM_ANCESTORS) {
		const sb_binding *top = sb_bindings_get(b, p->name);
		const sb_binding *leaf = sb_bindings_get(b, p->leaf);
		if (!top || top->nvalues != 1 || !leaf || (!p->leaf_list && leaf->nvalues != 1))
			return false;
		for (size_t i = 0; i < leaf->nvalues; i++)
			ancestors_between(top->values[0], leaf->values[i], out);
		return true;
	}
	const sb_binding *bd = sb_bindings_get(b, p->name);
	if (!bd || (p->kind == SB_PARAM_SINGLE && bd->nvalues != 1))
		return false;
	for (size_t i = 0; i < bd->nvalues; i++)
		strlist_add(out, bd->values[i]);
	return true;
}

static void add_unbound(strlist *l, const sb_param *p)
{
	char *spelling = sb_param_spelling(p);
	strlist_add_unique(l, spelling);
	free(spelling);
}

typedef struct expander {
	const sb_bindings *b;
	const sb_param_hook *hook;   /* NULL: the values themselves */
	strlist unbound;
} expander;

/* The first param inside s that expands to several filters, or NULL.  */
static const sb_str *find_multi(const sb_str *s)
{
	if (!s)
		return NULL;
	if (s->kind == SB_STR_PARAM)
		return sb_param_is_multi(&s->param) ? s : NULL;
	for (size_t i = 0; i < s->nparts; i++) {
		const sb_str *m = find_multi(s->parts[i]);
		if (m)
			return m;
	}
	return NULL;
}

/* Copy s, replacing params.  `multi` (if non-NULL) is the list param being
 * expanded and `elem`/`index` its current element.  Appends of literals are
 * folded.  Unbound single params stay params (and are recorded).  */
static sb_str *subst(expander *x, const sb_str *s, const sb_str *multi, const char *elem,
		     size_t index)
{
	if (s->kind == SB_STR_LIT)
		return sb_str_lit(s->text);
	if (s->kind == SB_STR_PARAM) {
		if (s == multi)
			return x->hook ? x->hook->subst(x->hook->ctx, &s->param, elem, index + 1)
				       : sb_str_lit(elem);
		strlist vals = { 0 };
		bool ok = !sb_param_is_multi(&s->param) && param_values(&s->param, x->b, &vals);
		sb_str *r;
		if (!ok) {
			add_unbound(&x->unbound, &s->param);
			r = sb_str_param(&s->param);
		} else if (x->hook) {
			r = x->hook->subst(x->hook->ctx, &s->param, vals.v[0], 0);
		} else {
			r = sb_str_lit(vals.v[0]);
		}
		strlist_clear(&vals);
		return r;
	}
	sb_str **parts = xcalloc(s->nparts, sizeof *parts);
	bool all_lit = true;
	for (size_t i = 0; i < s->nparts; i++) {
		parts[i] = subst(x, s->parts[i], multi, elem, index);
		all_lit = all_lit && parts[i]->kind == SB_STR_LIT;
	}
	sb_str *r = sb_str_append(parts, s->nparts);
	free(parts);
	if (all_lit && !x->hook) {
		char *v = sb_str_value(r);
		sb_str_free(r);
		r = sb_str_lit(v);
		free(v);
	}
	return r;
}

typedef struct filterlist {
	sb_filter **v;
	size_t n;
} filterlist;

/* Expand one filter into `out` (0..n filters).  A list param in a path
 * filter gives one filter per element; inside require-all/require-not the
 * copies are wrapped in a require-any so the logic is kept.  */
static void expand_filter(expander *x, const sb_filter *f, filterlist *out, bool or_context)
{
	if (f->kind == SB_F_REQUIRE_ALL || f->kind == SB_F_REQUIRE_ANY || f->kind == SB_F_REQUIRE_NOT) {
		filterlist kids = { 0 };
		for (size_t i = 0; i < f->nkids; i++)
			expand_filter(x, f->kids[i], &kids, f->kind == SB_F_REQUIRE_ANY);
		PUSH(out->v, out->n, sb_filter_logic(f->kind, kids.v, kids.n, f->loc));
		free(kids.v);
		return;
	}
	const sb_str *multi = find_multi(f->arg);
	if (!multi) {
		sb_filter *c = sb_filter_clone(f);
		if (f->arg) {
			sb_str_free(c->arg);
			c->arg = subst(x, f->arg, NULL, NULL, 0);
		}
		PUSH(out->v, out->n, c);
		return;
	}
	strlist vals = { 0 };
	if (!param_values(&multi->param, x->b, &vals)) {
		/* Unbound list: keep it as written; decide() answers unknown.  */
		add_unbound(&x->unbound, &multi->param);
		PUSH(out->v, out->n, sb_filter_clone(f));
		return;
	}
	filterlist copies = { 0 };
	for (size_t i = 0; i < vals.n; i++) {
		sb_filter *c = sb_filter_clone(f);
		sb_str_free(c->arg);
		c->arg = subst(x, f->arg, multi, vals.v[i], i);
		PUSH(copies.v, copies.n, c);
	}
	strlist_clear(&vals);
	if (or_context) {
		for (size_t i = 0; i < copies.n; i++)
			PUSH(out->v, out->n, copies.v[i]);
		free(copies.v);
	} else {
		PUSH(out->v, out->n, sb_filter_logic(SB_F_REQUIRE_ANY, copies.v, copies.n, f->loc));
		free(copies.v);
	}
}

static sb_profile *expand(const sb_profile *p, expander *x)
{
	sb_profile *c = profile_shell_clone(p);
	for (size_t i = 0; i < p->nrules; i++) {
		const sb_rule *r = p->rules[i];
		sb_rule *nr = sb_rule_new(r->action, r->loc);
		for (size_t j = 0; j < r->nops; j++)
			sb_rule_add_op(nr, r->ops[j], r->op_names ? r->op_names[j] : NULL);
		for (size_t j = 0; j < r->nmodifiers; j++)
			sb_rule_add_modifier(nr, r->modifiers[j]);
		nr->origin = r->origin;
		nr->call_loc = r->call_loc;
		nr->call_name = r->call_name;
		filterlist fl = { 0 };
		for (size_t j = 0; j < r->nfilters; j++)
			expand_filter(x, r->filters[j], &fl, true);
		nr->filters = fl.v;
		nr->nfilters = fl.n;
		/* A filtered rule whose filters all expanded to nothing matches
		 * nothing: drop it.  Leaving it unfiltered would match everything.  */
		if (r->nfilters > 0 && nr->nfilters == 0) {
			sb_rule_free(nr);
			continue;
		}
		sb_profile_add_rule(c, nr);
	}
	return c;
}

sb_profile *sb_profile_bind(const sb_profile *p, const sb_bindings *b, char ***unbound,
			    size_t *nunbound)
{
	return sb_profile_rewrite(p, b, NULL, unbound, nunbound);
}

sb_profile *sb_profile_rewrite(const sb_profile *p, const sb_bindings *b,
			       const sb_param_hook *hook, char ***unbound, size_t *nunbound)
{
	expander x = { .b = b, .hook = hook };
	sb_profile *c = expand(p, &x);
	if (unbound && nunbound && x.unbound.n) {
		/* the caller's array, its capacity unknown: resized once */
		*unbound = xrealloc(*unbound, (*nunbound + x.unbound.n) * sizeof **unbound);
		for (size_t i = 0; i < x.unbound.n; i++)
			(*unbound)[(*nunbound)++] = xstrdup(x.unbound.v[i]);
	}
	strlist_clear(&x.unbound);
	return c;
}

typedef sb_param_set paramlist;

static void collect_params(const sb_str *s, paramlist *out)
{
	if (!s)
		return;
	if (s->kind == SB_STR_PARAM) {
		/* a single param is spelled by its name: compared without a copy */
		const char *name = s->param.kind == SB_PARAM_SINGLE && !s->param.index ? s->param.name
											: NULL;
		for (size_t i = 0; name && i < out->n; i++)
			if (!strcmp(out->spelling[i], name))
				return;
		char *sp = sb_param_spelling(&s->param);
		for (size_t i = 0; !name && i < out->n; i++)
			if (!strcmp(out->spelling[i], sp)) {
				free(sp);
				return;
			}
		SB_GROW(out->v, out->n, out->cap, 8);
		SB_GROW(out->spelling, out->n, out->spcap, 8);
		out->v[out->n] = sb_param_copy(&s->param);
		out->spelling[out->n++] = sp;
	}
	for (size_t i = 0; i < s->nparts; i++)
		collect_params(s->parts[i], out);
}

static void collect_filter_params(const sb_filter *f, paramlist *out)
{
	collect_params(f->arg, out);
	for (size_t i = 0; i < f->nkids; i++)
		collect_filter_params(f->kids[i], out);
}

void sb_param_set_add_rule(sb_param_set *s, const sb_rule *r)
{
	for (size_t j = 0; j < r->nfilters; j++)
		collect_filter_params(r->filters[j], s);
}

sb_param *sb_param_set_take(sb_param_set *s, size_t *n)
{
	paramlist l = *s;
	*s = (sb_param_set){0};
	/* sorted by spelling: a few dozen at most, insertion sort */
	for (size_t i = 1; i < l.n; i++)
		for (size_t j = i; j > 0 && strcmp(l.spelling[j - 1], l.spelling[j]) > 0; j--) {
			sb_param tp = l.v[j];
			l.v[j] = l.v[j - 1];
			l.v[j - 1] = tp;
			char *ts = l.spelling[j];
			l.spelling[j] = l.spelling[j - 1];
			l.spelling[j - 1] = ts;
		}
	for (size_t i = 0; i < l.n; i++)
		free(l.spelling[i]);
	free(l.spelling);
	*n = l.n;
	if (!l.v)
		l.v = xcalloc(1, sizeof *l.v);
	return l.v;
}

sb_param *sb_profile_params(const sb_profile *p, size_t *n)
{
	sb_param_set l = { 0 };
	for (size_t i = 0; i < p->nrules; i++)
		sb_param_set_add_rule(&l, p->rules[i]);
	return sb_param_set_take(&l, n);
}
