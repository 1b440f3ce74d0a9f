/* eval.h - decide an (operation, path) question as Seatbelt does.
 * Model (docs/sbpl-model.md, ../shared/brief/sbpl-semantics.md §6):
 * for op, parent(op), ..., default: the last rule naming that op whose
 * filters match decides; else the last unfiltered rule naming it; else go
 * up.  The "text" model is computed too and a disagreement is reported.  */
#ifndef SB_EVAL_H
#define SB_EVAL_H

#include "ir.h"

typedef enum { SB_DEC_ALLOW, SB_DEC_DENY, SB_DEC_UNKNOWN } sb_decision_kind;

typedef struct sb_decision {
	sb_decision_kind kind;
	const sb_rule *rule;         /* the deciding rule, NULL for the implicit fallback */
	sb_op via_op;                /* the operation level that decided */
	const char *reason;          /* for UNKNOWN: why (static or owned by profile) */
	bool models_disagree;        /* per-op and text model differ */
	sb_decision_kind text_kind;  /* the text model's answer */
	const sb_rule *text_rule;
} sb_decision;

/* vnode: SB_VNODE_* of the target, 0 when unknown.  `path` must be
 * absolute; /tmp, /var, /etc are resolved to /private/... first.  The profile
 * should be bound (sb_profile_bind); unbound params give UNKNOWN.  */
sb_decision sb_decide(const sb_profile *p, sb_op op, const char *path, unsigned vnode);

/* Convenience names: read, write, stat, list, exec -> operation.  */
int sb_op_from_convenience(const char *name);

#endif
