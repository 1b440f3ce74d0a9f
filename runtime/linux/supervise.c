#ifdef __linux__ /* Linux only */
/* supervise.c - fork, serve, forward signals, reap (supervise.h).  */
#include "runtime/linux/supervise.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/wait.h>
#include <unistd.h>

static const int forwarded[] = { SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGUSR1, SIGUSR2,
				 SIGWINCH, SIGCONT };

static int shell_status(int st)
{
	if (WIFEXITED(st))
		return WEXITSTATUS(st);
	if (WIFSIGNALED(st))
		return 128 + WTERMSIG(st);
	return 1;
}

int sb_supervise(const sb_supervise_ops *ops)
{
	sigset_t set, old;
	sigemptyset(&set);
	sigaddset(&set, SIGCHLD);
	for (size_t i = 0; i < sizeof forwarded / sizeof *forwarded; i++)
		sigaddset(&set, forwarded[i]);
	/* Blocked before the fork, so no SIGCHLD is lost; the child restores
	 * the caller's mask before it runs anything else.  */
	if (sigprocmask(SIG_BLOCK, &set, &old) < 0)
		return -1;
	pid_t parent = getpid();
	pid_t pid = fork();
	if (pid < 0) {
		int e = errno;
		sigprocmask(SIG_SETMASK, &old, NULL);
		errno = e;
		return -1;
	}
	if (pid == 0) {
		sigprocmask(SIG_SETMASK, &old, NULL);
		prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
		if (getppid() != parent)   /* the supervisor died already */
			_exit(128 + SIGKILL);
		_exit(ops->child(ops->child_arg));
	}
	int sfd = signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK);
	int served = ops->start ? ops->start(ops->arg, pid) : -1;
	int status = -1;
	while (status < 0) {
		struct pollfd p[2] = { { .fd = sfd, .events = POLLIN },
				       { .fd = served, .events = POLLIN } };
		int n = poll(p, served >= 0 ? 2 : 1, -1);
		if (n < 0 && errno != EINTR)
			break;
		if (n <= 0)
			continue;
		if (served >= 0 && (p[1].revents & (POLLIN | POLLHUP | POLLERR))) {
			if (ops->ready(ops->arg) < 0)
				served = -1;
		}
		if (!(p[0].revents & POLLIN))
			continue;
		struct signalfd_siginfo si;
		while (read(sfd, &si, sizeof si) == (ssize_t)sizeof si) {
			if (si.ssi_signo == SIGCHLD) {
				int st;
				if (waitpid(pid, &st, WNOHANG) == pid)
					status = shell_status(st);
			} else if (si.ssi_code != SI_KERNEL && (pid_t)si.ssi_pid != pid) {
				kill(pid, (int)si.ssi_signo);
			}
			if (status >= 0)
				break;
		}
	}
	if (status < 0) {   /* poll failed: still wait, never leave the child */
		int st;
		while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
			;
		status = shell_status(st);
	}
	close(sfd);
	sigprocmask(SIG_SETMASK, &old, NULL);
	return status;
}
#endif /* __linux__ */
