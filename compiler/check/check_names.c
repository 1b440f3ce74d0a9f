/* check_names.c - names, repeats and empty things (check.h, docs/checks.md).
 *
 * errors:   [undefined] a $NAME that is neither a predeclared root or list,
 *           declared with `list`, nor bound with -D;
 *           [duplicate] a `list` declared twice (or redeclaring a predeclared
 *           name), a second `default` statement;
 *           [empty] an `acknowledge` without a reason.
 * warnings: [duplicate] a rule repeating an earlier one (same action,
 *           accesses and targets) or naming the same target twice;
 *           [unused] a `list` that no rule uses.  */
#include "compiler/check/check.h"
#include "compiler/check/check_shared.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/common/strmap.h"
#include "compiler/check/target.h"
#include "compiler/check/tindex.h"

/* The first `list` statement of each name and the names rules use.  */
typedef struct {
	sb_strmap *decl;   /* name -> first `list NAME` statement */
	sb_strmap *used;   /* names of list and param targets */
	const size_t *first_same;   /* borrowed from the shared data */
	const bool *later_same;
} names;

static const char *const predeclared[] = {
	"HOME", "WORKSPACE", "TMPDIR", "EXTRA_READ", "EXTRA_WRITE",
	"PROTECT_GIT", "PROTECT_GIT_NODES", "GIT_INCLUDES",
};

static bool is_predeclared(const char *name)
{
	for (size_t i = 0; i < sizeof predeclared / sizeof *predeclared; i++)
		if (strcmp(name, predeclared[i]) == 0)
			return true;
	return false;
}

static void names_init(names *n, const sbx_policy *p, const sbx_check_shared *sh)
{
	n->decl = sb_strmap_new();
	n->used = sb_strmap_new();
	for (size_t i = 0; i < p->nstmts; i++) {
		const sbx_stmt *s = &p->stmts[i];
		if (s->kind == SBX_STMT_LIST && s->name) {
			void **v = sb_strmap_slot(n->decl, s->name, strlen(s->name), true);
			if (!*v)
				*v = (void *)s;
		}
		for (size_t t = 0; t < s->ntargets; t++)
			if (s->targets[t].name)
				*sb_strmap_slot(n->used, s->targets[t].name,
						strlen(s->targets[t].name), true) = (void *)s;
	}
	n->first_same = sh->first_same;
	n->later_same = sh->later_same;
}

static void names_clear(names *n)
{
	sb_strmap_free(n->decl);
	sb_strmap_free(n->used);
}

/* The first `list NAME` statement, or NULL.  */
static const sbx_stmt *list_decl(const names *n, const char *name)
{
	void **v = sb_strmap_slot(n->decl, name, strlen(name), false);
	return v ? *v : NULL;
}

static bool blank(const char *s)
{
	if (!s)
		return true;
	while (*s && isspace((unsigned char)*s))
		s++;
	return *s == '\0';
}

static int check_decls(const sbx_policy *p, const names *nm, sb_diag *d)
{
	int errors = 0;
	const sbx_stmt *first_default = NULL;
	for (size_t i = 0; i < p->nstmts; i++) {
		const sbx_stmt *s = &p->stmts[i];
		/* The parser refuses this too; kept for ASTs built otherwise.
		 * (`network` may be repeated: the last one wins.)  */
		if (s->kind == SBX_STMT_DEFAULT && first_default) {
			sb_diag_report(d, SB_SEV_ERROR, &s->loc, "duplicate",
				       "a second `default` statement; a policy has one");
			sb_diag_note(d, &first_default->loc, "the first one is here");
			errors++;
		} else if (s->kind == SBX_STMT_DEFAULT) {
			first_default = s;
		}
		if (s->kind != SBX_STMT_LIST || !s->name)
			continue;
		const sbx_stmt *decl = list_decl(nm, s->name);
		if (is_predeclared(s->name)) {
			sb_diag_report(d, SB_SEV_ERROR, &s->loc, "duplicate",
				       "$%s is predeclared; remove this `list` statement", s->name);
			errors++;
		} else if (decl != s) {
			sb_diag_report(d, SB_SEV_ERROR, &s->loc, "duplicate",
				       "list $%s is declared twice", s->name);
			sb_diag_note(d, &decl->loc, "the first declaration is here");
			errors++;
		}
	}
	return errors;
}

static int check_target_names(const names *nm, const sbx_defines *defs, sb_diag *d,
			      const sbx_stmt *s)
{
	int errors = 0;
	for (size_t t = 0; t < s->ntargets; t++) {
		const sbx_target *tg = &s->targets[t];
		if (tg->base != SBX_BASE_PARAM && tg->base != SBX_BASE_LIST)
			continue;
		const char *name = tg->name ? tg->name : "";
		if (is_predeclared(name) || (defs && sb_bindings_get(defs, name)))
			continue;
		const sbx_stmt *decl = list_decl(nm, name);
		if (decl && decl < s)
			continue;
		if (decl) {
			sb_diag_report(d, SB_SEV_ERROR, sbx_target_loc(s, t), "undefined",
				       "$%s is used before its `list $%s;` declaration", name, name);
			sb_diag_note(d, &decl->loc, "declared here");
		} else {
			sb_diag_report(d, SB_SEV_ERROR, sbx_target_loc(s, t), "undefined",
				       "undefined name $%s; declare it with `list $%s;` or bind it "
				       "with -D %s=PATH", name, name, name);
		}
		errors++;
	}
	return errors;
}

/* The first earlier target of s the same as target t, or t.  */
static size_t same_target_before(const sbx_stmt *s, size_t t, sb_strmap *seen)
{
	if (!seen) {
		for (size_t u = 0; u < t; u++)
			if (sbx_target_same(&s->targets[u], &s->targets[t]))
				return u;
		return t;
	}
	size_t len;
	char *k = sbx_target_key(&s->targets[t], &len);
	void **v = sb_strmap_slot(seen, k, len, true);
	free(k);
	if (!*v)
		*v = (void *)(t + 1);
	return (size_t)*v - 1;
}

static void check_repeats(const sbx_policy *p, const names *nm, sb_diag *d, size_t i)
{
	const sbx_stmt *s = &p->stmts[i];
	/* a few targets compare pairwise; many go through a map */
	sb_strmap *seen = s->ntargets > 16 ? sb_strmap_new() : NULL;
	for (size_t t = 0; t < s->ntargets; t++) {
		size_t u = same_target_before(s, t, seen);
		if (u == t)
			continue;
		sb_diag_report(d, SB_SEV_WARNING, sbx_target_loc(s, t), "duplicate",
			       "the same target appears twice in this rule");
		sb_diag_note(d, sbx_target_loc(s, u), "first named here");
	}
	sb_strmap_free(seen);
	size_t k = nm->first_same[i];
	if (k != i && k < p->nstmts) {
		sb_diag_report(d, SB_SEV_WARNING, &s->loc, "duplicate",
			       "this rule repeats an earlier one; remove one of them");
		sb_diag_note(d, &p->stmts[k].loc, "the earlier rule is here");
	}
}

static bool list_used(const names *nm, const char *name)
{
	return sb_strmap_slot(nm->used, name, strlen(name), false) != NULL;
}

int sb_check_names_with(const sbx_check_shared *sh, sb_diag *d)
{
	const sbx_policy *p = sh->p;
	const sbx_defines *defs = sh->defs;
	names nm;
	names_init(&nm, p, sh);
	int errors = check_decls(p, &nm, d);
	for (size_t i = 0; i < p->nstmts; i++) {
		const sbx_stmt *s = &p->stmts[i];
		if (s->kind == SBX_STMT_LIST && s->name && list_decl(&nm, s->name) == s &&
		    !is_predeclared(s->name) && !list_used(&nm, s->name))
			sb_diag_report(d, SB_SEV_WARNING, &s->loc, "unused",
				       "list $%s is declared but no rule uses it", s->name);
		if (s->kind != SBX_STMT_RULE)
			continue;
		if (s->acks && blank(s->ack_reason)) {
			sb_diag_report(d, SB_SEV_ERROR, &s->loc, "empty",
				       "`acknowledge` needs a reason: say why this grant is safe");
			errors++;
		}
		errors += check_target_names(&nm, defs, d, s);
		check_repeats(p, &nm, d, i);
	}
	names_clear(&nm);
	return errors;
}
