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

/* vnode: SB_VNODE_* of the target, 0 when unknown.  `path` must be
 * absolute and normal; /tmp, /var, /etc are resolved to /private/... first.
 * The profile should be bound (sb_profile_bind); unbound params give UNKNOWN.
 * Three-valued: an opaque filter, an unbound param, an unknown vnode type or
 * a regex POSIX cannot compile is "unknown" where it can change the result;
 * a non-definition unmodelled form (import, if, ...) makes every answer
 * UNKNOWN.  Filters cache derived data (compiled regexes) in
 * sb_filter.cache, so a profile must not be decided from two threads.
 * SB_OP_OTHER queries answer UNKNOWN.  With no default rule and nothing
 * matching, the answer is ALLOW with rule NULL and `reason` set ([L]).  */
sb_decision sb_decide(const sb_profile *p, sb_op op, const char *path, unsigned vnode);

/* The same for the node at exactly `path`, without the /private
 * resolution: the question Seatbelt asks for a symlink node itself (to
 * follow /tmp, file-read-metadata on the link "/tmp" is checked).  */
sb_decision sb_decide_node(const sb_profile *p, sb_op op, const char *path, unsigned vnode);

/* An index of a profile's rules by the paths their filters name, for many
 * questions to one profile (sbc diff): a question then looks only at the
 * rules that can match its path (literal and subpath filters by their
 * string, the rest always), with the same answers as sb_decide.  It keeps
 * the last path's candidates, so ask about one path for many operations in
 * a row; not thread-safe (like the filter caches).  It borrows the
 * profile, which must not change while the index lives.  */
typedef struct sb_eval_index sb_eval_index;
sb_eval_index *sb_eval_index_new(const sb_profile *p);
void sb_eval_index_free(sb_eval_index *ix);
sb_decision sb_decide_indexed(sb_eval_index *ix, sb_op op, const char *path, unsigned vnode);
/* Convenience names -> operation, -1 for other names: read and list ->
 * file-read-data (list: on a directory), write -> file-write-data, stat ->
 * file-read-metadata, exec -> process-exec*, create -> file-write-create,
 * delete -> file-write-unlink.  */
int sb_op_from_convenience(const char *name);

#endif
