/* exit_status.h - every exit status of sbc, sbrun and omp-sandboxed
 * (docs/exit-status.md).  Only the programs choose an exit status: their
 * mains and the command layers under compiler/cli/ and runtime/cli/.
 * Library stages return 0 or a negative sb_status (runtime/common/status.h)
 * or an error count, and never include this header; tools/check-layers.sh
 * enforces that.  */
#ifndef SB_EXIT_STATUS_H
#define SB_EXIT_STATUS_H

enum {
	SB_EXIT_OK = 0,
	SB_EXIT_FAILURE = 1,     /* sbc: errors in a policy; a self-test check failed */
	SB_EXIT_USAGE = 2,       /* a bad command line */
	SB_EXIT_SETUP = 78,      /* sbrun, omp-sandboxed: refused, or the sandbox not applied */
	SB_EXIT_NOEXEC = 126,    /* command found but not executable (EACCES) */
	SB_EXIT_NOTFOUND = 127,  /* command not found */
};

/* sbc explain: the decision, or an error.  */
enum {
	SB_EXIT_EXPLAIN_ALLOW = 0,
	SB_EXIT_EXPLAIN_DENY = 1,
	SB_EXIT_EXPLAIN_UNKNOWN = 2,
	SB_EXIT_EXPLAIN_ERROR = 3,
};

/* sbc diff: how the second input changes what the first allows.  */
enum {
	SB_EXIT_DIFF_SAME = 0,
	SB_EXIT_DIFF_NARROWER = 1,
	SB_EXIT_DIFF_WIDER = 2,
	SB_EXIT_DIFF_ERROR = 3,
};

#endif
