/* check_wide.c - the wide-root pass (check.h, docs/checks.md).
 *
 * Granting write, or re-allowing read, on /, on the home directory or on an
 * ancestor of it (/Users, /home) hands the agent every file of the user.
 * That is an error [wide-root] unless the statement says
 * `acknowledge wide "reason"`.  An unfiltered `allow write;` is as wide.
 * A read allow "re-allows" when it comes after a read deny it may overlap,
 * or when the default is deny (a missing default counts as deny here, to
 * fail closed).  `exactly` targets name one node and are never wide.  The
 * workspace and the other runtime roots are checked at launch.  */
#include "compiler/check/check.h"
#include "compiler/check/check_shared.h"

#include <stdlib.h>
#include <string.h>

#include "compiler/check/target.h"
#include "compiler/check/tindex.h"

/* Why a place is wide, or NULL.  */
static const char *wide_reason(const sbx_place *pl, const char *home)
{
	const char *rel = NULL;
	if (pl->kind == SBX_PLACE_ANY)
		return "it applies everywhere";
	if (pl->exact)
		return NULL;
	if (pl->kind == SBX_PLACE_ROOT)
		return strcmp(pl->root, "HOME") == 0 && !*pl->path ? "it is the home directory" : NULL;
	if (pl->kind != SBX_PLACE_ABS)
		return NULL;
	if (sbx_path_relation(pl->path, "/", false) == SBX_PATH_EQUAL)
		return "it is the whole file system";
	switch (sbx_abs_home_pos(pl->path, home, &rel)) {
	case SBX_HOME_ABOVE:
		return "it contains the home directory";
	case SBX_HOME_INSIDE:
		if (*rel)
			return NULL;
		return home ? "it is the home directory" : "it is a home directory";
	case SBX_HOME_OUTSIDE:
		break;
	}
	return NULL;
}

/* The last deny of `acc` before statement i that may overlap pl, or NULL
 * (a later grant re-opens what it closed).  */
static const sbx_stmt *earlier_deny(const sbx_policy *p, const sbx_places *pp, size_t i,
				    const sbx_place *pl, unsigned acc)
{
	for (size_t k = i; k-- > 0;) {
		const sbx_stmt *s = &p->stmts[k];
		if (s->kind != SBX_STMT_RULE || s->action != SB_DENY || !(s->access & acc))
			continue;
		for (size_t t = 0; t < pp->count[k]; t++)
			if (sbx_place_overlaps(&pp->of[k][t], pl, true) != SBX_NO)
				return s;
	}
	return NULL;
}

static bool decidable_place(const sbx_place *pl)
{
	return pl->kind == SBX_PLACE_ABS || pl->kind == SBX_PLACE_ANY ||
	       (pl->kind == SBX_PLACE_ROOT && strcmp(pl->root, "HOME") == 0);
}

/* [widens]: a grant on a directory that strictly contains an earlier,
 * narrower grant of the same access, inside denied ground: the narrow one
 * was chosen to keep its siblings closed (the cache preset grants
 * ~/.cache/omp-sandbox, not ~/.cache with the real ~/.cache/pip), and the
 * wide one opens them.  What `--learn` once proposed for a new
 * ~/.cache/mytool (docs/trace.md).  A warning: it may be meant.  */
static void check_widens(const sbx_check_shared *sh, sb_diag *d)
{
	const sbx_policy *p = sh->p;
	const sbx_places *pp = &sh->places;
	for (size_t i = 0; i < p->nstmts; i++) {
		const sbx_stmt *s = &p->stmts[i];
		unsigned acc = s->access & (SBX_ACC_READ | SBX_ACC_WRITE);
		/* an acknowledged grant was meant as it stands */
		if (s->kind != SBX_STMT_RULE || s->action != SB_ALLOW || !acc || !s->ntargets ||
		    s->acks)
			continue;
		for (size_t t = 0; t < pp->count[i]; t++) {
			const sbx_place *a = &pp->of[i][t];
			if (a->exact || (a->kind != SBX_PLACE_ABS && a->kind != SBX_PLACE_ROOT) ||
			    (a->kind == SBX_PLACE_ROOT && !*a->path))
				continue;
			/* The narrower grant is the first earlier place inside a: the
			 * index names the statements that can hold one, in order, so a
			 * grant is compared with its own subtree, not with every rule.  */
			const sbx_stmt *narrow = NULL;
			const sbx_place *b = NULL;
			sbx_tquery q;
			sbx_tquery_init(&q, 1u << SB_ALLOW, sbx_atoms(acc));
			sbx_tquery_inside(&q, sh->index, a);
			for (size_t k = 0; k < i && !narrow; k = sbx_tquery_next(&q, k)) {
				const sbx_stmt *o = &p->stmts[k];
				if (o->kind != SBX_STMT_RULE || o->action != SB_ALLOW ||
				    (o->access & acc) != acc || sh->first_same[k] != k)
					continue;
				for (size_t u = 0; u < pp->count[k] && !narrow; u++) {
					const sbx_place *c = &pp->of[k][u];
					bool same_node = c->kind == a->kind && !strcmp(c->path, a->path);
					if ((c->kind == SBX_PLACE_ABS || c->kind == SBX_PLACE_ROOT) &&
					    !same_node && sbx_place_covers(a, c, false) == SBX_YES &&
					    sbx_place_covers(c, a, false) != SBX_YES) {
						narrow = o;
						b = c;
					}
				}
			}
			sbx_tquery_clear(&q);
			if (!narrow || !earlier_deny(p, pp, i, a, acc))
				continue;
			char *wide = sbx_place_str(a), *nar = sbx_place_str(b);
			char an[64];
			sb_diag_report(d, SB_SEV_WARNING, sbx_target_loc(s, t), "widens",
				       "allow %s %s also opens everything beside %s, which an earlier "
				       "rule grants on its own to keep the rest of %s closed; grant "
				       "only the entry you need below %s",
				       sbx_access_name(acc, an, sizeof an), wide, nar, wide, wide);
			sb_diag_note(d, &narrow->loc, "the narrower grant is here");
			free(wide);
			free(nar);
		}
	}
}

int sb_check_wide_with(const sbx_check_shared *sh, sb_diag *d)
{
	const sbx_policy *p = sh->p;
	const sbx_defines *defs = sh->defs;
	int errors = 0;
	const char *home = sbx_bound_value(defs, "HOME");
	if (home && home[0] != '/')
		home = NULL;
	bool default_deny = sbx_default_action(p, SB_DENY) == SB_DENY;
	const sbx_places pp = sh->places;

	for (size_t i = 0; i < p->nstmts; i++) {
		const sbx_stmt *s = &p->stmts[i];
		if (s->kind != SBX_STMT_RULE)
			continue;
		bool acked = s->acks & SBX_ACK_WIDE;
		bool any_wide = false, all_decidable = true;
		size_t nt = s->ntargets ? s->ntargets : 1;
		for (size_t t = 0; t < nt; t++) {
			const sbx_place pl = pp.of[i][t];
			all_decidable &= decidable_place(&pl);
			const char *why = s->action == SB_ALLOW ? wide_reason(&pl, home) : NULL;
			const sbx_stmt *deny = NULL;
			bool wide_write = why && (s->access & SBX_ACC_WRITE);
			bool wide_read = why && !wide_write && (s->access & SBX_ACC_READ) &&
					 (default_deny || (deny = earlier_deny(p, &pp, i, &pl, SBX_ACC_READ)));
			any_wide |= wide_write || wide_read;
			if ((wide_write || wide_read) && !acked) {
				char *where = sbx_place_str(&pl);
				const char *on = pl.kind == SBX_PLACE_ANY ? "" : "on ";
				if (wide_write)
					sb_diag_report(d, SB_SEV_ERROR, sbx_target_loc(s, t), "wide-root",
						       "write grant %s%s is too wide: %s; narrow it, or "
						       "add `acknowledge wide \"reason\"`", on, where, why);
				else
					sb_diag_report(d, SB_SEV_ERROR, sbx_target_loc(s, t), "wide-root",
						       "read grant %s%s re-allows too much: %s%s; narrow "
						       "it, or add `acknowledge wide \"reason\"`", on, where, why,
						       deny ? "" : " and the default is deny");
				if (deny)
					sb_diag_note(d, &deny->loc, "the read deny it re-opens is here");
				free(where);
				errors++;
			}
		}
		if (acked && !any_wide && all_decidable)
			sb_diag_report(d, SB_SEV_WARNING, &s->loc, "unused-ack",
				       "`acknowledge wide` on a rule that grants nothing wide; "
				       "remove it so it cannot hide a later change");
	}
	check_widens(sh, d);
	return errors;
}
