/* check_order.c - the rule-order pass (check.h, docs/checks.md).  Warnings:
 *
 * [exception-order] an allow narrower than a later deny for the same access
 *   (or a deny narrower than a later allow): the later, broader rule decides,
 *   so the exception never takes effect; it belongs after that rule.
 * [specificity] a stat-only rule followed by an overlapping read rule with
 *   the other action.  In Seatbelt a file-read* rule never overrides a
 *   file-read-metadata rule; sbc emits an explicit metadata rule so that the
 *   text order holds, but the pair reads as if the stat-only rule mattered.
 * [dead-rule] every access and target of a rule is decided by later rules.
 * [unfiltered-order] an unfiltered rule after filtered rules for the same
 *   access overrides them all; Seatbelt reads an unfiltered rule as the
 *   operation's default, so such rules belong first.
 *
 * Only certain relations count: different runtime roots may nest and lists
 * are opaque, so they never make a rule dead.  Paths compare byte-exact, as
 * Seatbelt matches them.  */
#include "check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "target.h"

#define MAX_NOTES 3

typedef struct {
	const sbx_stmt *s;
	sbx_place *pl;   /* one per target; one ANY place when unfiltered (borrowed) */
	size_t n;
	unsigned atoms;
	bool reported;
} rule_info;

static void where(char *buf, size_t n, const sbx_stmt *other, const sbx_stmt *from)
{
	if (other->loc.file && from->loc.file && strcmp(other->loc.file, from->loc.file) != 0)
		snprintf(buf, n, "%s:%d", other->loc.file, other->loc.line);
	else
		snprintf(buf, n, "line %d", other->loc.line);
}

static const char *action_name(sb_action a)
{
	return a == SB_ALLOW ? "allow" : "deny";
}

/* (b) exceptions placed before the broader rule of the other action.  */
static void exception_order(rule_info *r, size_t nr, sb_diag *d)
{
	for (size_t i = 0; i < nr; i++) {
		for (size_t j = i + 1; j < nr && !r[i].reported; j++) {
			if (r[j].s->action == r[i].s->action || !(r[j].atoms & r[i].atoms) ||
			    r[j].s->ntargets == 0)
				continue;
			for (size_t t = 0; t < r[i].n && !r[i].reported; t++) {
				for (size_t u = 0; u < r[j].n; u++) {
					if (sbx_place_covers(&r[j].pl[u], &r[i].pl[t], false) != SBX_YES ||
					    sbx_place_covers(&r[i].pl[t], &r[j].pl[u], false) == SBX_YES)
						continue;
					char at[300];
					char *narrow = sbx_place_str(&r[i].pl[t]);
					char *broad = sbx_place_str(&r[j].pl[u]);
					where(at, sizeof at, r[j].s, r[i].s);
					sb_diag_report(d, SB_SEV_WARNING, sbx_target_loc(r[i].s, t),
						       "exception-order",
						       "this %s on %s is an exception to the %s on %s at %s, "
						       "but comes before it, so it never takes effect; "
						       "move it after %s",
						       action_name(r[i].s->action), narrow,
						       action_name(r[j].s->action), broad, at, at);
					sb_diag_note(d, sbx_target_loc(r[j].s, u),
						     "the broader %s rule is here",
						     action_name(r[j].s->action));
					free(narrow);
					free(broad);
					r[i].reported = true;
					break;
				}
			}
		}
	}
}

/* (c) stat-only rules whose metadata decision a later read rule takes over.  */
static void specificity(rule_info *r, size_t nr, sb_diag *d)
{
	for (size_t i = 0; i < nr; i++) {
		unsigned acc = r[i].s->access;
		if (r[i].reported || !(acc & SBX_ACC_STAT) || (acc & SBX_ACC_READ))
			continue;
		for (size_t j = i + 1; j < nr && !r[i].reported; j++) {
			if (r[j].s->action == r[i].s->action || !(r[j].s->access & SBX_ACC_READ))
				continue;
			for (size_t t = 0; t < r[i].n && !r[i].reported; t++) {
				for (size_t u = 0; u < r[j].n; u++) {
					if (sbx_place_overlaps(&r[i].pl[t], &r[j].pl[u], false) != SBX_YES)
						continue;
					char at[300];
					where(at, sizeof at, r[j].s, r[i].s);
					sb_diag_report(d, SB_SEV_WARNING, sbx_target_loc(r[i].s, t),
						       "specificity",
						       "the read %s at %s overrides this stat-only %s only "
						       "because sbc adds an explicit metadata rule: in "
						       "Seatbelt a file-read* rule never overrides a "
						       "file-read-metadata rule; if this rule is meant as "
						       "an exception, move it after %s",
						       action_name(r[j].s->action), at,
						       action_name(r[i].s->action), at);
					sb_diag_note(d, sbx_target_loc(r[j].s, u),
						     "the overlapping read rule is here");
					r[i].reported = true;
					break;
				}
			}
		}
	}
}

/* The last later rule j that certainly decides (atom, target t) of rule i,
 * counting unfiltered rules only when `unfiltered`.  Returns its index or
 * nr.  */
static size_t decider(const rule_info *r, size_t nr, size_t i, unsigned atom, size_t t,
		      bool unfiltered)
{
	for (size_t j = nr; j-- > i + 1;) {
		if (!(r[j].atoms & atom) || (!unfiltered && r[j].s->ntargets == 0))
			continue;
		for (size_t u = 0; u < r[j].n; u++)
			if (sbx_place_covers(&r[j].pl[u], &r[i].pl[t], false) == SBX_YES)
				return j;
	}
	return nr;
}

/* (a) dead rules.  */
static void dead_rules(rule_info *r, size_t nr, sb_diag *d)
{
	for (size_t i = 0; i < nr; i++) {
		if (r[i].reported)
			continue;
		bool dup = false;
		for (size_t j = i + 1; j < nr && !dup; j++)
			dup = sbx_rule_same(r[i].s, r[j].s);
		if (dup)
			continue;   /* check_names reports the repeat */
		size_t killers[MAX_NOTES], nk = 0;
		bool dead = r[i].atoms != 0;
		bool unfiltered = r[i].s->ntargets == 0;
		for (unsigned atom = 1; atom <= SBX_ATOM_EXEC && dead; atom <<= 1) {
			if (!(r[i].atoms & atom))
				continue;
			for (size_t t = 0; t < r[i].n && dead; t++) {
				size_t j = decider(r, nr, i, atom, t, unfiltered);
				dead = j < nr;
				bool seen = false;
				for (size_t k = 0; k < nk; k++)
					seen |= killers[k] == j;
				if (dead && !seen && nk < MAX_NOTES)
					killers[nk++] = j;
			}
		}
		if (!dead)
			continue;
		sb_diag_report(d, SB_SEV_WARNING, &r[i].s->loc, "dead-rule",
			       "this rule never decides anything: later rules decide every "
			       "access and path it names; remove it or move it after them");
		for (size_t k = 0; k < nk; k++)
			sb_diag_note(d, &r[killers[k]].s->loc, "decided by this later rule");
		r[i].reported = true;
	}
}

/* (d) unfiltered rules after filtered ones for the same access.  */
static void unfiltered_order(rule_info *r, size_t nr, sb_diag *d)
{
	for (size_t j = 0; j < nr; j++) {
		if (r[j].s->ntargets != 0)
			continue;
		size_t earlier[MAX_NOTES], ne = 0, total = 0;
		for (size_t i = 0; i < j; i++) {
			if (r[i].s->ntargets == 0 || !(r[i].atoms & r[j].atoms))
				continue;
			if (ne < MAX_NOTES)
				earlier[ne++] = i;
			total++;
		}
		if (!total)
			continue;
		char acc[64];
		sbx_access_name(r[j].s->access, acc, sizeof acc);
		sb_diag_report(d, SB_SEV_WARNING, &r[j].s->loc, "unfiltered-order",
			       "unfiltered %s rule after %zu filtered rule%s for the same access "
			       "overrides %s; Seatbelt reads an unfiltered rule as the "
			       "operation's default, so put it before them",
			       acc, total, total == 1 ? "" : "s", total == 1 ? "it" : "them all");
		for (size_t k = 0; k < ne; k++)
			sb_diag_note(d, &r[earlier[k]].s->loc, "overridden filtered rule");
		if (total > ne)
			sb_diag_note(d, &r[j].s->loc, "and %zu more", total - ne);
	}
}

int sb_check_order(const sbx_policy *p, const sbx_defines *defs, sb_diag *d)
{
	rule_info *r = calloc(p->nstmts ? p->nstmts : 1, sizeof *r);
	if (!r)
		abort();
	sbx_places pp;
	sbx_places_init(&pp, p, defs);
	size_t nr = 0;
	for (size_t i = 0; i < p->nstmts; i++) {
		const sbx_stmt *s = &p->stmts[i];
		if (s->kind != SBX_STMT_RULE)
			continue;
		rule_info *ri = &r[nr++];
		ri->s = s;
		ri->atoms = sbx_atoms(s->access);
		ri->n = pp.count[i];
		ri->pl = pp.of[i];
	}
	exception_order(r, nr, d);
	specificity(r, nr, d);
	dead_rules(r, nr, d);
	unfiltered_order(r, nr, d);
	sbx_places_clear(&pp);
	free(r);
	return 0;
}
