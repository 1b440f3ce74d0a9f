/* egress_eval.h - what a profile decides for a connection to a host: by
 * its host rules when they decide (the egress proxy's decision,
 * compiler/ir/egress.h), else by its network rules for every host alike.
 * Shared by sbc explain --host and sbc diff.  */
#ifndef SB_EGRESS_EVAL_H
#define SB_EGRESS_EVAL_H

#include <stdbool.h>
#include <stddef.h>
#include "compiler/ir/ir.h"

typedef struct sb_egress_answer {
	bool allowed;
	bool by_proxy;          /* decided by host rules */
	long rule;              /* by_proxy: the deciding egress rule, or -1 */
	bool internal;          /* an IP literal in an internal range */
	const sb_rule *sbpl;    /* !by_proxy: the deciding SBPL rule, or NULL */
	char text[400];         /* the deciding rule as policy text */
	char *origin;           /* "policy.sbx:12", or "" (sb_egress_answer_clear) */
	const sb_origin *where; /* the deciding statement (origin.h), or NULL */
} sb_egress_answer;

void sb_egress_answer_for(const sb_profile *p, const sb_dest *d, sb_egress_answer *out);
/* Free what sb_egress_answer_for allocated in *a.  */
void sb_egress_answer_clear(sb_egress_answer *a);

#endif
