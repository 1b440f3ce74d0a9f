#ifdef __linux__ /* Linux only; other systems: runtime/linux/linux_other.c */
/* supervise.c - the supervising parent (see supervise.h).  pidfd and
 * signalfd make the child's end and the forwarded signals two descriptors
 * the parent's poll loop waits on: no signal handler, no global state.  */
#include "runtime/linux/supervise.h"
#include "runtime/linux/tree.h"
#include "runtime/common/status.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef __NR_pidfd_open
#define __NR_pidfd_open 434
#endif

static void forwarded(sigset_t *set)
{
	sigemptyset(set);
	sigaddset(set, SIGINT);
	sigaddset(set, SIGTERM);
	sigaddset(set, SIGHUP);
	sigaddset(set, SIGQUIT);
	sigaddset(set, SIGUSR1);
	sigaddset(set, SIGUSR2);
	sigaddset(set, SIGWINCH);
}

pid_t sb_sup_fork(sb_sup *s)
{
	sigset_t set;
	forwarded(&set);
	s->pidfd = s->sigfd = -1;
	if (sigprocmask(SIG_BLOCK, &set, &s->saved) < 0)
		return -1;
	pid_t parent = getpid();
	/* before the fork, so no orphan of the tree can reach init first */
	sb_tree_reaper();
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0) {
		int e = errno;
		sigprocmask(SIG_SETMASK, &s->saved, NULL);
		errno = e;
		return -1;
	}
	if (pid == 0) {
		/* the tree must not outlive its supervisor (its proxy) */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != parent)
			_exit(127);
		sigprocmask(SIG_SETMASK, &s->saved, NULL);
		return 0;
	}
	s->child = pid;
	/* This process never execs: a write or splice(2) into a socket or
	 * pipe the tree closed must fail with EPIPE, not end the proxy or the
	 * trace supervisor (a sandboxed process could end its supervisor at
	 * will; tests/escape/41-proxy-sigpipe.sh).  The child keeps the default.  */
	signal(SIGPIPE, SIG_IGN);
	s->pidfd = (int)syscall(__NR_pidfd_open, pid, 0);
	s->sigfd = signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK);
	if (s->pidfd < 0 || s->sigfd < 0) {
		int e = errno;
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		if (s->pidfd >= 0)
			close(s->pidfd);
		if (s->sigfd >= 0)
			close(s->sigfd);
		sigprocmask(SIG_SETMASK, &s->saved, NULL);
		errno = e;
		return -1;
	}
	return pid;
}

bool sb_sup_handle(sb_sup *s, int fd, int *wstatus)
{
	if (fd == s->sigfd) {
		struct signalfd_siginfo si;
		/* a terminal's ^C reaches the child directly (same process
		 * group): forward only what a process sent to us */
		while (read(s->sigfd, &si, sizeof si) == (ssize_t)sizeof si)
			if (si.ssi_code != SI_KERNEL)
				kill(s->child, (int)si.ssi_signo);
		return false;
	}
	pid_t r;
	do
		r = waitpid(s->child, wstatus, WNOHANG);
	while (r < 0 && errno == EINTR);
	return r == s->child;
}

void sb_sup_exit(sb_sup *s, int wstatus)
{
	close(s->pidfd);
	close(s->sigfd);
	if (s->end_tree)
		sb_tree_end();
	fflush(NULL);
	if (WIFSIGNALED(wstatus)) {
		int sig = WTERMSIG(wstatus);
		signal(sig, SIG_DFL);
		sigset_t one;
		sigemptyset(&one);
		sigaddset(&one, sig);
		sigprocmask(SIG_UNBLOCK, &one, NULL);
		raise(sig);
		_exit(sb_wait_exit_code(wstatus));
	}
	/* _exit, flushed above: exit() would run libc's and the loader's
	 * finalizers, writing pages this forked process shares copy-on-write
	 * (nothing of ours is registered with atexit) */
	_exit(sb_wait_exit_code(wstatus));
}
#endif /* __linux__ */
