/* eval.h - decide an (operation, path) question as Seatbelt does.
 * Model (docs/sbpl-model.md, "Decision model"):
 * for op, parent(op), ..., default: the last rule naming that op whose
 * filters match decides; else the last unfiltered rule naming it; else go
 * up.  The "text" model is computed too and a disagreement is reported.  */
#ifndef SB_EVAL_H
#define SB_EVAL_H

#include "compiler/ir/ir.h"

typedef enum { SB_DEC_ALLOW, SB_DEC_DENY, SB_DEC_UNKNOWN } sb_decision_kind;

typedef struct sb_decision {
	sb_decision_kind kind;
	const sb_rule *rule;         /* the deciding rule, NULL for the implicit fallback */
	sb_op via_op;                /* the operation level that decided */
	const char *reason;          /* for UNKNOWN: why (static); for an ALLOW with
					no rule: the implicit fallback note */
	const char *unknown_what;    /* for UNKNOWN: the opaque filter text, unbound
					param name or unmodelled form (owned by the
					profile), or NULL */
	sb_loc unknown_loc;          /* where that is; line 0 when unknown */
	bool models_disagree;        /* per-op and text model differ */
	sb_decision_kind text_kind;  /* the text model's answer */
	const sb_rule *text_rule;
} sb_decision;

/* An evaluation context for one profile: what the evaluator derives from
 * the profile (resolved filter strings, compiled regexes, the rule index)
 * lives here, never in the profile, which it borrows and which must not
 * change while the context lives.  Not thread-safe: one context per thread.
 * flags: SB_EVAL_IGNORE_UNMODELLED decides by the modelled rules alone, as
 * if the profile had no unmodelled form (sbc diff compares those as text).  */
typedef struct sb_eval sb_eval;
enum { SB_EVAL_IGNORE_UNMODELLED = 1 << 0 };
sb_eval *sb_eval_new(const sb_profile *p, unsigned flags);
void sb_eval_free(sb_eval *ev);

/* vnode: SB_VNODE_* of the target, 0 when unknown.  `path` must be
 * absolute and normal; /tmp, /var, /etc are resolved to /private/... first.
 * The profile should be bound (sb_profile_bind); unbound params give UNKNOWN.
 * Three-valued: an opaque filter, an unbound param, an unknown vnode type or
 * a regex POSIX cannot compile is "unknown" where it can change the result;
 * an active unmodelled form (import, trace, ...; SB_UNMODELLED_ACTIVE) makes
 * every answer UNKNOWN.  SB_OP_OTHER queries answer UNKNOWN.  With no
 * default rule and nothing matching, the answer is ALLOW with rule NULL and
 * `reason` set ([L]).  The decision's pointers live as long as `ev`.  */
sb_decision sb_eval_decide(sb_eval *ev, sb_op op, const char *path, unsigned vnode);

/* The same for the node at exactly `path`, without the /private
 * resolution: the question Seatbelt asks for a symlink node itself (to
 * follow /tmp, file-read-metadata on the link "/tmp" is checked).  */
sb_decision sb_eval_decide_node(sb_eval *ev, sb_op op, const char *path, unsigned vnode);

/* The same answers as sb_eval_decide, for many questions (sbc diff): the
 * first call indexes the rules by the paths their filters name, and a
 * question then looks only at the rules that can match its path (literal
 * and subpath filters by their string, the rest always).  It keeps the
 * last path's candidates and decisions, so ask about one path for many
 * operations in a row.  */
sb_decision sb_eval_decide_indexed(sb_eval *ev, sb_op op, const char *path, unsigned vnode);
/* sb_eval_decide_indexed for every modelled operation of one path:
 * out[op] for each op below SB_OP_OTHER.  */
void sb_eval_decide_every_op(sb_eval *ev, const char *path, unsigned vnode,
			     sb_decision out[SB_OP__COUNT]);

/* Convenience names -> operation, -1 for other names: read and list ->
 * file-read-data (list: on a directory), write -> file-write-data, stat ->
 * file-read-metadata, exec -> process-exec*, create -> file-write-create,
 * delete -> file-write-unlink.  */
int sb_op_from_convenience(const char *name);

#endif
