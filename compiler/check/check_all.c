/* check_all.c - run every check pass in a fixed order.  */
#include "compiler/check/check.h"

int sb_check_all(const sbx_policy *p, const sbx_defines *defs, sb_diag *d)
{
	int errors = 0;
	errors += sb_check_names(p, defs, d);
	errors += sb_check_sensitive(p, defs, d);
	errors += sb_check_wide(p, defs, d);
	errors += sb_check_order(p, defs, d);
	return errors;
}
