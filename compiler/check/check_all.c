/* check_all.c - run every check pass in a fixed order, over one set of
 * derived data (check_shared.h), and the single-pass entry points.  */
#include "compiler/check/check.h"
#include "compiler/check/check_shared.h"

#include <stdlib.h>

void sbx_check_shared_init(sbx_check_shared *sh, const sbx_policy *p, const sbx_defines *defs)
{
	sh->p = p;
	sh->defs = defs;
	sbx_places_init(&sh->places, p, defs);
	sh->index = sbx_tindex_new(p, &sh->places, true);
	sbx_rule_twins(p, &sh->first_same, &sh->later_same);
}

void sbx_check_shared_clear(sbx_check_shared *sh)
{
	sbx_tindex_free(sh->index);
	sbx_places_clear(&sh->places);
	free(sh->first_same);
	free(sh->later_same);
	sh->index = NULL;
	sh->first_same = NULL;
	sh->later_same = NULL;
}

typedef int (*pass_fn)(const sbx_check_shared *, sb_diag *);

static int run_alone(pass_fn pass, const sbx_policy *p, const sbx_defines *defs, sb_diag *d)
{
	sbx_check_shared sh;
	sbx_check_shared_init(&sh, p, defs);
	int errors = pass(&sh, d);
	sbx_check_shared_clear(&sh);
	return errors;
}

int sb_check_names(const sbx_policy *p, const sbx_defines *defs, sb_diag *d)
{
	return run_alone(sb_check_names_with, p, defs, d);
}

int sb_check_sensitive(const sbx_policy *p, const sbx_defines *defs, sb_diag *d)
{
	return run_alone(sb_check_sensitive_with, p, defs, d);
}

int sb_check_wide(const sbx_policy *p, const sbx_defines *defs, sb_diag *d)
{
	return run_alone(sb_check_wide_with, p, defs, d);
}

int sb_check_order(const sbx_policy *p, const sbx_defines *defs, sb_diag *d)
{
	return run_alone(sb_check_order_with, p, defs, d);
}

int sb_check_all(const sbx_policy *p, const sbx_defines *defs, sb_diag *d)
{
	sbx_check_shared sh;
	sbx_check_shared_init(&sh, p, defs);
	int errors = 0;
	errors += sb_check_names_with(&sh, d);
	errors += sb_check_sensitive_with(&sh, d);
	errors += sb_check_wide_with(&sh, d);
	errors += sb_check_order_with(&sh, d);
	errors += sb_check_hosts_with(&sh, d);
	sbx_check_shared_clear(&sh);
	return errors;
}
