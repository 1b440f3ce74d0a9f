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
#include "check.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "target.h"

static const char *const predeclared[] = {
	"HOME", "WORKSPACE", "TMPDIR", "EXTRA_READ", "EXTRA_WRITE",
};

static bool is_predeclared(const char *name)
{
	for (size_t i = 0; i < sizeof predeclared / sizeof *predeclared; i++)
		if (strcmp(name, predeclared[i]) == 0)
			return true;
	return false;
}

/* The first `list NAME` statement, or NULL.  */
static const sbx_stmt *list_decl(const sbx_policy *p, const char *name)
{
	for (size_t i = 0; i < p->nstmts; i++)
		if (p->stmts[i].kind == SBX_STMT_LIST && p->stmts[i].name &&
		    strcmp(p->stmts[i].name, name) == 0)
			return &p->stmts[i];
	return NULL;
}

static bool blank(const char *s)
{
	if (!s)
		return true;
	while (*s && isspace((unsigned char)*s))
		s++;
	return *s == '\0';
}

static int check_decls(const sbx_policy *p, sb_diag *d)
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
		const sbx_stmt *decl = list_decl(p, s->name);
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

static int check_target_names(const sbx_policy *p, const sbx_defines *defs, sb_diag *d,
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
		const sbx_stmt *decl = list_decl(p, name);
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

static void check_repeats(const sbx_policy *p, sb_diag *d, size_t i)
{
	const sbx_stmt *s = &p->stmts[i];
	for (size_t t = 0; t < s->ntargets; t++) {
		for (size_t u = 0; u < t; u++) {
			if (!sbx_target_same(&s->targets[u], &s->targets[t]))
				continue;
			sb_diag_report(d, SB_SEV_WARNING, sbx_target_loc(s, t), "duplicate",
				       "the same target appears twice in this rule");
			sb_diag_note(d, sbx_target_loc(s, u), "first named here");
			break;
		}
	}
	for (size_t k = 0; k < i; k++) {
		if (!sbx_rule_same(&p->stmts[k], s))
			continue;
		sb_diag_report(d, SB_SEV_WARNING, &s->loc, "duplicate",
			       "this rule repeats an earlier one; remove one of them");
		sb_diag_note(d, &p->stmts[k].loc, "the earlier rule is here");
		break;
	}
}

static bool list_used(const sbx_policy *p, const char *name)
{
	for (size_t i = 0; i < p->nstmts; i++)
		for (size_t t = 0; t < p->stmts[i].ntargets; t++)
			if (p->stmts[i].targets[t].name &&
			    strcmp(p->stmts[i].targets[t].name, name) == 0)
				return true;
	return false;
}

int sb_check_names(const sbx_policy *p, const sbx_defines *defs, sb_diag *d)
{
	int errors = check_decls(p, d);
	for (size_t i = 0; i < p->nstmts; i++) {
		const sbx_stmt *s = &p->stmts[i];
		if (s->kind == SBX_STMT_LIST && s->name && list_decl(p, s->name) == s &&
		    !is_predeclared(s->name) && !list_used(p, s->name))
			sb_diag_report(d, SB_SEV_WARNING, &s->loc, "unused",
				       "list $%s is declared but no rule uses it", s->name);
		if (s->kind != SBX_STMT_RULE)
			continue;
		if (s->acks && blank(s->ack_reason)) {
			sb_diag_report(d, SB_SEV_ERROR, &s->loc, "empty",
				       "`acknowledge` needs a reason: say why this grant is safe");
			errors++;
		}
		errors += check_target_names(p, defs, d, s);
		check_repeats(p, d, i);
	}
	return errors;
}
