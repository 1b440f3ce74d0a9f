/* lower.c - policy (ast.h) -> profile IR (ir.h), in the order-robust form
 * of docs/language.md "From policy to SBPL":
 *   - `default` first, then one rule per (statement, access class) in
 *     statement order, each carrying its source file:line;
 *   - an unfiltered rule after a rule naming a related operation gets
 *     (subpath "/"), so it beats the earlier filtered rules in both models;
 *   - a parent-operation rule after an overlapping child-operation rule of
 *     the other action also names the child operation (brief §7.4);
 *   - after a read or stat-only re-allow inside an earlier denied read
 *     region, stat on each directory strictly between the region's root and
 *     the re-allowed path (realpath() lstats every component).
 * Machine-specific paths stay (param ...) unless bound with -D.  */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ast.h"
#include "path.h"

typedef struct path_key path_key;

typedef struct {
	const sbx_defines *defs;
	sb_diag *d;
	sb_profile *prof;
	int errors;
	/* indexes over the rules emitted so far, so each new rule looks only
	 * at the rules that can matter to it */
	bool named[SB_OP__COUNT];      /* operations named by a non-default rule */
	size_t *child_rules;           /* rules naming an op that has a parent op */
	size_t nchild_rules;
	path_key *regions;             /* roots of denied read regions */
	size_t nregions;
	/* path comparisons done; bounded so no policy takes minutes */
	unsigned long long work;
	bool too_complex;
} lower_ctx;

/* About ten seconds of comparisons on a slow machine; real policies need a
 * few thousand.  */
#define LOWER_WORK_BUDGET 100000000ULL

static char *xstrdup(const char *s)
{
	char *p = strdup(s);
	if (!p)
		abort();
	return p;
}

static char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *out;
	va_start(ap, fmt);
	int rc = vasprintf(&out, fmt, ap);
	va_end(ap);
	if (rc < 0)
		abort();
	return out;
}

/* ---- string expressions for targets ---- */

/* A static absolute path as the kernel sees it (/tmp -> /private/tmp).  */
static sb_str *static_str(const char *abs)
{
	char *alias = sb_path_private_alias(abs);
	sb_str *s = sb_str_lit(alias);
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
static void param_strs(lower_ctx *c, const char *name, bool list, const char *rel,
		       const sb_loc *loc, sb_str ***out, size_t *nout)
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
				*out = realloc(*out, (*nout + 1) * sizeof **out);
				if (!*out)
					abort();
				(*out)[(*nout)++] = static_str(joined);
				free(joined);
				free(v);
			}
			free(all);
		}
		return;
	}
	char *pname = list ? xasprintf("%s*", name) : xstrdup(name);
	sb_str *s = sb_str_param(pname);
	free(pname);
	if (rel[0]) {
		char *suffix = xasprintf("/%s", rel);
		sb_str *parts[2] = {s, sb_str_lit(suffix)};
		free(suffix);
		s = sb_str_append(parts, 2);
	}
	*out = realloc(*out, (*nout + 1) * sizeof **out);
	if (!*out)
		abort();
	(*out)[(*nout)++] = s;
}

static void target_filters(lower_ctx *c, const sbx_target *t, sb_rule *r)
{
	sb_str **strs = NULL;
	size_t n = 0;
	switch (t->base) {
	case SBX_BASE_ABS:
		strs = malloc(sizeof *strs);
		if (!strs)
			abort();
		strs[n++] = static_str(t->rel);
		break;
	case SBX_BASE_HOME:
		param_strs(c, "HOME", false, t->rel, &t->loc, &strs, &n);
		break;
	case SBX_BASE_WORKSPACE:
		param_strs(c, "WORKSPACE", false, t->rel, &t->loc, &strs, &n);
		break;
	case SBX_BASE_TMPDIR:
		param_strs(c, "TMPDIR", false, t->rel, &t->loc, &strs, &n);
		break;
	case SBX_BASE_PARAM:
		param_strs(c, t->name, false, t->rel, &t->loc, &strs, &n);
		break;
	case SBX_BASE_LIST:
		param_strs(c, t->name, true, t->rel, &t->loc, &strs, &n);
		break;
	}
	for (size_t i = 0; i < n; i++)
		sb_rule_add_filter(r, sb_filter_path(t->exact ? SB_F_LITERAL : SB_F_SUBPATH, strs[i],
						     t->loc));
	free(strs);
}

/* ---- path keys: a path expression as (param, "/suffix") ---- */

struct path_key {
	bool known;         /* false: cannot reason about it statically */
	const char *param;  /* NULL for a static path; a list param ends in '*' */
	const char *suffix; /* "" or "/a/b" */
};

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
		k.param = s->text;
		return k;
	case SB_STR_APPEND:
		if (s->nparts == 2 && s->parts[0]->kind == SB_STR_PARAM &&
		    s->parts[1]->kind == SB_STR_LIT && s->parts[1]->text[0] == '/') {
			k.known = true;
			k.param = s->parts[0]->text;
			k.suffix = s->parts[1]->text;
		}
		return k;
	}
	return k;
}

static bool is_list_param(const char *p)
{
	return p && p[0] && (p[strlen(p) - 1] == '*' || strstr(p, ".."));
}

static bool same_base(path_key a, path_key b)
{
	if (!a.known || !b.known)
		return false;
	if (!a.param && !b.param)
		return true;
	return a.param && b.param && !strcmp(a.param, b.param) && !is_list_param(a.param);
}

/* "/a/b" under "/a" (or equal); "" is the base itself.  */
static bool suffix_under(const char *p, const char *root)
{
	size_t n = strlen(root);
	return !strncmp(p, root, n) && (p[n] == '\0' || p[n] == '/');
}

/* Could two path filters match a common path?  Errs towards yes.  */
static bool filters_overlap(const sb_filter *a, const sb_filter *b)
{
	if ((a->kind != SB_F_LITERAL && a->kind != SB_F_SUBPATH) ||
	    (b->kind != SB_F_LITERAL && b->kind != SB_F_SUBPATH))
		return true;
	path_key ka = key_of(a->arg), kb = key_of(b->arg);
	if (!same_base(ka, kb))
		return true;
	bool a_in_b = suffix_under(ka.suffix, kb.suffix), b_in_a = suffix_under(kb.suffix, ka.suffix);
	if (a->kind == SB_F_LITERAL && b->kind == SB_F_LITERAL)
		return !strcmp(ka.suffix, kb.suffix);
	if (a->kind == SB_F_LITERAL)
		return a_in_b;
	if (b->kind == SB_F_LITERAL)
		return b_in_a;
	return a_in_b || b_in_a;
}

static bool rules_overlap(lower_ctx *c, const sb_rule *a, const sb_rule *b)
{
	if (!a->nfilters || !b->nfilters)
		return true;
	c->work += (unsigned long long)a->nfilters * b->nfilters;
	for (size_t i = 0; i < a->nfilters; i++)
		for (size_t j = 0; j < b->nfilters; j++)
			if (filters_overlap(a->filters[i], b->filters[j]))
				return true;
	return false;
}

/* ---- operations ---- */

static bool op_is_ancestor(sb_op anc, sb_op op)
{
	for (sb_op o = sb_op_parent(op); o != SB_OP_DEFAULT; o = sb_op_parent(o))
		if (o == anc)
			return true;
	return false;
}

static bool rule_names(const sb_rule *r, sb_op op)
{
	for (size_t i = 0; i < r->nops; i++)
		if (r->ops[i] == op)
			return true;
	return false;
}

static bool rule_denies_read(const sb_rule *r);

/* True (after one error) once the comparison budget is spent.  */
static bool over_budget(lower_ctx *c, const sb_loc *loc)
{
	if (c->work <= LOWER_WORK_BUDGET)
		return false;
	if (!c->too_complex) {
		sb_diag_report(c->d, SB_SEV_ERROR, loc, "limit",
			       "the policy is too complex to lower (more than %llu path comparisons); "
			       "merge rules or use lists", LOWER_WORK_BUDGET);
		c->errors++;
		c->too_complex = true;
	}
	return true;
}

/* Append a rule and update the indexes.  */
static void add_rule(lower_ctx *c, sb_rule *r)
{
	size_t idx = c->prof->nrules;
	sb_profile_add_rule(c->prof, r);
	bool child = false;
	for (size_t i = 0; i < r->nops; i++) {
		if (r->ops[i] == SB_OP_DEFAULT)
			continue;
		c->named[r->ops[i]] = true;
		if (sb_op_parent(r->ops[i]) != SB_OP_DEFAULT)
			child = true;
	}
	if (child) {
		c->child_rules = realloc(c->child_rules, (c->nchild_rules + 1) * sizeof *c->child_rules);
		if (!c->child_rules)
			abort();
		c->child_rules[c->nchild_rules++] = idx;
	}
	if (!rule_denies_read(r))
		return;
	for (size_t f = 0; f <= r->nfilters; f++) {
		path_key reg = {true, NULL, ""};   /* unfiltered: everywhere */
		if (f == r->nfilters) {
			if (r->nfilters)
				break;
		} else {
			if (r->filters[f]->kind != SB_F_SUBPATH)
				continue;
			reg = key_of(r->filters[f]->arg);
		}
		c->regions = realloc(c->regions, (c->nregions + 1) * sizeof *c->regions);
		if (!c->regions)
			abort();
		c->regions[c->nregions++] = reg;
	}
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

/* The order-robust adjustments for a new rule naming `op` (see top).  */
static void make_robust(lower_ctx *c, sb_rule *r, sb_op op, const sb_loc *loc)
{
	const sb_profile *p = c->prof;
	if (op == SB_OP_NETWORK_ALL)
		return;   /* unfiltered network rules: the last one wins */
	bool related = false;
	for (int o = 1; o < SB_OP__COUNT; o++)
		if (c->named[o] && ((sb_op)o == op || op_is_ancestor((sb_op)o, op) ||
				    op_is_ancestor(op, (sb_op)o)))
			related = true;
	bool everywhere = false, child = false;
	if (!r->nfilters && related) {
		sb_rule_add_filter(r, sb_filter_path(SB_F_SUBPATH, sb_str_lit("/"), *loc));
		everywhere = true;
	}
	/* child operations named earlier with the other action */
	for (size_t k = 0; k < c->nchild_rules && !over_budget(c, loc); k++) {
		const sb_rule *e = p->rules[c->child_rules[k]];
		if (e->action == r->action)
			continue;
		for (size_t j = 0; j < e->nops; j++) {
			sb_op eo = e->ops[j];
			if (op_is_ancestor(op, eo) && !rule_names(r, eo) && rules_overlap(c, e, r)) {
				sb_rule_add_op(r, eo, NULL);
				child = true;
			}
		}
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

static void add_unique_filter(sb_rule *r, sb_str *s, const sb_loc *loc)
{
	path_key k = key_of(s);
	for (size_t i = 0; i < r->nfilters; i++) {
		path_key e = key_of(r->filters[i]->arg);
		if (((!k.param && !e.param) || (k.param && e.param && !strcmp(k.param, e.param))) &&
		    !strcmp(k.suffix, e.suffix)) {
			sb_str_free(s);
			return;
		}
	}
	sb_rule_add_filter(r, sb_filter_path(SB_F_LITERAL, s, *loc));
}

static sb_str *key_str(const char *param, const char *suffix)
{
	if (!param)
		return sb_str_lit(suffix[0] ? suffix : "/");
	if (!suffix[0])
		return sb_str_param(param);
	sb_str *parts[2] = {sb_str_param(param), sb_str_lit(suffix)};
	return sb_str_append(parts, 2);
}

/* Ancestors strictly between region root `reg` and target `t`.  */
static void ancestors(path_key reg, path_key t, sb_rule *out, const sb_loc *loc)
{
	if (!reg.known || !t.known || is_list_param(reg.param))
		return;
	if (same_base(reg, t)) {
		size_t rn = strlen(reg.suffix);
		if (!suffix_under(t.suffix, reg.suffix) || !strcmp(t.suffix, reg.suffix))
			return;
		for (size_t i = rn + 1; t.suffix[i]; i++) {
			if (t.suffix[i] != '/')
				continue;
			char *prefix = strndup(t.suffix, i);
			if (!prefix)
				abort();
			add_unique_filter(out, key_str(reg.param, prefix), loc);
			free(prefix);
		}
		return;
	}
	/* runtime: a bare root and another param, e.g. HOME..WORKSPACE, which
	 * the binder expands to the directories strictly between the two (none
	 * when the second is not below the first).  For workspace/a/b the
	 * workspace and workspace/a follow: they are inside the region exactly
	 * when the workspace is, and stat on them is what realpath() needs. */
	if (reg.param && t.param && !reg.suffix[0] && strcmp(reg.param, t.param) &&
	    !strstr(t.param, "..") && (!t.suffix[0] || !is_list_param(t.param))) {
		char *name = xasprintf("%s..%s", reg.param, t.param);
		add_unique_filter(out, sb_str_param(name), loc);
		free(name);
		if (t.suffix[0])
			add_unique_filter(out, sb_str_param(t.param), loc);
		for (size_t i = 1; t.suffix[0] && t.suffix[i]; i++) {
			if (t.suffix[i] != '/')
				continue;
			char *prefix = strndup(t.suffix, i);
			if (!prefix)
				abort();
			add_unique_filter(out, key_str(t.param, prefix), loc);
			free(prefix);
		}
	}
}

static void ancestor_rule(lower_ctx *c, const sb_rule *allow, const sb_loc *loc)
{
	sb_rule *anc = sb_rule_new(SB_ALLOW, *loc);
	sb_rule_add_op(anc, SB_OP_FILE_READ_METADATA, NULL);
	anc->src_file = allow->src_file;
	anc->src_line = allow->src_line;
	anc->note = NOTE_ANCESTORS;
	c->work += (unsigned long long)c->nregions * allow->nfilters;
	for (size_t i = 0; i < c->nregions && !over_budget(c, loc); i++)
		for (size_t j = 0; j < allow->nfilters; j++)
			ancestors(c->regions[i], key_of(allow->filters[j]->arg), anc, loc);
	if (anc->nfilters) {
		make_robust(c, anc, SB_OP_FILE_READ_METADATA, loc);
		anc->note = NOTE_ANCESTORS;
		add_rule(c, anc);
	} else {
		sb_rule_free(anc);
	}
}

/* ---- statements ---- */

static const struct {
	unsigned bit;
	sb_op op;
} access_ops[] = {
	{SBX_ACC_READ, SB_OP_FILE_READ},
	{SBX_ACC_WRITE, SB_OP_FILE_WRITE},
	{SBX_ACC_STAT, SB_OP_FILE_READ_METADATA},
	{SBX_ACC_EXEC, SB_OP_PROCESS_EXEC},
};

static sb_rule *stmt_rule(const sbx_stmt *s, sb_action action, sb_op op)
{
	sb_rule *r = sb_rule_new(action, s->loc);
	sb_rule_add_op(r, op, NULL);
	r->src_file = s->origin;
	r->src_line = s->loc.line;
	return r;
}

static void lower_rule(lower_ctx *c, const sbx_stmt *s)
{
	for (size_t a = 0; a < sizeof access_ops / sizeof access_ops[0]; a++) {
		if (!(s->access & access_ops[a].bit))
			continue;
		sb_rule *r = stmt_rule(s, s->action, access_ops[a].op);
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

static const char *basename_of(const char *file)
{
	const char *slash = strrchr(file, '/');
	return slash && slash[1] ? slash + 1 : file;
}

sb_profile *sbx_lower(const sbx_policy *p, const sbx_defines *defs, sb_diag *d)
{
	lower_ctx c = {.defs = defs, .d = d, .prof = sb_profile_new()};
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
		sb_rule *r = stmt_rule(deflt, deflt->action, SB_OP_DEFAULT);
		add_rule(&c, r);
	}
	for (size_t i = 0; i < p->nstmts; i++) {
		const sbx_stmt *s = &p->stmts[i];
		if (s->kind == SBX_STMT_NETWORK)
			add_rule(&c, stmt_rule(s, s->action, SB_OP_NETWORK_ALL));
		else if (s->kind == SBX_STMT_RULE)
			lower_rule(&c, s);
	}
	free(c.child_rules);
	free(c.regions);
	if (c.errors) {
		sb_profile_free(c.prof);
		return NULL;
	}
	char *line = xasprintf("generated by sbc from %s; do not edit",
			       basename_of(p->file ? p->file : "policy"));
	sb_profile_add_header(c.prof, line);
	free(line);
	size_t n = 0;
	char **params = sb_profile_params(c.prof, &n);
	size_t len = 0;
	for (size_t i = 0; i < n; i++)
		len += strlen(params[i]) + 1;
	char *list = calloc(1, len + 8);
	if (!list)
		abort();
	for (size_t i = 0; i < n; i++) {
		strcat(list, i ? " " : "");
		strcat(list, params[i]);
		free(params[i]);
	}
	free(params);
	line = xasprintf("params bound at launch: %s", n ? list : "none");
	sb_profile_add_header(c.prof, line);
	free(line);
	free(list);
	return c.prof;
}
