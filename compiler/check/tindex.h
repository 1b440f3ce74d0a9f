/* tindex.h - an index of the rules' places (target.h), so that the check
 * passes compare each rule only with the rules whose targets can relate to
 * it, instead of with every rule.
 *
 * Places are filed by domain (absolute, or a runtime root) and normalised
 * path (components as sbx_path_relation sees them, byte-exact).  A query
 * gathers the lists that can hold an answer into an sbx_tquery; the caller
 * then walks candidates in statement order with sbx_tquery_prev/next and
 * confirms each with the exact relation (sbx_place_covers, ...), so the
 * index only decides what need not be looked at.  Statement numbers are
 * positions in sbx_policy.stmts.  */
#ifndef SB_TINDEX_H
#define SB_TINDEX_H

#include <stddef.h>
#include "compiler/check/target.h"

typedef struct sbx_tindex sbx_tindex;

/* Index every place of `pp` (borrowed; must outlive the index); with
 * `below`, also by every ancestor path, for sbx_tquery_overlapping.  */
sbx_tindex *sbx_tindex_new(const sbx_policy *p, const sbx_places *pp, bool below);
void sbx_tindex_free(sbx_tindex *ix);

/* A set of candidate lists, restricted to rules of the actions in
 * `actions` (1 << SB_ALLOW | 1 << SB_DENY) naming one of `atoms`
 * (SBX_ATOM_*).  */
typedef struct sbx_tquery {
	const struct sbx_tlist **lists;   /* `inl` until more are wanted */
	size_t n, cap;
	unsigned actions, atoms;
	/* most queries want a few lists: no allocation for those (a query is
	 * made per statement; never copy a query by value) */
	const struct sbx_tlist *inl[8];
} sbx_tquery;
void sbx_tquery_init(sbx_tquery *q, unsigned actions, unsigned atoms);
void sbx_tquery_clear(sbx_tquery *q);
/* Rules with a place that may certainly cover x (sbx_place_covers(place,
 * x, false) == SBX_YES); unfiltered rules only with `unfiltered`.  */
void sbx_tquery_covering(sbx_tquery *q, const sbx_tindex *ix, const sbx_place *x,
			 bool unfiltered);
/* Rules with a place that may certainly overlap x (sbx_place_overlaps(x,
 * place, false) == SBX_YES).  */
void sbx_tquery_overlapping(sbx_tquery *q, const sbx_tindex *ix, const sbx_place *x);
/* Rules with a place that x may certainly cover (sbx_place_covers(x,
 * place, false) == SBX_YES): x's own node and the places below it, or
 * every place that is not a list when x is the whole file system.  Unlike
 * sbx_tquery_overlapping, not the places above x, which a caller looking
 * for narrower places would only have to reject one by one.  Needs an
 * index built with `below`.  */
void sbx_tquery_inside(sbx_tquery *q, const sbx_tindex *ix, const sbx_place *x);
/* The greatest candidate statement below `hi`, or the least above `lo`;
 * SIZE_MAX when there is none.  */
size_t sbx_tquery_prev(const sbx_tquery *q, size_t hi);
size_t sbx_tquery_next(const sbx_tquery *q, size_t lo);

/* Rule statements that are the same rule (sbx_rule_same): for each
 * statement i, first[i] is the first such statement (i itself when it is
 * the first, SIZE_MAX for other statements) and later[i] whether one comes
 * after i.  Caller frees both arrays.  */
void sbx_rule_twins(const sbx_policy *p, size_t **first, bool **later);
/* A key that is equal for two targets exactly when sbx_target_same; caller
 * frees; *len set (the key may hold NUL bytes).  */
char *sbx_target_key(const sbx_target *t, size_t *len);

#endif
