/* decide_util.h - one question to a profile, for tests that ask a few:
 * a fresh evaluation context per question (eval.h).  The decision's
 * pointers into the profile stay valid; a string the context built (a
 * computed regex named as unknown_what) does not, so tests that read
 * unknown_what of such filters, or of an unbound param (its spelling),
 * keep a context (sb_eval_new) instead.  */
#ifndef SB_TEST_DECIDE_UTIL_H
#define SB_TEST_DECIDE_UTIL_H

#include "compiler/eval/eval.h"

static inline sb_decision decide_once(const sb_profile *p, sb_op op, const char *path, unsigned vnode)
{
	sb_eval *ev = sb_eval_new(p, 0);
	sb_decision d = sb_eval_decide(ev, op, path, vnode);
	sb_eval_free(ev);
	return d;
}

static inline sb_decision decide_node_once(const sb_profile *p, sb_op op, const char *path,
					   unsigned vnode)
{
	sb_eval *ev = sb_eval_new(p, 0);
	sb_decision d = sb_eval_decide_node(ev, op, path, vnode);
	sb_eval_free(ev);
	return d;
}

#endif
