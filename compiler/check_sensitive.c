/* check_sensitive.c - placeholder until the pass lands (see check.h).  */
#include "check.h"

int sb_check_sensitive(const sbx_policy *p, const sbx_defines *defs, sb_diag *d)
{
	(void)p;
	(void)defs;
	(void)d;
	return 0;
}
