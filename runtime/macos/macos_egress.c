/* macos_egress.c - host rules on macOS (macos.h; unverified on macOS): the
 * launcher listens on a free loopback port, the profile allows
 * network-outbound to that port only (-D EGRESS_PROXY=localhost:PORT), and
 * this process stays outside the sandbox serving the proxy
 * (runtime/common/proxy.c) until the sandboxed tree has exited.
 *
 * Portable POSIX only: no pidfd or signalfd (runtime/linux/supervise.c).
 * The end of the tree is seen as end of file on a pipe whose write end
 * every process of the tree inherits; the terminating signals are passed
 * to the child by a handler.  */
#include "runtime/macos/macos.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>
#include "runtime/common/proxy.h"
#include "runtime/common/status.h"

int sb_macos_egress_listen(int *fd, int *port, sb_diag *d)
{
	int s = socket(AF_INET, SOCK_STREAM, 0);
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t len = sizeof a;
	if (s < 0 || bind(s, (struct sockaddr *)&a, sizeof a) != 0 || listen(s, 128) != 0 ||
	    getsockname(s, (struct sockaddr *)&a, &len) != 0) {
		int e = errno;
		if (s >= 0)
			close(s);
		sb_diag_report(d, SB_SEV_ERROR, NULL, "egress",
			       "cannot listen on 127.0.0.1 for the egress proxy: %s; refusing to run "
			       "without egress control (OMP_SANDBOX_NETWORK=open or off needs no proxy)",
			       strerror(e));
		return SB_REFUSED;
	}
	fcntl(s, F_SETFD, FD_CLOEXEC);
	*fd = s;
	*port = ntohs(a.sin_port);
	return 0;
}

/* The child's pid for the forwarding handler: a signal handler can reach
 * nothing else.  Set once, before the handlers are installed.  */
static volatile pid_t forward_to;

static void forward(int sig)
{
	if (forward_to > 0)
		kill(forward_to, sig);
}

sb_status sb_macos_egress_exec(const sb_launch *l, const sb_egress *eg, int listen_fd,
			       const char *tool, int *cmd_status, sb_diag *d)
{
	int tree[2];
	if (pipe(tree) != 0) {
		sb_diag_report(d, SB_SEV_ERROR, NULL, "egress", "cannot create a pipe: %s",
			       strerror(errno));
		close(listen_fd);
		return SB_REFUSED;
	}
	fcntl(tree[0], F_SETFD, FD_CLOEXEC);
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0) {
		sb_diag_report(d, SB_SEV_ERROR, NULL, "egress", "cannot fork: %s", strerror(errno));
		close(tree[0]);
		close(tree[1]);
		close(listen_fd);
		return SB_REFUSED;
	}
	if (pid == 0) {
		/* the tree keeps tree[1] open (not close-on-exec) for as long as
		 * any of it lives */
		close(tree[0]);
		close(listen_fd);
		return sb_macos_exec(l, d);
	}
	close(tree[1]);
	forward_to = pid;
	struct sigaction sa = { .sa_handler = forward };
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = SA_RESTART;
	const int fwd[] = { SIGTERM, SIGHUP, SIGUSR1, SIGUSR2 };
	for (size_t i = 0; i < sizeof fwd / sizeof fwd[0]; i++)
		sigaction(fwd[i], &sa, NULL);
	signal(SIGPIPE, SIG_IGN);   /* the proxy writes into sockets the tree may close */
	/* a terminal's ^C reaches the child directly; the proxy must outlive it */
	signal(SIGINT, SIG_IGN);
	signal(SIGQUIT, SIG_IGN);
	sb_proxy_cfg pc = { .egress = eg, .listen_fd = listen_fd, .log = stderr, .tool = tool };
	sb_proxy *p = sb_proxy_new(&pc);
	int watch[1] = { tree[0] };
	if (sb_proxy_run(p, watch, 1) < 0)
		kill(pid, SIGKILL);   /* nothing is served any more: the tree goes too */
	sb_proxy_free(p);
	close(tree[0]);
	int st = 0;
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	if (WIFSIGNALED(st)) {
		signal(WTERMSIG(st), SIG_DFL);
		raise(WTERMSIG(st));
	}
	*cmd_status = sb_wait_exit_code(st);
	return SB_OK;
}
