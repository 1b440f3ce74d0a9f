/* target.c - symbolic target relations for the check passes (target.h).  */
#include "compiler/check/target.h"
#include "compiler/common/xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *sbx_bound_value(const sbx_defines *defs, const char *name)
{
	if (!defs || !name)
		return NULL;
	const sb_binding *b = sb_bindings_get(defs, name);
	if (!b || b->is_list || b->nvalues != 1)
		return NULL;
	return b->values[0];
}

const char *sbx_base_name(const sbx_target *t)
{
	switch (t->base) {
	case SBX_BASE_HOME: return "HOME";
	case SBX_BASE_WORKSPACE: return "WORKSPACE";
	case SBX_BASE_TMPDIR: return "TMPDIR";
	case SBX_BASE_PARAM:
	case SBX_BASE_LIST: return t->name ? t->name : "";
	case SBX_BASE_ABS: break;
	}
	return NULL;
}

/* Join an absolute base and a relative suffix, dropping trailing slashes.  */
static char *join(const char *base, const char *rel)
{
	size_t bn = strlen(base);
	while (bn > 1 && base[bn - 1] == '/')
		bn--;
	while (*rel == '/')
		rel++;
	size_t rn = strlen(rel);
	while (rn > 0 && rel[rn - 1] == '/')
		rn--;
	char *r = xmalloc(bn + rn + 2);
	memcpy(r, base, bn);
	size_t n = bn;
	if (rn) {
		if (!(bn == 1 && base[0] == '/'))
			r[n++] = '/';
		memcpy(r + n, rel, rn);
		n += rn;
	}
	r[n] = '\0';
	return r;
}

static unsigned first_key(const char *path)
{
	const char *c = NULL;
	size_t n = 0;
	if (!path || !sb_path_next_comp(&path, &c, &n))
		return 0;
	unsigned h = 2166136261u;
	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned)sb_fold_char((unsigned char)c[i])) * 16777619u;
	return h ? h : 1;
}

static void place_of(sbx_place *out, const sbx_target *t, const sbx_defines *defs);

void sbx_place_of(sbx_place *out, const sbx_target *t, const sbx_defines *defs)
{
	place_of(out, t, defs);
	out->key = out->kind == SBX_PLACE_ABS || out->kind == SBX_PLACE_ROOT ? first_key(out->path) : 0;
}

static void place_of(sbx_place *out, const sbx_target *t, const sbx_defines *defs)
{
	memset(out, 0, sizeof *out);
	if (!t) {
		out->kind = SBX_PLACE_ANY;
		out->path = xstrdup("");
		return;
	}
	out->exact = t->exact;
	const char *rel = t->rel ? t->rel : "";
	if (t->base == SBX_BASE_ABS) {
		out->kind = SBX_PLACE_ABS;
		out->path = join("/", rel);
		return;
	}
	out->root = sbx_base_name(t);
	if (t->base == SBX_BASE_LIST) {
		out->kind = SBX_PLACE_LIST;
		out->path = xstrdup("");
		return;
	}
	const char *v = sbx_bound_value(defs, out->root);
	if (v && v[0] == '/') {
		sbx_place sym = { .kind = SBX_PLACE_ROOT, .root = out->root, .path = (char *)rel };
		out->spelled = sbx_place_str(&sym);
		out->kind = SBX_PLACE_ABS;
		out->root = NULL;
		out->path = join(v, rel);
		return;
	}
	out->kind = SBX_PLACE_ROOT;
	out->path = xstrdup(rel);
}

void sbx_place_home(sbx_place *out, const char *rel, bool exact, const sbx_defines *defs)
{
	sbx_target t = { .base = SBX_BASE_HOME, .rel = (char *)rel, .exact = exact };
	sbx_place_of(out, &t, defs);
}

void sbx_place_clear(sbx_place *pl)
{
	if (!pl->borrowed)
		free(pl->path);
	free(pl->spelled);
	pl->path = NULL;
	pl->spelled = NULL;
}

/* sbx_place_of, with the path borrowed where it would be a copy of the
 * target's own text (or of ""): the policy outlives its places, and a
 * large policy's places were 100k small copies, allocated and freed.  */
static void places_one(sbx_place *out, const sbx_target *t, const sbx_defines *defs)
{
	const char *rel = t && t->rel ? t->rel : "";
	size_t rn = strlen(rel);
	bool same = false;
	if (!t || t->base == SBX_BASE_LIST)
		same = true;   /* "" */
	else if (t->base == SBX_BASE_ABS)   /* join("/", rel) is rel itself */
		same = rel[0] == '/' && (rn == 1 || (rel[1] != '/' && rel[rn - 1] != '/'));
	else
		same = !sbx_bound_value(defs, sbx_base_name(t));   /* ROOT: a copy of rel */
	if (!same) {
		sbx_place_of(out, t, defs);
		return;
	}
	memset(out, 0, sizeof *out);
	out->exact = t && t->exact;
	out->borrowed = true;
	if (!t) {
		out->kind = SBX_PLACE_ANY;
		out->path = (char *)"";
	} else if (t->base == SBX_BASE_ABS) {
		out->kind = SBX_PLACE_ABS;
		out->path = (char *)rel;
	} else {
		out->root = sbx_base_name(t);
		out->kind = t->base == SBX_BASE_LIST ? SBX_PLACE_LIST : SBX_PLACE_ROOT;
		out->path = t->base == SBX_BASE_LIST ? (char *)"" : (char *)rel;
	}
	out->key = out->kind == SBX_PLACE_ABS || out->kind == SBX_PLACE_ROOT ? first_key(out->path) : 0;
}

void sbx_places_init(sbx_places *pp, const sbx_policy *p, const sbx_defines *defs)
{
	pp->n = p->nstmts;
	pp->of = xcalloc(p->nstmts, sizeof *pp->of);
	pp->count = xcalloc(p->nstmts, sizeof *pp->count);
	/* every statement's places in one array (of[i] points into it; one
	 * allocation instead of one per statement) */
	size_t total = 0;
	for (size_t i = 0; i < p->nstmts; i++)
		if (p->stmts[i].kind == SBX_STMT_RULE)
			total += p->stmts[i].ntargets ? p->stmts[i].ntargets : 1;
	sbx_place *all = xcalloc(total ? total : 1, sizeof *all);
	sb_hint_huge(all, (total ? total : 1) * sizeof *all);
	pp->all = all;
	for (size_t i = 0; i < p->nstmts; i++) {
		const sbx_stmt *s = &p->stmts[i];
		if (s->kind != SBX_STMT_RULE)
			continue;
		size_t n = s->ntargets ? s->ntargets : 1;
		pp->of[i] = all;
		all += n;
		pp->count[i] = n;
		for (size_t t = 0; t < n; t++)
			places_one(&pp->of[i][t], s->ntargets ? &s->targets[t] : NULL, defs);
	}
}

void sbx_places_clear(sbx_places *pp)
{
	for (size_t i = 0; i < pp->n; i++) {
		for (size_t t = 0; pp->of[i] && t < pp->count[i]; t++)
			sbx_place_clear(&pp->of[i][t]);
	}
	free(pp->all);
	pp->all = NULL;
	free(pp->of);
	free(pp->count);
	pp->of = NULL;
	pp->count = NULL;
	pp->n = 0;
}

bool sbx_rule_covers(const sbx_places *pp, size_t i, const sbx_place *x)
{
	for (size_t t = 0; t < pp->count[i]; t++)
		if (sbx_place_covers(&pp->of[i][t], x, false) == SBX_YES)
			return true;
	return false;
}

static bool is_everything(const sbx_place *p)
{
	if (p->kind == SBX_PLACE_ANY)
		return true;
	/* A nonzero key means a first component: not "/".  */
	return p->kind == SBX_PLACE_ABS && !p->exact && p->key == 0 &&
	       sbx_path_relation(p->path, "/", false) == SBX_PATH_EQUAL;
}

/* Both places are ABS, or ROOT with the same root: their paths compare.  */
static bool comparable(const sbx_place *a, const sbx_place *b)
{
	if (a->kind != b->kind)
		return false;
	if (a->kind == SBX_PLACE_ABS)
		return true;
	return a->kind == SBX_PLACE_ROOT && strcmp(a->root, b->root) == 0;
}

sbx_tri sbx_place_covers(const sbx_place *a, const sbx_place *b, bool fold)
{
	if (is_everything(a))
		return SBX_YES;
	if (a->kind == SBX_PLACE_LIST || b->kind == SBX_PLACE_LIST)
		return SBX_MAYBE;
	if (b->kind == SBX_PLACE_ANY)
		return SBX_NO;
	if (!comparable(a, b))
		return SBX_MAYBE;
	if (a->key && b->key && a->key != b->key)
		return SBX_NO;
	sbx_path_rel r = sbx_path_relation(b->path, a->path, fold);
	if (a->exact)
		return b->exact && r == SBX_PATH_EQUAL ? SBX_YES : SBX_NO;
	return r == SBX_PATH_EQUAL || r == SBX_PATH_INSIDE ? SBX_YES : SBX_NO;
}

sbx_tri sbx_place_overlaps(const sbx_place *a, const sbx_place *b, bool fold)
{
	if (a->kind == SBX_PLACE_LIST || b->kind == SBX_PLACE_LIST)
		return SBX_MAYBE;
	if (is_everything(a) || is_everything(b))
		return SBX_YES;
	if (!comparable(a, b))
		return SBX_MAYBE;
	if (a->key && b->key && a->key != b->key)
		return SBX_NO;
	switch (sbx_path_relation(a->path, b->path, fold)) {
	case SBX_PATH_EQUAL: return SBX_YES;
	case SBX_PATH_INSIDE: return b->exact ? SBX_NO : SBX_YES;
	case SBX_PATH_ABOVE: return a->exact ? SBX_NO : SBX_YES;
	case SBX_PATH_UNRELATED: break;
	}
	return SBX_NO;
}

char *sbx_place_str(const sbx_place *pl)
{
	const char *pre = pl->exact ? "exactly " : "";
	const char *path = pl->path ? pl->path : "";
	char *r = NULL;
	switch (pl->kind) {
	case SBX_PLACE_ANY:
		return xstrdup("everywhere");
	case SBX_PLACE_ABS:
		if (pl->spelled) {
			r = xasprintf("%s%s (%s)", pre, pl->spelled, path);
		} else {
			r = xasprintf("%s%s", pre, path);
		}
		break;
	case SBX_PLACE_LIST:
		r = xasprintf("%s$%s", pre, pl->root);
		break;
	case SBX_PLACE_ROOT: {
		const char *root = pl->root;
		bool dollar = false;
		if (strcmp(root, "HOME") == 0)
			root = "~";
		else if (strcmp(root, "WORKSPACE") == 0)
			root = "workspace";
		else if (strcmp(root, "TMPDIR") == 0)
			root = "tmpdir";
		else
			dollar = true;
		r = xasprintf("%s%s%s%s%s", pre, dollar ? "$" : "", root, *path ? "/" : "", path);
		break;
	}
	}
	return r;
}

/* Directories whose children are home directories, and lone homes.  Not
 * /System/Volumes/Data/...: /Users is a firmlink the kernel reports as
 * /Users, and counting /System as an ancestor of every home would make
 * every deny-default policy's read of /System a wide grant.  */
static const char *const home_parents[] = { "/Users", "/home" };
static const char *const fixed_homes[] = { "/root", "/var/root", "/private/var/root" };

sbx_home_pos sbx_abs_home_pos(const char *abs, const char *home, const char **rel)
{
	if (home) {
		switch (sbx_path_relation(abs, home, true)) {
		case SBX_PATH_EQUAL:
		case SBX_PATH_INSIDE:
			*rel = sbx_path_below(abs, home, true);
			return SBX_HOME_INSIDE;
		case SBX_PATH_ABOVE:
			return SBX_HOME_ABOVE;
		case SBX_PATH_UNRELATED:
			break;
		}
		return SBX_HOME_OUTSIDE;
	}
	for (size_t i = 0; i < sizeof home_parents / sizeof *home_parents; i++) {
		sbx_path_rel r = sbx_path_relation(abs, home_parents[i], true);
		if (r == SBX_PATH_EQUAL || r == SBX_PATH_ABOVE)
			return SBX_HOME_ABOVE;
		if (r != SBX_PATH_INSIDE)
			continue;
		/* abs = parent/NAME[/rest]: NAME is a home, except macOS's Shared.  */
		const char *below = sbx_path_below(abs, home_parents[i], true);
		const char *c = NULL;
		size_t n = 0;
		if (!below || !sb_path_next_comp(&below, &c, &n))
			continue;
		if (i == 0 && sb_path_comp_eq(c, n, "Shared", 6, true))
			return SBX_HOME_OUTSIDE;
		while (*below == '/')
			below++;
		*rel = below;
		return SBX_HOME_INSIDE;
	}
	for (size_t i = 0; i < sizeof fixed_homes / sizeof *fixed_homes; i++) {
		sbx_path_rel r = sbx_path_relation(abs, fixed_homes[i], true);
		if (r == SBX_PATH_ABOVE)
			return SBX_HOME_ABOVE;
		if (r == SBX_PATH_EQUAL || r == SBX_PATH_INSIDE) {
			*rel = sbx_path_below(abs, fixed_homes[i], true);
			return SBX_HOME_INSIDE;
		}
	}
	return SBX_HOME_OUTSIDE;
}

unsigned sbx_atoms(unsigned access)
{
	unsigned a = 0;
	if (access & SBX_ACC_READ)
		a |= SBX_ATOM_DATA | SBX_ATOM_META;
	if (access & SBX_ACC_STAT)
		a |= SBX_ATOM_META;
	if (access & SBX_ACC_WRITE)
		a |= SBX_ATOM_WRITE;
	if (access & SBX_ACC_EXEC)
		a |= SBX_ATOM_EXEC;
	return a;
}

const char *sbx_access_name(unsigned access, char *buf, size_t n)
{
	static const struct { unsigned bit; const char *name; } names[] = {
		{ SBX_ACC_READ, "read" }, { SBX_ACC_WRITE, "write" },
		{ SBX_ACC_STAT, "stat-only" }, { SBX_ACC_EXEC, "exec" },
	};
	size_t len = 0, total = 0, done = 0;
	if (n == 0)
		return buf;
	buf[0] = '\0';
	for (size_t i = 0; i < sizeof names / sizeof *names; i++)
		total += (access & names[i].bit) != 0;
	for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
		if (!(access & names[i].bit))
			continue;
		const char *sep = done == 0 ? "" : done + 1 == total ? " and " : ", ";
		int w = snprintf(buf + len, n - len, "%s%s", sep, names[i].name);
		if (w < 0 || (size_t)w >= n - len)
			break;
		len += (size_t)w;
		done++;
	}
	return buf;
}

bool sbx_target_same(const sbx_target *a, const sbx_target *b)
{
	if (a->base != b->base || a->exact != b->exact)
		return false;
	if ((a->name || b->name) && (!a->name || !b->name || strcmp(a->name, b->name) != 0))
		return false;
	return sbx_path_relation(a->rel ? a->rel : "", b->rel ? b->rel : "", false) ==
	       SBX_PATH_EQUAL;
}

static bool targets_within(const sbx_stmt *a, const sbx_stmt *b)
{
	for (size_t i = 0; i < a->ntargets; i++) {
		bool found = false;
		for (size_t j = 0; j < b->ntargets && !found; j++)
			found = sbx_target_same(&a->targets[i], &b->targets[j]);
		if (!found)
			return false;
	}
	return true;
}

bool sbx_rule_same(const sbx_stmt *a, const sbx_stmt *b)
{
	if (a->kind != SBX_STMT_RULE || b->kind != SBX_STMT_RULE)
		return false;
	if (a->action != b->action || a->access != b->access)
		return false;
	if ((a->ntargets == 0) != (b->ntargets == 0))
		return false;
	return targets_within(a, b) && targets_within(b, a);
}

const sb_loc *sbx_target_loc(const sbx_stmt *s, size_t i)
{
	if (i < s->ntargets && s->targets[i].loc.line > 0)
		return &s->targets[i].loc;
	return &s->loc;
}

sb_action sbx_default_action(const sbx_policy *p, sb_action fallback)
{
	sb_action a = fallback;
	for (size_t i = 0; i < p->nstmts; i++)
		if (p->stmts[i].kind == SBX_STMT_DEFAULT)
			a = p->stmts[i].action;
	return a;
}
