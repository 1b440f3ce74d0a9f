/* check_sensitive.c - the sensitive-location pass (check.h, docs/checks.md).
 *
 * A read or write grant (an allow rule; stat-only and exec do not grant
 * content) whose target equals, lies inside or covers a sensitive location
 * is an error [sensitive], unless the statement says `acknowledge sensitive
 * "reason"` or a later deny rule certainly takes that location back for the
 * same access.  A write grant on the policy files themselves is a warning
 * [policy-write].  Under `default allow`, a sensitive location that no rule certainly
 * decides is granted by the default: an error at the `default` statement.
 * A write grant inside ~/.omp is a warning [persistence]: omp later
 * runs code from there outside any sandbox (defect D7, docs/migration.md).
 *
 * Targets relative to home are compared symbolically; absolute targets are
 * compared with HOME when it is bound with -D, else with the conventional
 * homes (/Users/NAME, /home/NAME, ...).  Other runtime roots and lists are
 * only known at launch, where the launcher applies the same matcher.  */
#include "compiler/check/check.h"
#include "compiler/check/check_shared.h"

#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/common/sensitive.h"
#include "compiler/common/path.h"
#include "compiler/check/target.h"
#include "compiler/check/tindex.h"
#include "compiler/common/xalloc.h"

#define GRANTS (SBX_ACC_READ | SBX_ACC_WRITE)

/* Locations a write grant should not reach, silenced like sensitive ones.  */
static const sb_sensitive_entry persistence[] = {
	{ ".omp", "omp later runs code from here outside any sandbox: agent/config.yml "
		  "shellPath, extensions, hooks, plugins, .env" },
};

typedef struct {
	const sbx_policy *p;
	const sbx_defines *defs;
	sb_diag *d;
	const char *home;   /* bound with -D, or NULL */
	char **own;         /* canonical policy files (the top file and includes) */
	size_t nown, owncap;
	const sbx_places *pl;   /* every rule's places (shared, check_shared.h) */
	const sbx_tindex *ix;   /* ... and indexed */
	/* the first component of each sensitive entry (sb_sensitive_list), found
	 * once instead of once per target; fc NULL: the entry has none */
	const char **fc;
	size_t *fn;
} ctx;

/* Where a target stands relative to home: covering all of it, at a path
 * below it, or unknown/outside.  */
typedef enum { POS_NONE, POS_ALL, POS_REL } home_pos;

static home_pos target_home_pos(const ctx *c, const sbx_place *pl, const char **rel)
{
	switch (pl->kind) {
	case SBX_PLACE_ANY:
		return POS_ALL;
	case SBX_PLACE_ROOT:
		if (strcmp(pl->root, "HOME") != 0)
			return POS_NONE;
		*rel = pl->path;
		return POS_REL;
	case SBX_PLACE_ABS:
		switch (sbx_abs_home_pos(pl->path, c->home, rel)) {
		case SBX_HOME_ABOVE: return pl->exact ? POS_NONE : POS_ALL;
		case SBX_HOME_INSIDE: return POS_REL;
		case SBX_HOME_OUTSIDE: break;
		}
		return POS_NONE;
	case SBX_PLACE_LIST:
		break;
	}
	return POS_NONE;
}

/* The last rule after statement `after` of the actions in `actions` naming
 * access `bit` (read or write) that certainly covers all of place x, or
 * SIZE_MAX.  */
static size_t last_covering(const ctx *c, size_t after, const sbx_place *x, unsigned bit,
			    unsigned actions)
{
	sbx_tquery q;
	sbx_tquery_init(&q, actions, bit == SBX_ACC_READ ? SBX_ATOM_DATA : SBX_ATOM_WRITE);
	sbx_tquery_covering(&q, c->ix, x, true);
	size_t found = SIZE_MAX;
	for (size_t k = sbx_tquery_prev(&q, SIZE_MAX); k != SIZE_MAX && (after == SIZE_MAX || k > after);
	     k = sbx_tquery_prev(&q, k)) {
		const sbx_stmt *s = &c->p->stmts[k];
		if (s->kind == SBX_STMT_RULE && (actions & (1u << s->action)) && (s->access & bit) &&
		    sbx_rule_covers(c->pl, k, x)) {
			found = k;
			break;
		}
	}
	sbx_tquery_clear(&q);
	return found;
}

/* Accesses of `acc` (read, write) that no deny rule after statement
 * `after` certainly takes back on all of place x.  */
static unsigned not_taken_back(const ctx *c, size_t after, const sbx_place *x, unsigned acc)
{
	unsigned left = acc;
	static const unsigned bits[] = { SBX_ACC_READ, SBX_ACC_WRITE };
	for (size_t b = 0; b < sizeof bits / sizeof *bits; b++)
		if ((left & bits[b]) && last_covering(c, after, x, bits[b], 1u << SB_DENY) != SIZE_MAX)
			left &= ~bits[b];
	return left;
}

/* The exposed part of an entry: the whole entry when the target covers
 * it, else the target itself.  */
static unsigned entry_exposure(const ctx *c, size_t i, const sbx_place *pl, home_pos pos,
			       const char *rel, const char *entry, unsigned acc, bool *covers)
{
	sbx_path_rel r = pos == POS_ALL ? SBX_PATH_ABOVE : sbx_path_relation(rel, entry, true);
	if (r == SBX_PATH_UNRELATED || (r == SBX_PATH_ABOVE && pl->exact))
		return 0;
	*covers = r == SBX_PATH_ABOVE;
	if (!*covers)
		return not_taken_back(c, i, pl, acc);
	sbx_place x;
	if (pos == POS_REL && pl->kind == SBX_PLACE_ABS && !c->home) {
		/* A conventional home (/Users/bob): the entry below that home.  */
		char *joined = NULL;
		joined = xasprintf("%.*s/%s", (int)(rel - pl->path), pl->path, entry);
		sbx_target t = { .base = SBX_BASE_ABS, .rel = joined };
		sbx_place_of(&x, &t, c->defs);
		free(joined);
	} else {
		sbx_place_home(&x, entry, false, c->defs);
	}
	unsigned left = not_taken_back(c, i, &x, acc);
	sbx_place_clear(&x);
	return left;
}

static void report(const ctx *c, const sbx_stmt *s, size_t t, sb_severity sev,
		   const char *code, unsigned acc, const sbx_place *pl, bool covers,
		   const char *what, const char *why)
{
	char accs[64];
	char *where = sbx_place_str(pl);
	sbx_access_name(acc, accs, sizeof accs);
	sb_diag_report(c->d, sev, sbx_target_loc(s, t), code,
		       "%s grant %s%s %s %s (%s); deny it in a later rule, or add "
		       "`acknowledge sensitive \"reason\"`",
		       accs, pl->kind == SBX_PLACE_ANY ? "" : "on ", where,
		       covers ? "covers" : "reaches", what, why);
	free(where);
}

/* A write grant on the policy files themselves (the top file and its
 * includes, canonical).  A warning, not an error: where the policy lies
 * while it is compiled (a build tree, a CI checkout in /tmp) need not be
 * where it is used; the launcher checks its real profile and itself.
 * /tmp, /var and /etc are also tried in their macOS /private form.  */
static bool check_own_files(const ctx *c, size_t i, size_t t, const sbx_place *pl, bool quiet)
{
	if (pl->kind != SBX_PLACE_ABS && pl->kind != SBX_PLACE_ANY)
		return false;
	sbx_place alias = *pl;
	alias.path = pl->kind == SBX_PLACE_ABS ? sb_path_private_alias(pl->path) : NULL;
	bool found = false;
	for (size_t f = 0; !found && f < c->nown; f++) {
		sbx_place own = { .kind = SBX_PLACE_ABS, .path = c->own[f] };
		const sbx_place *g = pl;
		if (sbx_place_overlaps(g, &own, true) == SBX_NO && alias.path)
			g = &alias;
		if (sbx_place_overlaps(g, &own, true) == SBX_NO)
			continue;
		bool covers = sbx_place_covers(g, &own, true) == SBX_YES;
		if (!not_taken_back(c, i, covers ? &own : g, SBX_ACC_WRITE))
			continue;
		found = true;
		if (!quiet) {
			char what[PATH_MAX + 32];
			snprintf(what, sizeof what, "the policy file %s", c->own[f]);
			report(c, &c->p->stmts[i], t, SB_SEV_WARNING, "policy-write", SBX_ACC_WRITE,
			       pl, covers, what, "a sandboxed program could rewrite its own sandbox");
		}
	}
	free(alias.path);
	return found;
}

/* Check one target of allow rule i.  Returns true when something was found
 * (reported only when `quiet` is false).  */
static bool check_target(const ctx *c, size_t i, size_t t, bool quiet, int *errors)
{
	const sbx_stmt *s = &c->p->stmts[i];
	unsigned acc = s->access & GRANTS;
	const sbx_place pl = c->pl->of[i][t];
	const char *rel = NULL;
	home_pos pos = target_home_pos(c, &pl, &rel);
	bool found = false, covers = false;
	char what[PATH_MAX + 32];

	if (pos == POS_REL && sb_path_has_dotdot(rel)) {
		found = true;
		if (!quiet) {
			sb_diag_report(c->d, SB_SEV_ERROR, sbx_target_loc(s, t), "sensitive",
				       "target has a '..' component, so it cannot be checked "
				       "against the sensitive locations; spell the path without '..'");
			++*errors;
		}
	}
	size_t n = 0;
	const sb_sensitive_entry *list = sb_sensitive_list(&n);
	/* An entry whose first component differs from the target's is
	 * unrelated to it (sbx_path_relation): compare that first, once per
	 * entry, instead of the whole relation for each of the list.  */
	const char *rp = rel, *rc = NULL;
	size_t rn = 0;
	bool first_known = pos == POS_REL && rel && sb_path_next_comp(&rp, &rc, &rn);
	for (size_t e = 0; pos != POS_NONE && !found && e < n; e++) {
		if (first_known && c->fc[e] && !sb_path_comp_eq(rc, rn, c->fc[e], c->fn[e], true))
			continue;
		unsigned left = entry_exposure(c, i, &pl, pos, rel, list[e].rel, acc, &covers);
		if (!left)
			continue;
		found = true;
		if (!quiet) {
			snprintf(what, sizeof what, "the sensitive location ~/%s", list[e].rel);
			report(c, s, t, SB_SEV_ERROR, "sensitive", left, &pl, covers, what,
			       list[e].why);
			++*errors;
		}
	}
	if (!found && (acc & SBX_ACC_WRITE))
		found = check_own_files(c, i, t, &pl, quiet);
	/* Persistence: only for targets at or inside the location; wider
	 * targets are sensitive errors already.  */
	for (size_t e = 0; !found && (acc & SBX_ACC_WRITE) && pos == POS_REL &&
			   e < sizeof persistence / sizeof *persistence; e++) {
		if (!sb_path_is_under_fold(rel, persistence[e].rel))
			continue;
		if (!not_taken_back(c, i, &pl, SBX_ACC_WRITE))
			continue;
		found = true;
		if (!quiet) {
			snprintf(what, sizeof what, "~/%s", persistence[e].rel);
			report(c, s, t, SB_SEV_WARNING, "persistence", SBX_ACC_WRITE, &pl, false,
			       what, persistence[e].why);
		}
	}
	return found;
}

/* Can every target of rule i be decided at compile time?  */
static bool decidable(const ctx *c, size_t i)
{
	for (size_t t = 0; t < c->pl->count[i]; t++) {
		const sbx_place *pl = &c->pl->of[i][t];
		if (!(pl->kind == SBX_PLACE_ABS || pl->kind == SBX_PLACE_ANY ||
		      (pl->kind == SBX_PLACE_ROOT && strcmp(pl->root, "HOME") == 0)))
			return false;
	}
	return true;
}

static void add_own(ctx *c, const char *file)
{
	if (!file || !*file)
		return;
	char *canon = realpath(file, NULL);
	if (!canon) {
		if (file[0] != '/')
			return;
		canon = xstrdup(file);
	}
	for (size_t i = 0; i < c->nown; i++) {
		if (strcmp(c->own[i], canon) == 0) {
			free(canon);
			return;
		}
	}
	SB_GROW(c->own, c->nown, c->owncap, 4);
	c->own[c->nown++] = canon;
}

/* The rule that decides access `acc` on all of place x under the text
 * model (the last rule that certainly covers it), or NULL.  */
static const sbx_stmt *certain_decider(const ctx *c, const sbx_place *x, unsigned acc)
{
	size_t k = last_covering(c, SIZE_MAX, x, acc, 1u << SB_ALLOW | 1u << SB_DENY);
	return k == SIZE_MAX ? NULL : &c->p->stmts[k];
}

/* `default allow` grants whatever no rule decides: a sensitive location
 * that no rule certainly covers is left open by the default.  */
static void check_default(const ctx *c, int *errors)
{
	const sbx_stmt *dflt = NULL;
	for (size_t i = 0; i < c->p->nstmts; i++)
		if (c->p->stmts[i].kind == SBX_STMT_DEFAULT)
			dflt = &c->p->stmts[i];
	if (!dflt || dflt->action != SB_ALLOW)
		return;
	static const unsigned accs[] = { SBX_ACC_READ, SBX_ACC_WRITE };
	size_t n = 0;
	const sb_sensitive_entry *list = sb_sensitive_list(&n);
	for (size_t a = 0; a < sizeof accs / sizeof *accs; a++) {
		const char *first = NULL;
		size_t open = 0;
		for (size_t e = 0; e < n; e++) {
			sbx_place x;
			sbx_place_home(&x, list[e].rel, false, c->defs);
			if (!certain_decider(c, &x, accs[a])) {
				first = first ? first : list[e].rel;
				open++;
			}
			sbx_place_clear(&x);
		}
		if (!open)
			continue;
		char more[64] = "";
		if (open > 1)
			snprintf(more, sizeof more, " and %zu more sensitive locations", open - 1);
		sb_diag_report(c->d, SB_SEV_ERROR, &dflt->loc, "sensitive",
			       "`default allow` leaves ~/%s%s %s: no rule decides %s there; add "
			       "`deny %s home;` (then re-allow what is needed)",
			       first, more, accs[a] == SBX_ACC_READ ? "readable" : "writable",
			       accs[a] == SBX_ACC_READ ? "read" : "write",
			       accs[a] == SBX_ACC_READ ? "read" : "write");
		++*errors;
	}
}

int sb_check_sensitive_with(const sbx_check_shared *sh, sb_diag *d)
{
	const sbx_policy *p = sh->p;
	const sbx_defines *defs = sh->defs;
	ctx c = { .p = p, .defs = defs, .d = d };
	int errors = 0;
	const char *home = sbx_bound_value(defs, "HOME");
	c.home = home && home[0] == '/' ? home : NULL;
	add_own(&c, p->file);
	for (size_t i = 0; i < p->nstmts; i++) {
		const char *f = p->stmts[i].loc.file;
		/* statements of one file share its name: resolve it once */
		if (f && i > 0 && p->stmts[i - 1].loc.file && !strcmp(f, p->stmts[i - 1].loc.file))
			continue;
		add_own(&c, f);
	}
	c.pl = &sh->places;
	c.ix = sh->index;
	size_t nlist = 0;
	const sb_sensitive_entry *list = sb_sensitive_list(&nlist);
	c.fc = xcalloc(nlist ? nlist : 1, sizeof *c.fc);
	c.fn = xcalloc(nlist ? nlist : 1, sizeof *c.fn);
	for (size_t e = 0; e < nlist; e++) {
		const char *ep = list[e].rel;
		if (!sb_path_next_comp(&ep, &c.fc[e], &c.fn[e]))
			c.fc[e] = NULL;
	}

	for (size_t i = 0; i < p->nstmts; i++) {
		const sbx_stmt *s = &p->stmts[i];
		if (s->kind != SBX_STMT_RULE)
			continue;
		bool acked = s->acks & SBX_ACK_SENSITIVE;
		bool any = false;
		if (s->action == SB_ALLOW && (s->access & GRANTS)) {
			size_t nt = s->ntargets ? s->ntargets : 1;
			for (size_t t = 0; t < nt; t++)
				any |= check_target(&c, i, t, acked, &errors);
		}
		if (acked && !any && decidable(&c, i))
			sb_diag_report(d, SB_SEV_WARNING, &s->loc, "unused-ack",
				       "`acknowledge sensitive` on a rule that grants nothing "
				       "sensitive; remove it so it cannot hide a later change");
	}
	check_default(&c, &errors);
	for (size_t i = 0; i < c.nown; i++)
		free(c.own[i]);
	free(c.own);
	free(c.fc);
	free(c.fn);
	return errors;
}
