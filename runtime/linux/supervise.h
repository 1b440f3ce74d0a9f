/* supervise.h - the process model for features that need a parent outside
 * the sandbox (the denial trace; the egress proxy): sbrun forks, the child
 * confines itself and execs the command, the parent stays unconfined,
 * serves one descriptor of the feature's choice, forwards signals sent to
 * it and exits with the child's status.  Without such a feature sbrun
 * execs the command in its own process (no fork: launch speed).
 *
 * Signals: SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGUSR1, SIGUSR2, SIGWINCH,
 * SIGCONT sent to the supervisor by another process are forwarded to the
 * child; those the terminal sends reach the child's process group directly
 * and are not sent twice.  The child gets SIGKILL when the supervisor dies
 * (PR_SET_PDEATHSIG), so a confined tree never outlives the supervisor
 * unwatched, except the processes it moved out of the child's reach
 * (daemons), which stay confined.  */
#ifndef SB_SUPERVISE_H
#define SB_SUPERVISE_H

#include <sys/types.h>

typedef struct sb_supervise_ops {
	/* In the child, signals restored: confine and exec.  Returns only on
	 * failure, with the exit status the child exits with.  */
	int (*child)(void *arg);
	void *child_arg;
	/* In the parent once the child exists: the descriptor to serve, or -1.
	 * May be NULL.  */
	int (*start)(void *arg, pid_t child);
	/* The descriptor is readable (or hung up): serve it.  Return -1 when it
	 * is done (it is then no longer polled).  */
	int (*ready)(void *arg);
	void *arg;
} sb_supervise_ops;

/* Fork and supervise.  Returns the child's exit status as a shell shows
 * it (128+N for signal N), or -1 with errno when the fork failed.  */
int sb_supervise(const sb_supervise_ops *ops);

#endif
