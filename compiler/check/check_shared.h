/* check_shared.h - what several check passes derive from the same policy:
 * the places of every rule, the place index (with ancestors) and the rule
 * twins.  sb_check_all builds them once for every pass; a pass called
 * alone builds its own.  Internal to the check stage.  */
#ifndef SB_CHECK_SHARED_H
#define SB_CHECK_SHARED_H

#include <stdbool.h>
#include <stddef.h>
#include "compiler/check/target.h"
#include "compiler/check/tindex.h"

typedef struct sbx_check_shared {
	const sbx_policy *p;
	const sbx_defines *defs;
	sbx_places places;
	sbx_tindex *index;     /* built with ancestors (tindex.h `below`) */
	size_t *first_same;    /* sbx_rule_twins */
	bool *later_same;
} sbx_check_shared;

void sbx_check_shared_init(sbx_check_shared *sh, const sbx_policy *p, const sbx_defines *defs);
void sbx_check_shared_clear(sbx_check_shared *sh);

int sb_check_names_with(const sbx_check_shared *sh, sb_diag *d);
int sb_check_sensitive_with(const sbx_check_shared *sh, sb_diag *d);
int sb_check_wide_with(const sbx_check_shared *sh, sb_diag *d);
int sb_check_order_with(const sbx_check_shared *sh, sb_diag *d);
int sb_check_hosts_with(const sbx_check_shared *sh, sb_diag *d);

#endif
