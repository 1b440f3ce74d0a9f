/* supervise.h - a parent that stays outside the sandbox: sbrun forks, the
 * child confines itself and execs, the parent forwards the terminating
 * signals to it and ends as the child ended.  Used when the parent has work
 * to do for the sandboxed tree (the egress proxy, runtime/linux/egress.c);
 * otherwise sbrun execs the command in its own process.  */
#ifndef SB_SUPERVISE_H
#define SB_SUPERVISE_H

#include <signal.h>
#include <stdbool.h>
#include <sys/types.h>

typedef struct sb_sup {
	pid_t child;
	int pidfd;        /* parent: readable when the child has exited */
	int sigfd;        /* parent: signalfd of the forwarded signals */
	sigset_t saved;   /* the signal mask before the fork */
	/* Set by the caller: sb_sup_exit ends what is left of the tree
	 * (runtime/linux/tree.h) before it exits; false: --keep-background.  */
	bool end_tree;
} sb_sup;

/* Fork; the parent becomes the tree's child subreaper (tree.h) and
 * ignores SIGPIPE.  Returns 0 in the child (signal mask restored), the child's pid in
 * the parent (pidfd and sigfd open), or -1 with errno.  */
pid_t sb_sup_fork(sb_sup *s);
/* Parent: `fd` (pidfd or sigfd) is readable.  Forwards a signal, or reaps
 * the child: returns true with its wait status in *wstatus.  */
bool sb_sup_handle(sb_sup *s, int fd, int *wstatus);
/* Parent: end this process as the child ended (exit status, or the same
 * signal re-raised).  Never returns.  */
void sb_sup_exit(sb_sup *s, int wstatus) __attribute__((noreturn));

#endif
