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
#include "compiler/check/check.h"
#include "compiler/check/check_shared.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/check/target.h"
#include "compiler/check/tindex.h"
#include "compiler/common/xalloc.h"

#define MAX_NOTES 3

typedef struct {
	const sbx_stmt *s;
	size_t k;        /* statement number */
	sbx_place *pl;   /* one per target; one ANY place when unfiltered (borrowed) */
	size_t n;
	unsigned atoms;
	bool reported;
} rule_info;

static char *where(const sbx_stmt *other, const sbx_stmt *from)
{
	if (other->loc.file && from->loc.file && strcmp(other->loc.file, from->loc.file) != 0)
		return xasprintf("%s:%d", other->loc.file, other->loc.line);
	return xasprintf("line %d", other->loc.line);
}

static const char *action_name(sb_action a)
{
	return a == SB_ALLOW ? "allow" : "deny";
}

/* The rules and what the passes need to find related ones quickly.  */
typedef struct {
	rule_info *r;
	size_t nr;
	size_t *rix;            /* statement number -> index in r */
	const sbx_tindex *ix;
	const bool *later_same; /* per statement: the same rule comes later */
} rules;

static unsigned other_action(sb_action a)
{
	return 1u << (a == SB_ALLOW ? SB_DENY : SB_ALLOW);
}

/* Is rule j a broader rule of the other action for target t of rule i?  */
static bool broader_than(const rule_info *ri, size_t t, const rule_info *rj)
{
	if (rj->s->action == ri->s->action || !(rj->atoms & ri->atoms) || rj->s->ntargets == 0)
		return false;
	for (size_t u = 0; u < rj->n; u++)
		if (sbx_place_covers(&rj->pl[u], &ri->pl[t], false) == SBX_YES &&
		    sbx_place_covers(&ri->pl[t], &rj->pl[u], false) != SBX_YES)
			return true;
	return false;
}

/* The first rule after i broader than some target of i, or nr.  */
static size_t first_broader(const rules *R, size_t i)
{
	const rule_info *ri = &R->r[i];
	size_t best = SIZE_MAX;
	for (size_t t = 0; t < ri->n; t++) {
		sbx_tquery q;
		sbx_tquery_init(&q, other_action(ri->s->action), ri->atoms);
		sbx_tquery_covering(&q, R->ix, &ri->pl[t], false);
		for (size_t k = sbx_tquery_next(&q, ri->k); k < best; k = sbx_tquery_next(&q, k))
			if (broader_than(ri, t, &R->r[R->rix[k]])) {
				best = k;
				break;
			}
		sbx_tquery_clear(&q);
	}
	return best == SIZE_MAX ? R->nr : R->rix[best];
}

/* (b) exceptions placed before the broader rule of the other action.  */
static void exception_order(const rules *R, sb_diag *d)
{
	rule_info *r = R->r;
	for (size_t i = 0; i < R->nr; i++) {
		size_t j = first_broader(R, i);
		if (j < R->nr) {
			for (size_t t = 0; t < r[i].n && !r[i].reported; t++) {
				for (size_t u = 0; u < r[j].n; u++) {
					if (sbx_place_covers(&r[j].pl[u], &r[i].pl[t], false) != SBX_YES ||
					    sbx_place_covers(&r[i].pl[t], &r[j].pl[u], false) == SBX_YES)
						continue;
					char *narrow = sbx_place_str(&r[i].pl[t]);
					char *broad = sbx_place_str(&r[j].pl[u]);
					char *at = where(r[j].s, r[i].s);
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
					free(at);
					r[i].reported = true;
					break;
				}
			}
		}
	}
}

/* Does some target of rule j certainly overlap target t of rule i?  */
static bool overlaps_target(const rule_info *ri, size_t t, const rule_info *rj)
{
	for (size_t u = 0; u < rj->n; u++)
		if (sbx_place_overlaps(&ri->pl[t], &rj->pl[u], false) == SBX_YES)
			return true;
	return false;
}

/* The first read rule of the other action after i that overlaps rule i,
 * or nr.  */
static size_t first_read_over(const rules *R, size_t i)
{
	const rule_info *ri = &R->r[i];
	size_t best = SIZE_MAX;
	for (size_t t = 0; t < ri->n; t++) {
		sbx_tquery q;
		sbx_tquery_init(&q, other_action(ri->s->action), SBX_ATOM_DATA);
		sbx_tquery_overlapping(&q, R->ix, &ri->pl[t]);
		for (size_t k = sbx_tquery_next(&q, ri->k); k < best; k = sbx_tquery_next(&q, k)) {
			const rule_info *rj = &R->r[R->rix[k]];
			if (rj->s->action != ri->s->action && (rj->s->access & SBX_ACC_READ) &&
			    overlaps_target(ri, t, rj)) {
				best = k;
				break;
			}
		}
		sbx_tquery_clear(&q);
	}
	return best == SIZE_MAX ? R->nr : R->rix[best];
}

/* (c) stat-only rules whose metadata decision a later read rule takes over.  */
static void specificity(const rules *R, sb_diag *d)
{
	rule_info *r = R->r;
	for (size_t i = 0; i < R->nr; i++) {
		unsigned acc = r[i].s->access;
		if (r[i].reported || !(acc & SBX_ACC_STAT) || (acc & SBX_ACC_READ))
			continue;
		size_t j = first_read_over(R, i);
		if (j < R->nr) {
			for (size_t t = 0; t < r[i].n && !r[i].reported; t++) {
				for (size_t u = 0; u < r[j].n; u++) {
					if (sbx_place_overlaps(&r[i].pl[t], &r[j].pl[u], false) != SBX_YES)
						continue;
					char *at = where(r[j].s, r[i].s);
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
					free(at);
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
static size_t decider(const rules *R, size_t i, unsigned atom, size_t t, bool unfiltered)
{
	const rule_info *ri = &R->r[i];
	sbx_tquery q;
	sbx_tquery_init(&q, 1u << SB_ALLOW | 1u << SB_DENY, atom);
	sbx_tquery_covering(&q, R->ix, &ri->pl[t], unfiltered);
	size_t found = R->nr;
	for (size_t k = sbx_tquery_prev(&q, SIZE_MAX); k != SIZE_MAX && k > ri->k;
	     k = sbx_tquery_prev(&q, k)) {
		const rule_info *rj = &R->r[R->rix[k]];
		if (!(rj->atoms & atom) || (!unfiltered && rj->s->ntargets == 0))
			continue;
		bool covers = false;
		for (size_t u = 0; u < rj->n && !covers; u++)
			covers = sbx_place_covers(&rj->pl[u], &ri->pl[t], false) == SBX_YES;
		if (covers) {
			found = R->rix[k];
			break;
		}
	}
	sbx_tquery_clear(&q);
	return found;
}

/* (a) dead rules.  */
static void dead_rules(const rules *R, sb_diag *d)
{
	rule_info *r = R->r;
	size_t nr = R->nr;
	for (size_t i = 0; i < nr; i++) {
		if (r[i].reported)
			continue;
		if (R->later_same[r[i].k])
			continue;   /* check_names reports the repeat */
		size_t killers[MAX_NOTES], nk = 0;
		bool dead = r[i].atoms != 0;
		bool unfiltered = r[i].s->ntargets == 0;
		for (unsigned atom = 1; atom <= SBX_ATOM_EXEC && dead; atom <<= 1) {
			if (!(r[i].atoms & atom))
				continue;
			for (size_t t = 0; t < r[i].n && dead; t++) {
				size_t j = decider(R, i, atom, t, unfiltered);
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

/* (d) unfiltered rules after filtered ones for the same access.  Filtered
 * rules seen so far are counted per atom set (16 of them), with the first
 * few of each for the notes.  */
static void unfiltered_order(rule_info *r, size_t nr, sb_diag *d)
{
	enum { NSETS = SBX_ATOM_EXEC << 1 };
	size_t count[NSETS] = {0}, first[NSETS][MAX_NOTES];
	for (size_t j = 0; j < nr; j++) {
		if (r[j].s->ntargets != 0) {
			unsigned m = r[j].atoms;
			if (count[m] < MAX_NOTES)
				first[m][count[m]] = j;
			count[m]++;
			continue;
		}
		size_t earlier[MAX_NOTES], ne = 0, total = 0;
		for (unsigned m = 0; m < NSETS; m++) {
			if (!(m & r[j].atoms))
				continue;
			total += count[m];
			/* merge the first few of this set into the smallest few */
			for (size_t k = 0; k < count[m] && k < MAX_NOTES; k++) {
				size_t v = first[m][k], at = ne;
				while (at > 0 && earlier[at - 1] > v)
					at--;
				if (at >= MAX_NOTES)
					break;
				if (ne < MAX_NOTES)
					ne++;
				memmove(&earlier[at + 1], &earlier[at], (ne - 1 - at) * sizeof *earlier);
				earlier[at] = v;
			}
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

int sb_check_order_with(const sbx_check_shared *sh, sb_diag *d)
{
	const sbx_policy *p = sh->p;
	const sbx_places pp = sh->places;
	rule_info *r = xcalloc(p->nstmts, sizeof *r);
	size_t *rix = xcalloc(p->nstmts, sizeof *rix);
	size_t nr = 0;
	for (size_t i = 0; i < p->nstmts; i++) {
		const sbx_stmt *s = &p->stmts[i];
		if (s->kind != SBX_STMT_RULE)
			continue;
		rix[i] = nr;
		rule_info *ri = &r[nr++];
		ri->s = s;
		ri->k = i;
		ri->atoms = sbx_atoms(s->access);
		ri->n = pp.count[i];
		ri->pl = pp.of[i];
	}
	rules R = {r, nr, rix, sh->index, sh->later_same};
	exception_order(&R, d);
	specificity(&R, d);
	dead_rules(&R, d);
	unfiltered_order(r, nr, d);
	free(rix);
	free(r);
	return 0;
}
