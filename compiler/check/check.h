/* check.h - the check passes over a parsed policy.  Each pass lives in its
 * own file (check_*.c), reports through the sb_diag with a stable code, and
 * returns the number of errors it reported.  */
#ifndef SB_CHECK_H
#define SB_CHECK_H

#include "compiler/front/ast.h"
#include "compiler/common/diag.h"

/* Sensitive locations: a read or write grant that covers, equals or lies
 * inside one is an error unless acknowledged (`acknowledge sensitive`). [sensitive] */
int sb_check_sensitive(const sbx_policy *p, const sbx_defines *defs, sb_diag *d);
/* Wide roots: write, or a read re-allow, on /, the home dir or an ancestor
 * of it is an error unless acknowledged (`acknowledge wide`). [wide-root] */
int sb_check_wide(const sbx_policy *p, const sbx_defines *defs, sb_diag *d);
/* Rule order: dead rules, exceptions placed before the rule they carve out
 * of, operation-specificity traps. Warnings. [dead-rule] [exception-order]
 * [specificity] */
int sb_check_order(const sbx_policy *p, const sbx_defines *defs, sb_diag *d);
/* Undefined names, duplicate rules/targets, empty lists. [undefined]
 * [duplicate] [empty] */
int sb_check_names(const sbx_policy *p, const sbx_defines *defs, sb_diag *d);

/* Host rules: broad allows, an allowlist without any model API, host
 * rules a later `network on|off` overrides.  Warnings. [host-broad]
 * [host-model] [dead-rule] */
int sb_check_hosts(const sbx_policy *p, const sbx_defines *defs, sb_diag *d);

/* All of the above, in that order.  Returns the total error count.  */
int sb_check_all(const sbx_policy *p, const sbx_defines *defs, sb_diag *d);

#endif
