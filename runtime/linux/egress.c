#ifdef __linux__ /* Linux only; other systems: runtime/linux/linux_other.c */
/* egress.c - egress by host name on Linux (docs/egress.md): the child
 * enters a new network namespace (inside a new user namespace when not
 * root) that holds only loopback, listens there on 127.0.0.1:3128 and hands
 * the listening socket to the parent over a socketpair (SCM_RIGHTS).  The
 * parent, still in the host's network namespace, serves the egress proxy on
 * it for as long as the child lives: the only way out of the namespace is a
 * connection the proxy makes.  */
#include "runtime/linux/fdpass.h"
#include "runtime/linux/ll_internal.h"
#include "runtime/linux/linux.h"
#include "runtime/linux/supervise.h"
#include "runtime/common/proxy.h"
#include "runtime/common/status.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <netinet/in.h>
#include <poll.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

static int fail(sb_diag *d, const char *step, int err)
{
	sb_diag_report(d, SB_SEV_ERROR, NULL, "egress",
		       "cannot confine the network to the egress proxy: %s failed: %s; "
		       "refusing to run",
		       step, strerror(err));
	sb_diag_note(d, NULL,
		     "host rules need a network namespace (unprivileged: inside a user namespace; "
		     "see sysctl kernel.unprivileged_userns_clone and "
		     "kernel.apparmor_restrict_unprivileged_userns); without host rules "
		     "(OMP_SANDBOX_NETWORK=open or off) no namespace is needed");
	return SB_REFUSED;
}

/* A user namespace mapping only our own ids (unprivileged), then the
 * network namespace.  */
static int enter_namespaces(sb_diag *d)
{
	int flags = CLONE_NEWNET | (geteuid() == 0 ? 0 : CLONE_NEWUSER);
	const char *step = "";
	if (sb_ns_unshare(flags, &step) < 0)
		return fail(d, step, errno);
	return 0;
}

static int loopback_up(sb_diag *d)
{
	int s = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (s < 0)
		return fail(d, "socket() in the new network namespace", errno);
	struct ifreq ifr;
	memset(&ifr, 0, sizeof ifr);
	snprintf(ifr.ifr_name, sizeof ifr.ifr_name, "lo");
	int rc = 0;
	if (ioctl(s, SIOCGIFFLAGS, &ifr) < 0)
		rc = fail(d, "reading the loopback interface's flags", errno);
	ifr.ifr_flags |= IFF_UP;
	if (!rc && ioctl(s, SIOCSIFFLAGS, &ifr) < 0)
		rc = fail(d, "bringing the loopback interface up", errno);
	close(s);
	return rc;
}

static int listen_inside(int *out, sb_diag *d)
{
	int s = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (s < 0)
		return fail(d, "socket() for the proxy", errno);
	int one = 1;
	setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons(SB_PROXY_PORT) };
	inet_pton(AF_INET, SB_PROXY_HOST, &a.sin_addr);
	if (bind(s, (struct sockaddr *)&a, sizeof a) < 0 || listen(s, 512) < 0) {
		int e = errno;
		close(s);
		return fail(d, "listening on " SB_PROXY_HOST ":3128 inside the namespace", e);
	}
	*out = s;
	return 0;
}

/* The parent's side: serve the proxy until the child ends, then end the
 * same way.  */
static void supervise(sb_sup *s, int sp, const sb_egress *eg, int trace_fd, const char *tool)
{
	int lfd = sb_fd_recv(sp);
	close(sp);
	int wstatus = 0;
	if (lfd < 0) {
		/* the child failed before listening: it reported why */
		struct pollfd f = { .fd = s->pidfd, .events = POLLIN };
		while (!sb_sup_handle(s, s->pidfd, &wstatus))
			poll(&f, 1, -1);
		sb_sup_exit(s, wstatus);
	}
	sb_proxy_cfg pc = { .egress = eg, .listen_fd = lfd, .log = stderr, .tool = tool,
			    .trace_fd = trace_fd };
	sb_proxy *p = sb_proxy_new(&pc);
	int watch[2] = { s->pidfd, s->sigfd };
	for (;;) {
		int w = sb_proxy_run(p, watch, 2);
		if (w < 0) {
			/* poll failed: nothing is served any more; the tree goes too */
			kill(s->child, SIGKILL);
			w = 0;
		}
		if (sb_sup_handle(s, watch[w], &wstatus))
			break;
	}
	/* the tree has exited: every connection ends with it */
	sb_proxy_free(p);
	sb_sup_exit(s, wstatus);
}

int sb_ll_egress_enter(const sb_egress *eg, int trace_fd, bool end_tree, const char *tool,
		       sb_diag *d)
{
	int sp[2];
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sp) < 0)
		return fail(d, "socketpair", errno);
	sb_sup s = { .end_tree = end_tree };
	pid_t pid = sb_sup_fork(&s);
	if (pid < 0) {
		close(sp[0]);
		close(sp[1]);
		return fail(d, "fork", errno);
	}
	if (pid > 0) {
		close(sp[1]);
		supervise(&s, sp[0], eg, trace_fd, tool);   /* never returns */
	}
	close(sp[0]);
	if (trace_fd >= 0)
		close(trace_fd);   /* the tree must not write the trace's events */
	int rc = enter_namespaces(d);
	int lfd = -1;
	if (!rc)
		rc = loopback_up(d);
	if (!rc)
		rc = listen_inside(&lfd, d);
	if (!rc && sb_fd_send(sp[1], lfd) < 0)
		rc = fail(d, "handing the proxy socket to the supervisor", errno);
	if (lfd >= 0)
		close(lfd);
	close(sp[1]);
	/* a failure returns like any launch failure: this process (the child)
	 * reports it and exits with the refusal status, which the parent
	 * passes on */
	return rc;
}
#endif /* __linux__ */
